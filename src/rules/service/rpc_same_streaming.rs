//! RPC_SAME_CLIENT_STREAMING and RPC_SAME_SERVER_STREAMING: each side of an RPC stays unary
//! or streaming.

use crate::diff::MethodPair;
use crate::finding::{Location, Sink};
use crate::rules::quote::quote;

/// "unary"/"streaming" pair for a streaming flag change, old first.
fn streaming_change(was: bool) -> (&'static str, &'static str) {
    if was {
        ("streaming", "unary")
    } else {
        ("unary", "streaming")
    }
}

/// RPC_SAME_CLIENT_STREAMING: the request side changed between unary and streaming.
pub(in crate::rules) fn client(pair: &MethodPair, out: &mut Sink) {
    check_streaming(pair, out, "client", |p| {
        (p.old.client_streaming, p.new.client_streaming)
    });
}

/// RPC_SAME_SERVER_STREAMING: the response side changed between unary and streaming.
pub(in crate::rules) fn server(pair: &MethodPair, out: &mut Sink) {
    check_streaming(pair, out, "server", |p| {
        (p.old.server_streaming, p.new.server_streaming)
    });
}

fn check_streaming(
    pair: &MethodPair,
    out: &mut Sink,
    side: &str,
    flags: impl Fn(&MethodPair) -> (bool, bool),
) {
    let (was, is) = flags(pair);
    if was == is {
        return;
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
        Some(Location::in_file(pair.new_file, Some(pair.new.span))),
        Some(Location::in_file(pair.old_file, Some(pair.old.span))),
        format!(
            "RPC {} on service {} changed from {side} {from} to {side} {to}.",
            quote(&pair.new.name),
            quote(&pair.new_service.name)
        ),
    )
    .help = Some(help);
}
