//! RPC_NO_DELETE: an RPC of a service is gone.

use crate::finding::{Location, Sink};
use crate::model::{Method, Service};
use crate::rules::pairs::Removed;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(removed: &Removed<Method, Service>, out: &mut Sink) {
    let Removed {
        old: method,
        parents,
    } = removed;
    let new = parents.new.item;
    out.add(
        Some(Location::in_file(parents.new.file, Some(new.span))),
        Some(Location::in_file(parents.old.file, Some(method.span))),
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
