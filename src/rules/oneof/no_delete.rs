//! ONEOF_NO_DELETE: a (real) oneof of a message is gone. Synthetic oneofs of proto3
//! `optional` fields are not oneofs for this rule.

use crate::finding::{Location, Sink};
use crate::model::{Message, Oneof};
use crate::rules::pairs::Removed;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(removed: &Removed<Oneof, Message>, out: &mut Sink) {
    let Removed {
        old: oneof,
        parents,
    } = removed;
    if oneof.synthetic {
        return;
    }
    let new = parents.new.item;
    out.add(
        Some(Location::in_file(parents.new.file, Some(new.span))),
        Some(Location::in_file(parents.old.file, Some(oneof.span))),
        format!(
            "Previously present oneof {} on message {} was deleted.",
            quote(&oneof.name),
            quote(&new.name)
        ),
    )
    .help = Some(format!(
        "restore `oneof {} {{ ... }}` with its fields in message {}",
        oneof.name, new.name
    ));
}
