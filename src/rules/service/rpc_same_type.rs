//! RPC_SAME_REQUEST_TYPE and RPC_SAME_RESPONSE_TYPE: an RPC keeps its message types.

use crate::diff::MethodPair;
use crate::finding::{Location, Sink};
use crate::rules::quote::quote;

/// RPC_SAME_REQUEST_TYPE: the request message type changed.
pub(in crate::rules) fn request(pair: &MethodPair, out: &mut Sink) {
    let (was, is) = (&pair.old.input_type, &pair.new.input_type);
    if was == is {
        return;
    }
    out.add(
        Some(Location::in_file(pair.new_file, Some(pair.new.input_span))),
        Some(Location::in_file(pair.old_file, Some(pair.old.input_span))),
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

/// RPC_SAME_RESPONSE_TYPE: the response message type changed.
pub(in crate::rules) fn response(pair: &MethodPair, out: &mut Sink) {
    let (was, is) = (&pair.old.output_type, &pair.new.output_type);
    if was == is {
        return;
    }
    out.add(
        Some(Location::in_file(pair.new_file, Some(pair.new.output_span))),
        Some(Location::in_file(pair.old_file, Some(pair.old.output_span))),
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
