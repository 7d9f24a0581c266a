//! Rules about services and RPCs.

use std::collections::HashSet;

use super::util::quote;
use crate::compare::{Ctx, MethodPair, Sink};

/// SERVICE_NO_DELETE: a service is missing from a file that still exists. buf points at the
/// file, as the service has no place left in it.
pub fn service_no_delete(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in ctx.file_pairs() {
        let kept: HashSet<&str> = new.services.iter().map(|s| s.name.as_str()).collect();
        for service in &old.services {
            if kept.contains(service.name.as_str()) {
                continue;
            }
            out.add(
                ctx.new_loc(new, None),
                ctx.old_loc(old, Some(service.span)),
                format!(
                    "Previously present service {} was deleted from file.",
                    quote(&service.name)
                ),
            )
            .help = Some(format!(
                "restore service {}; clients still call it — deprecate it \
                 (`option deprecated = true;`) and remove it once no client uses it",
                service.name
            ));
        }
    }
}

/// RPC_NO_DELETE: an RPC of a service is gone.
pub fn rpc_no_delete(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.service_pairs() {
        let (new, old) = (pair.new.item, pair.old.item);
        let kept: HashSet<&str> = new.methods.iter().map(|m| m.name.as_str()).collect();
        for method in &old.methods {
            if kept.contains(method.name.as_str()) {
                continue;
            }
            out.add(
                ctx.new_loc(pair.new.file, Some(new.span)),
                ctx.old_loc(pair.old.file, Some(method.span)),
                format!(
                    "Previously present RPC {} on service {} was deleted.",
                    quote(&method.name),
                    quote(&new.name)
                ),
            )
            .help = Some(format!(
                "restore rpc {} in service {}; deprecate it instead of deleting it while \
                 clients still call it",
                method.name, new.name
            ));
        }
    }
}

/// "unary"/"streaming" pair for a streaming flag change, old first.
fn streaming_change(was: bool) -> (&'static str, &'static str) {
    if was {
        ("streaming", "unary")
    } else {
        ("unary", "streaming")
    }
}

/// RPC_SAME_CLIENT_STREAMING: the request side changed between unary and streaming.
pub fn rpc_same_client_streaming(ctx: &Ctx, out: &mut Sink) {
    check_streaming(ctx, out, "client", |p| {
        (p.old.client_streaming, p.new.client_streaming)
    });
}

/// RPC_SAME_SERVER_STREAMING: the response side changed between unary and streaming.
pub fn rpc_same_server_streaming(ctx: &Ctx, out: &mut Sink) {
    check_streaming(ctx, out, "server", |p| {
        (p.old.server_streaming, p.new.server_streaming)
    });
}

fn check_streaming(
    ctx: &Ctx,
    out: &mut Sink,
    side: &str,
    flags: impl Fn(&MethodPair) -> (bool, bool),
) {
    for pair in ctx.method_pairs() {
        let (was, is) = flags(pair);
        if was == is {
            continue;
        }
        let (from, to) = streaming_change(was);
        let help = if was {
            format!(
                "restore the `stream` keyword on the {} of rpc {}",
                if side == "client" {
                    "request"
                } else {
                    "response"
                },
                pair.new.name
            )
        } else {
            format!(
                "remove the `stream` keyword from the {} of rpc {}; add a new streaming rpc \
                 instead",
                if side == "client" {
                    "request"
                } else {
                    "response"
                },
                pair.new.name
            )
        };
        out.add(
            ctx.new_loc(pair.new_file, Some(pair.new.span)),
            ctx.old_loc(pair.old_file, Some(pair.old.span)),
            format!(
                "RPC {} on service {} changed from {side} {from} to {side} {to}.",
                quote(&pair.new.name),
                quote(&pair.new_service.name)
            ),
        )
        .help = Some(help);
    }
}

/// RPC_SAME_REQUEST_TYPE: the request message type changed.
pub fn rpc_same_request_type(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.method_pairs() {
        let (was, is) = (&pair.old.input_type, &pair.new.input_type);
        if was == is {
            continue;
        }
        out.add(
            ctx.new_loc(pair.new_file, Some(pair.new.input_span)),
            ctx.old_loc(pair.old_file, Some(pair.old.input_span)),
            format!(
                "RPC {} on service {} changed request type from {} to {}.",
                quote(&pair.new.name),
                quote(&pair.new_service.name),
                quote(was),
                quote(is)
            ),
        )
        .help = Some(format!(
            "restore the request type {was} of rpc {}; add a new rpc for the new type",
            pair.new.name
        ));
    }
}

/// RPC_SAME_RESPONSE_TYPE: the response message type changed.
pub fn rpc_same_response_type(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.method_pairs() {
        let (was, is) = (&pair.old.output_type, &pair.new.output_type);
        if was == is {
            continue;
        }
        out.add(
            ctx.new_loc(pair.new_file, Some(pair.new.output_span)),
            ctx.old_loc(pair.old_file, Some(pair.old.output_span)),
            format!(
                "RPC {} on service {} changed response type from {} to {}.",
                quote(&pair.new.name),
                quote(&pair.new_service.name),
                quote(was),
                quote(is)
            ),
        )
        .help = Some(format!(
            "restore the response type {was} of rpc {}; add a new rpc for the new type",
            pair.new.name
        ));
    }
}

const IDEMPOTENCY_LEVEL: &str = "idempotency_level";

/// The method's `idempotency_level` (unset: IDEMPOTENCY_UNKNOWN).
fn idempotency_level(method: &crate::model::Method) -> String {
    method
        .options
        .value(IDEMPOTENCY_LEVEL)
        .and_then(|v| v.as_str())
        .unwrap_or("IDEMPOTENCY_UNKNOWN")
        .to_string()
}

/// RPC_SAME_IDEMPOTENCY_LEVEL: the `idempotency_level` option changed. Points at the option,
/// or at the file when the new RPC does not set it (as buf does).
pub fn rpc_same_idempotency_level(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.method_pairs() {
        let (was, is) = (idempotency_level(pair.old), idempotency_level(pair.new));
        if was == is {
            continue;
        }
        let help = if pair.old.options.get(IDEMPOTENCY_LEVEL).is_some() {
            format!(
                "restore `option {IDEMPOTENCY_LEVEL} = {was};` on rpc {}",
                pair.new.name
            )
        } else {
            format!(
                "remove `option {IDEMPOTENCY_LEVEL}` from rpc {}: it was unset before",
                pair.new.name
            )
        };
        out.add(
            ctx.new_loc(pair.new_file, pair.new.options.span(IDEMPOTENCY_LEVEL)),
            ctx.old_loc(
                pair.old_file,
                pair.old
                    .options
                    .span(IDEMPOTENCY_LEVEL)
                    .or(Some(pair.old.span)),
            ),
            format!(
                "RPC {} on service {} changed option \"{IDEMPOTENCY_LEVEL}\" from {} to {}.",
                quote(&pair.new.name),
                quote(&pair.new_service.name),
                quote(&was),
                quote(&is)
            ),
        )
        .help = Some(help);
    }
}
