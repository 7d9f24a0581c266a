//! Rules about files: deletion, package, syntax and the file options that shape generated code.

pub(super) mod no_delete;
pub(super) mod same_option;
pub(super) mod same_package;
pub(super) mod same_syntax;

#[cfg(test)]
mod tests;
