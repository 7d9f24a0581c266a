//! Rules about services and RPCs.

pub(super) mod no_delete;
pub(super) mod rpc_no_delete;
pub(super) mod rpc_same_idempotency_level;
pub(super) mod rpc_same_streaming;
pub(super) mod rpc_same_type;

#[cfg(test)]
mod tests;
