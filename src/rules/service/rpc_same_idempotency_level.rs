//! RPC_SAME_IDEMPOTENCY_LEVEL: the `idempotency_level` option changed. Points at the option,
//! or at the file when the new RPC does not set it (as buf does).

use crate::diff::MethodPair;
use crate::finding::{Location, Sink};
use crate::rules::quote::quote;

const IDEMPOTENCY_LEVEL: &str = "idempotency_level";

/// The method's `idempotency_level` (unset: IDEMPOTENCY_UNKNOWN).
fn idempotency_level(method: &crate::model::Method) -> String {
    method
        .options
        .value(IDEMPOTENCY_LEVEL)
        .and_then(|v| v.as_str())
        .map_or_else(|| "IDEMPOTENCY_UNKNOWN".to_string(), |v| v.into_owned())
}

pub(in crate::rules) fn check(pair: &MethodPair, out: &mut Sink) {
    let (was, is) = (idempotency_level(pair.old), idempotency_level(pair.new));
    if was == is {
        return;
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
        Some(Location::in_file(
            pair.new_file,
            pair.new.options.span(IDEMPOTENCY_LEVEL),
        )),
        Some(Location::in_file(
            pair.old_file,
            pair.old
                .options
                .span(IDEMPOTENCY_LEVEL)
                .or(Some(pair.old.span)),
        )),
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
