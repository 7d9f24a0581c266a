//! MESSAGE_NO_REMOVE_STANDARD_DESCRIPTOR_ACCESSOR: `no_standard_descriptor_accessor` went
//! from false (or unset) to true.

use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::Message;
use crate::rules::quote::quote;

const OPTION: &str = "no_standard_descriptor_accessor";

pub(in crate::rules) fn check(pair: &Pair<Message>, out: &mut Sink) {
    let (new, old) = (pair.new.item, pair.old.item);
    let was = old.options.bool(OPTION).unwrap_or(false);
    let is = new.options.bool(OPTION).unwrap_or(false);
    if was || !is {
        return;
    }
    out.add(
        Some(Location::in_file(pair.new.file, new.options.span(OPTION))),
        Some(Location::in_file(
            pair.old.file,
            old.options.span(OPTION).or(Some(old.span)),
        )),
        format!(
            "Message option {} changed from {} to {}.",
            quote(OPTION),
            quote("false"),
            quote("true")
        ),
    )
    .help = Some(format!(
        "remove `option {OPTION} = true;` from message {}: generated code relies on the \
         descriptor accessor",
        new.name
    ));
}
