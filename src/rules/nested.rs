//! Elements by their name relative to the package (`Outer.Inner`), which is how buf matches
//! them within a file or a package, and where buf reports an element deleted from a file.

use std::collections::BTreeMap;

use super::pairs::FilePair;
use super::quote::quote;
use crate::finding::{Location, Sink};
use crate::model::{Enum, Field, File, Message, Span};

/// Messages of a file keyed by their name relative to the package (`Outer.Inner`), which is
/// how buf matches elements within a file or a package.
pub fn messages_by_nested_name(file: &File) -> BTreeMap<String, &Message> {
    let mut out = BTreeMap::new();
    for_each_message(file, |nested, m| {
        out.insert(nested.to_string(), m);
    });
    out
}

/// Enums of a file (top-level and nested) keyed by nested name.
pub fn enums_by_nested_name(file: &File) -> BTreeMap<String, &Enum> {
    let mut out: BTreeMap<String, &Enum> = file.enums.iter().map(|e| (e.name.clone(), e)).collect();
    for_each_message(file, |nested, m| {
        for e in &m.enums {
            out.insert(format!("{nested}.{}", e.name), e);
        }
    });
    out
}

/// Extensions of a file (top-level and declared inside messages) keyed by nested name
/// (`ext` or `Outer.ext`).
pub fn extensions_by_nested_name(file: &File) -> BTreeMap<String, &Field> {
    let mut out: BTreeMap<String, &Field> = file
        .extensions
        .iter()
        .map(|f| (f.name.clone(), f))
        .collect();
    for_each_message(file, |nested, m| {
        for f in &m.extensions {
            out.insert(format!("{nested}.{}", f.name), f);
        }
    });
    out
}

/// Calls `f(nested_name, message)` for every message of the file, parents first.
pub fn for_each_message<'a>(file: &'a File, mut f: impl FnMut(&str, &'a Message)) {
    fn walk<'a>(prefix: &str, m: &'a Message, f: &mut impl FnMut(&str, &'a Message)) {
        let nested = if prefix.is_empty() {
            m.name.clone()
        } else {
            format!("{prefix}.{}", m.name)
        };
        f(&nested, m);
        for child in &m.messages {
            walk(&nested, child, f);
        }
    }
    for m in &file.messages {
        walk("", m, &mut f);
    }
}

/// The closest enclosing message of a deleted element that still exists, looked up by the
/// element's old nested name (`A.B.c` tries `A.B`, then `A`). None: report at the file.
pub fn enclosing_message<V: Copy>(nested_name: &str, messages: &BTreeMap<String, V>) -> Option<V> {
    let mut scope = nested_name;
    while let Some((parent, _)) = scope.rsplit_once('.') {
        if let Some(m) = messages.get(parent) {
            return Some(*m);
        }
        scope = parent;
    }
    None
}

/// Where buf reports an element deleted from `file`: the closest enclosing message that still
/// exists in the new file, else the file itself. `messages` is
/// [`messages_by_nested_name`] of `file`.
pub fn deleted_element_location(
    file: &File,
    messages: &BTreeMap<String, &Message>,
    nested_name: &str,
) -> Location {
    let span = enclosing_message(nested_name, messages).map(|m| m.span);
    Location::in_file(file, span)
}

/// MESSAGE_NO_DELETE and ENUM_NO_DELETE: reports each `kind` element (listed per file by
/// `by_name`) missing from a file that still exists, at its closest surviving parent message.
pub fn report_deleted_from_file<T>(
    FilePair { new, old }: FilePair,
    out: &mut Sink,
    kind: &str,
    by_name: fn(&File) -> BTreeMap<String, &T>,
    span: fn(&T) -> Span,
) {
    let new_messages = messages_by_nested_name(new);
    let new_elements = by_name(new);
    for (nested, old_element) in by_name(old) {
        if new_elements.contains_key(&nested) {
            continue;
        }
        out.add(
            Some(deleted_element_location(new, &new_messages, &nested)),
            Some(Location::in_file(old, Some(span(old_element)))),
            format!(
                "Previously present {kind} {} was deleted from file.",
                quote(&nested)
            ),
        )
        .help = Some(format!(
            "restore {kind} {nested}; to retire it, keep it and mark it \
             `option deprecated = true;`"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enclosing_message_walks_up() {
        let messages: BTreeMap<String, &Message> = BTreeMap::new();
        assert!(enclosing_message("A.B.c", &messages).is_none());
        assert!(enclosing_message("c", &messages).is_none());
    }
}
