//! Small helpers shared by rule handlers: names relative to the package, where a deleted
//! element is reported, reserved numbers and names, range coverage, and buf-style quoting.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use crate::compare::{Ctx, Location, Pair, Sink};
pub use crate::model::ranges::{collapse_ranges, NumRange, NumberSet};
use crate::model::{Enum, Field, File, Message, ReservedName, ReservedRange, Span, Syntax};

/// The highest field number of a message (`max` in a message range).
pub const MESSAGE_MAX: i64 = 536_870_911;
/// The highest field number of a message using the message-set wire format.
pub const MESSAGE_SET_MAX: i64 = 2_147_483_646;
/// The highest enum value number (`max` in an enum range).
pub const ENUM_MAX: i64 = 2_147_483_647;

/// A string quoted like Go's `%q` (`strconv.Quote`): backslash escapes for quotes, backslashes
/// and control characters; printable Unicode kept as is.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                if (c as u32) <= 0xffff {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                } else {
                    let _ = write!(out, "\\U{:08x}", c as u32);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `"a", "b", "c"`: each quoted, comma-separated (buf's list style).
pub fn quote_list<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|s| quote(s.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

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
    ctx: &Ctx,
    out: &mut Sink,
    kind: &str,
    by_name: fn(&File) -> BTreeMap<String, &T>,
    span: fn(&T) -> Span,
) {
    for (new, old) in ctx.file_pairs() {
        let new_messages = messages_by_nested_name(new);
        let new_elements = by_name(new);
        for (nested, old_element) in by_name(old) {
            if new_elements.contains_key(&nested) {
                continue;
            }
            out.add(
                Some(deleted_element_location(new, &new_messages, &nested)),
                ctx.old_loc(old, Some(span(old_element))),
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
}

/// The reserved numbers and names of one message or enum, for membership tests that stay
/// fast when a message reserves (or deletes) tens of thousands of them.
pub struct Reservations<'a> {
    numbers: NumberSet,
    names: HashSet<&'a str>,
}

impl<'a> Reservations<'a> {
    pub fn new(ranges: &[ReservedRange], names: &'a [ReservedName]) -> Self {
        Reservations {
            numbers: NumberSet::of(ranges),
            names: names.iter().map(|n| n.name.as_str()).collect(),
        }
    }

    pub fn of_message(m: &'a Message) -> Self {
        Self::new(&m.reserved_ranges, &m.reserved_names)
    }

    pub fn of_enum(e: &'a Enum) -> Self {
        Self::new(&e.reserved_ranges, &e.reserved_names)
    }

    pub fn number(&self, number: i64) -> bool {
        self.numbers.contains(number)
    }

    pub fn name(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

/// RESERVED_MESSAGE_NO_DELETE and RESERVED_ENUM_NO_DELETE: each reserved name of the old
/// element that the new one no longer reserves. `kind` is "message" or "enum".
pub fn report_deleted_reserved_names<T>(
    ctx: &Ctx,
    out: &mut Sink,
    pair: &Pair<T>,
    kind: &str,
    parts: impl Fn(&T) -> (&[ReservedName], &str, Span),
) {
    let (old_names, _, _) = parts(pair.old.item);
    let (new_names, new_name, new_span) = parts(pair.new.item);
    let still: HashSet<&str> = new_names.iter().map(|n| n.name.as_str()).collect();
    let names: BTreeMap<&str, Span> = old_names.iter().map(|n| (&*n.name, n.span)).collect();
    for (name, old_span) in names {
        if still.contains(name) {
            continue;
        }
        out.add(
            ctx.new_loc(pair.new.file, Some(new_span)),
            ctx.old_loc(pair.old.file, Some(old_span)),
            format!(
                "Previously present reserved name {} on {kind} {} was deleted.",
                quote(name),
                quote(new_name)
            ),
        )
        .help = Some(format!(
            "restore `reserved {};` in {kind} {new_name}",
            reserved_name_literal(&pair.new.file.syntax, name),
        ));
    }
}

/// How to write `reserved` for names in a file of this syntax: editions use identifiers,
/// proto2/proto3 use string literals.
pub fn reserved_name_literal(syntax: &Syntax, name: &str) -> String {
    match syntax {
        Syntax::Editions(_) => name.to_string(),
        _ => quote(name),
    }
}

/// The parts of `[start, end]` not covered by `collapsed` (the output of [`collapse_ranges`]).
pub fn missing_ranges(start: i64, end: i64, collapsed: &[NumRange]) -> Vec<NumRange> {
    let mut missing = Vec::new();
    let mut next = start;
    for &(s, e) in collapsed {
        if e < next {
            continue;
        }
        if s > end {
            break;
        }
        if s > next {
            missing.push((next, s - 1));
        }
        next = e.saturating_add(1);
        if next > end {
            return missing;
        }
    }
    if next <= end {
        missing.push((next, end));
    }
    missing
}

/// `[5]`, `[4,5]` or `[1000,max]`, as buf prints ranges.
pub fn range_string((start, end): NumRange, max: i64) -> String {
    if start == end {
        format!("[{start}]")
    } else if end == max {
        format!("[{start},max]")
    } else {
        format!("[{start},{end}]")
    }
}

/// The highest field number of this message (`max`).
pub fn message_max(message: &Message) -> i64 {
    if message.options.bool("message_set_wire_format") == Some(true) {
        MESSAGE_SET_MAX
    } else {
        MESSAGE_MAX
    }
}

/// `reserved 4 to 5, 301;` style text for a set of ranges (for help texts).
pub fn reserved_numbers_literal(ranges: &[NumRange], max: i64) -> String {
    ranges
        .iter()
        .map(|&(s, e)| {
            if s == e {
                s.to_string()
            } else if e == max {
                format!("{s} to max")
            } else {
                format!("{s} to {e}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Test support: builds a schema from in-memory `(path, text)` files, panicking if it does not
/// build (test inputs are meant to be valid).
#[cfg(test)]
pub(crate) fn build_test_schema(files: &[(&str, &str)]) -> crate::model::Schema {
    use crate::model::{build_schema, NoImports, SourceFile};
    let sources = files
        .iter()
        .map(|(path, text)| SourceFile {
            path: path.to_string(),
            display_name: path.to_string(),
            text: (*text).into(),
        })
        .collect();
    match build_schema(sources, &NoImports) {
        Ok(out) => out.schema,
        Err(e) => panic!("test schema does not build: {:?}", e.diagnostics),
    }
}

/// Test support: runs one rule over two in-memory revisions and returns
/// `(path, "line:col-line:col", message)` per finding, in output order.
#[cfg(test)]
pub(crate) fn run_rule(
    rule: super::RuleId,
    old: &[(&str, &str)],
    new: &[(&str, &str)],
) -> Vec<(String, String, String)> {
    crate::compare::run(
        &build_test_schema(old),
        &build_test_schema(new),
        &[rule.meta()],
    )
    .into_iter()
    .map(|f| match f.location {
        Some(l) => (
            l.path,
            format!(
                "{}:{}-{}:{}",
                l.start_line, l.start_column, l.end_line, l.end_column
            ),
            f.message,
        ),
        None => (String::new(), String::new(), f.message),
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_like_go() {
        assert_eq!(quote("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(quote("é"), "\"é\"");
        // strconv.Quote's letter escapes, then \x for other C0 controls and DEL, \u for C1.
        assert_eq!(
            quote("\u{7}\u{8}\u{c}\u{b}\t\r\u{1}\u{7f}\u{85}"),
            r#""\a\b\f\v\t\r\x01\x7f\u0085""#
        );
    }

    #[test]
    fn collapse_merges_overlapping_and_adjacent() {
        assert_eq!(
            collapse_ranges([(10, 20), (1, 3), (4, 5), (15, 25), (30, 30)]),
            vec![(1, 5), (10, 25), (30, 30)]
        );
    }

    #[test]
    fn missing_when_nothing_covers() {
        assert_eq!(missing_ranges(4, 5, &[]), vec![(4, 5)]);
        assert_eq!(missing_ranges(4, 5, &[(10, 20)]), vec![(4, 5)]);
        assert_eq!(missing_ranges(40, 50, &[(10, 20)]), vec![(40, 50)]);
    }

    #[test]
    fn missing_when_fully_covered() {
        assert!(missing_ranges(4, 5, &[(1, 10)]).is_empty());
        assert!(missing_ranges(4, 5, &collapse_ranges([(4, 4), (5, 5)])).is_empty());
    }

    #[test]
    fn missing_holes_in_the_middle_and_ends() {
        // buf's own example: [1,max] against 1-1000, 2000-5000, 10000-50000, 100000-max.
        let covered = collapse_ranges([
            (1, 1000),
            (2000, 5000),
            (10000, 50000),
            (100000, MESSAGE_MAX),
        ]);
        assert_eq!(
            missing_ranges(1, MESSAGE_MAX, &covered),
            vec![(1001, 1999), (5001, 9999), (50001, 99999)]
        );
        assert_eq!(
            missing_ranges(0, 12, &[(2, 3), (5, 6)]),
            vec![(0, 1), (4, 4), (7, 12)]
        );
    }

    #[test]
    fn range_strings() {
        assert_eq!(range_string((301, 301), MESSAGE_MAX), "[301]");
        assert_eq!(range_string((4, 5), MESSAGE_MAX), "[4,5]");
        assert_eq!(range_string((1000, MESSAGE_MAX), MESSAGE_MAX), "[1000,max]");
        assert_eq!(range_string((1000, ENUM_MAX), ENUM_MAX), "[1000,max]");
    }

    #[test]
    fn enclosing_message_walks_up() {
        let messages: BTreeMap<String, &Message> = BTreeMap::new();
        assert!(enclosing_message("A.B.c", &messages).is_none());
        assert!(enclosing_message("c", &messages).is_none());
    }
}
