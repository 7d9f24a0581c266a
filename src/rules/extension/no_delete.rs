//! EXTENSION_NO_DELETE: an extension (top-level or declared in a message) is missing from a
//! file that still exists. Points at the closest surviving parent message, else the file.

use crate::finding::{Location, Sink};
use crate::rules::nested::{
    deleted_element_location, extensions_by_nested_name, messages_by_nested_name,
};
use crate::rules::pairs::FilePair;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(FilePair { new, old }: FilePair, out: &mut Sink) {
    let new_messages = messages_by_nested_name(new);
    let new_extensions = extensions_by_nested_name(new);
    for (nested, old_ext) in extensions_by_nested_name(old) {
        if new_extensions.contains_key(&nested) {
            continue;
        }
        out.add(
            Some(deleted_element_location(new, &new_messages, &nested)),
            Some(Location::in_file(old, Some(old_ext.span))),
            format!(
                "Previously present extension {} was deleted from file.",
                quote(&nested)
            ),
        )
        .help = Some(format!(
            "restore extension {nested}; to retire it, keep it deprecated and never reuse \
             number {} on {}",
            old_ext.number,
            old_ext.extendee().unwrap_or("the extended message")
        ));
    }
}
