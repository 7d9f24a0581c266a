//! Rules about extensions.

use super::util::{
    deleted_element_location, extensions_by_nested_name, messages_by_nested_name, quote,
};
use crate::compare::{Ctx, Sink};

/// EXTENSION_NO_DELETE: an extension (top-level or declared in a message) is missing from a
/// file that still exists. Points at the closest surviving parent message, else the file.
pub fn extension_no_delete(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in ctx.file_pairs() {
        let new_messages = messages_by_nested_name(new);
        let new_extensions = extensions_by_nested_name(new);
        for (nested, old_ext) in extensions_by_nested_name(old) {
            if new_extensions.contains_key(&nested) {
                continue;
            }
            out.add(
                Some(deleted_element_location(new, &new_messages, &nested)),
                ctx.old_loc(old, Some(old_ext.span)),
                format!(
                    "Previously present extension {} was deleted from file.",
                    quote(&nested)
                ),
            )
            .help = Some(format!(
                "restore extension {nested}; to retire it, keep it deprecated and never reuse \
                 number {} on {}",
                old_ext.number,
                old_ext
                    .extendee
                    .as_deref()
                    .unwrap_or("the extended message")
            ));
        }
    }
}
