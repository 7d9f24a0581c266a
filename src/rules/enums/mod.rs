//! Rules about enums and enum values.

pub(super) mod no_delete;
pub(super) mod reserved_no_delete;
pub(super) mod same_json_format;
pub(super) mod same_type;
pub(super) mod value_no_delete;
pub(super) mod value_same_name;

#[cfg(test)]
mod tests;
