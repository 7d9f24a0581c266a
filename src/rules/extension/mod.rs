//! Rules about extensions.

pub(super) mod no_delete;
