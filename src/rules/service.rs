//! Rules about service elements.

use crate::compare::{Ctx, Sink};

/// RPC_NO_DELETE: not implemented yet.
pub fn rpc_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// RPC_SAME_CLIENT_STREAMING: not implemented yet.
pub fn rpc_same_client_streaming(_ctx: &Ctx, _out: &mut Sink) {}

/// RPC_SAME_IDEMPOTENCY_LEVEL: not implemented yet.
pub fn rpc_same_idempotency_level(_ctx: &Ctx, _out: &mut Sink) {}

/// RPC_SAME_REQUEST_TYPE: not implemented yet.
pub fn rpc_same_request_type(_ctx: &Ctx, _out: &mut Sink) {}

/// RPC_SAME_RESPONSE_TYPE: not implemented yet.
pub fn rpc_same_response_type(_ctx: &Ctx, _out: &mut Sink) {}

/// RPC_SAME_SERVER_STREAMING: not implemented yet.
pub fn rpc_same_server_streaming(_ctx: &Ctx, _out: &mut Sink) {}

/// SERVICE_NO_DELETE: not implemented yet.
pub fn service_no_delete(_ctx: &Ctx, _out: &mut Sink) {}
