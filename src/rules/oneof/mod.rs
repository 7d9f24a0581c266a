//! Rules about oneofs.

pub(super) mod no_delete;
