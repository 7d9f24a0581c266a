//! Extension numbers of one extendee used twice in one file.

use std::collections::HashMap;

use crate::model::{File, Span};

/// protoc: `Extension number 1 has already been used in "M" by extension "a".` Checked within
/// one file: protoc accepts two files that extend a message with one number when neither
/// imports the other.
pub(super) fn extension_numbers_once(file: &File) -> Vec<(Span, String)> {
    let mut extensions = file.all_extensions();
    extensions.sort_by_key(|field| field.span.start);
    let mut first: HashMap<(&str, i64), &str> = HashMap::new();
    let mut errors = Vec::new();
    for field in extensions {
        let Some(extendee) = field.extendee() else {
            continue;
        };
        if let Some(other) = first.insert((extendee, field.number), &field.name) {
            // Keep the first one as the one named.
            first.insert((extendee, field.number), other);
            errors.push((
                field.number_span,
                format!(
                    "extension `{}`: number {} of `{extendee}` is already used by extension `{other}`",
                    field.name, field.number
                ),
            ));
        }
    }
    errors
}
