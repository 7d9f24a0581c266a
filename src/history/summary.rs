//! What the ledger needs of one `.proto` blob: every message, enum and extendee it declares
//! (by full name) with the numbers, names, types and reservations inside.
//!
//! A blob is built alone (no imports), so it can be cached by its git id: types from other
//! files keep the name as written, which [`same_type`] allows for.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::model::{self, Enum, Field, File, Message, NoImports, SourceFile};

/// A byte range of the blob's text (the model's `Span`, storable in the cache).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl From<model::Span> for Span {
    fn from(s: model::Span) -> Self {
        Span {
            start: s.start,
            end: s.end,
        }
    }
}

impl From<Span> for model::Span {
    fn from(s: Span) -> Self {
        model::Span {
            start: s.start,
            end: s.end,
        }
    }
}

/// What kind of element a ledger entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    Message,
    Enum,
    /// The extensions of one extendee (from every file that extends it).
    Extendee,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Message => "message",
            Kind::Enum => "enum",
            Kind::Extendee => "extendee",
        }
    }
    /// What a member of this kind of element is called.
    pub fn member(self) -> &'static str {
        match self {
            Kind::Message => "field",
            Kind::Enum => "enum value",
            Kind::Extendee => "extension",
        }
    }
}

/// A field, an enum value or an extension.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub number: i64,
    pub name: String,
    /// The type as the audit compares it: `int32`, `acme.v1.Order`, `map<string, Foo>`;
    /// empty for enum values.
    pub ty: String,
    /// `repeated`, `required`, `optional` where written or implied; empty otherwise.
    pub label: String,
    pub span: Span,
}

/// `reserved` numbers: an inclusive range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReservedNumbers {
    pub start: i64,
    pub end: i64,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReservedName {
    pub name: String,
    pub span: Span,
}

/// One message, enum or extendee as one file declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Element {
    pub full_name: String,
    pub kind: Kind,
    /// The declaration's name (for an extendee: the first `extend` naming it).
    pub span: Span,
    pub members: Vec<Member>,
    pub reserved_numbers: Vec<ReservedNumbers>,
    pub reserved_names: Vec<ReservedName>,
}

/// One blob, summarised; `error` set when it could not be built (then it has no elements).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSummary {
    /// Sorted by full name (then kind), so lookups can bisect.
    pub elements: Vec<Element>,
    pub error: Option<String>,
}

impl FileSummary {
    /// The elements of this file with this full name (usually one).
    pub fn named<'a>(&'a self, full_name: &str) -> &'a [Element] {
        let start = self
            .elements
            .partition_point(|e| e.full_name.as_str() < full_name);
        let len = self.elements[start..]
            .iter()
            .take_while(|e| e.full_name == full_name)
            .count();
        &self.elements[start..start + len]
    }
}

/// Parses and builds one file on its own; syntax and validation errors become `error`.
pub fn summarize(path: &str, text: &str) -> FileSummary {
    let source = SourceFile {
        path: path.to_string(),
        display_name: path.to_string(),
        text: Arc::from(text),
    };
    match model::build_schema(vec![source], &NoImports) {
        Ok(built) => match built.schema.files.get(path) {
            Some(file) => summarize_file(file),
            None => FileSummary::default(),
        },
        Err(e) => FileSummary {
            elements: Vec::new(),
            error: Some(first_error(&e)),
        },
    }
}

fn first_error(e: &model::BuildError) -> String {
    e.diagnostics
        .first()
        .map_or_else(|| e.to_string(), |d| d.to_string())
}

fn summarize_file(file: &File) -> FileSummary {
    let mut elements = Vec::new();
    for message in file.all_messages() {
        if !message.is_map_entry {
            elements.push(message_element(message));
        }
    }
    for e in file.all_enums() {
        elements.push(enum_element(e));
    }
    extendee_elements(file, &mut elements);
    elements.sort_by(|a, b| {
        (a.full_name.as_str(), a.kind as u8).cmp(&(b.full_name.as_str(), b.kind as u8))
    });
    FileSummary {
        elements,
        error: None,
    }
}

fn message_element(message: &Message) -> Element {
    Element {
        full_name: message.full_name.clone(),
        kind: Kind::Message,
        span: message.name_span.into(),
        members: message
            .fields
            .iter()
            .map(|f| field_member(f, message, f.name.clone()))
            .collect(),
        reserved_numbers: message
            .reserved_ranges
            .iter()
            .map(|r| ReservedNumbers {
                start: r.start,
                end: r.end,
                span: r.span.into(),
            })
            .collect(),
        reserved_names: message
            .reserved_names
            .iter()
            .map(|n| ReservedName {
                name: n.name.clone(),
                span: n.span.into(),
            })
            .collect(),
    }
}

fn enum_element(e: &Enum) -> Element {
    Element {
        full_name: e.full_name.clone(),
        kind: Kind::Enum,
        span: e.name_span.into(),
        members: e
            .values
            .iter()
            .map(|v| Member {
                number: v.number,
                name: v.name.clone(),
                ty: String::new(),
                label: String::new(),
                span: v.span.into(),
            })
            .collect(),
        reserved_numbers: e
            .reserved_ranges
            .iter()
            .map(|r| ReservedNumbers {
                start: r.start,
                end: r.end,
                span: r.span.into(),
            })
            .collect(),
        reserved_names: e
            .reserved_names
            .iter()
            .map(|n| ReservedName {
                name: n.name.clone(),
                span: n.span.into(),
            })
            .collect(),
    }
}

/// One element per extendee: the extensions this file declares for it, named by their full
/// names (extensions of one extendee share its number space across files).
fn extendee_elements(file: &File, out: &mut Vec<Element>) {
    let mut by_extendee: std::collections::BTreeMap<String, Element> = Default::default();
    let scoped = file.extensions.iter().map(|f| (f, None)).chain(
        file.all_messages()
            .into_iter()
            .flat_map(|m| m.extensions.iter().map(move |f| (f, Some(m)))),
    );
    for (field, scope) in scoped {
        let Some(extendee) = field
            .extendee
            .as_deref()
            .map(|e| qualified(e, &file.package))
        else {
            continue;
        };
        let entry = by_extendee
            .entry(extendee.clone())
            .or_insert_with(|| Element {
                full_name: extendee,
                kind: Kind::Extendee,
                span: field.extendee_span.unwrap_or(field.span).into(),
                members: Vec::new(),
                reserved_numbers: Vec::new(),
                reserved_names: Vec::new(),
            });
        let member = match scope {
            Some(m) => field_member(field, m, field.full_name.clone()),
            None => scalar_or_named(field, field.full_name.clone()),
        };
        entry.members.push(member);
    }
    out.extend(by_extendee.into_values());
}

/// An extendee name: resolved names are full; a bare name the file could not resolve
/// (its message lives in another file of the package) is taken as the package's, so one
/// extendee keeps one ledger entry whichever file extends it.
fn qualified(name: &str, package: &str) -> String {
    let name = name.trim_start_matches('.');
    if name.contains('.') || package.is_empty() {
        name.to_string()
    } else {
        format!("{package}.{name}")
    }
}

fn field_member(field: &Field, parent: &Message, name: String) -> Member {
    if field.is_map(parent) {
        let entry = parent
            .messages
            .iter()
            .find(|m| Some(m.full_name.as_str()) == field.type_name.as_deref());
        if let Some(entry) = entry {
            let part = |n: i64| {
                entry
                    .fields
                    .iter()
                    .find(|f| f.number == n)
                    .map(type_text)
                    .unwrap_or_default()
            };
            return Member {
                number: field.number,
                name,
                ty: format!("map<{}, {}>", part(1), part(2)),
                label: String::new(),
                span: field.span.into(),
            };
        }
    }
    scalar_or_named(field, name)
}

fn scalar_or_named(field: &Field, name: String) -> Member {
    let label = match (field.label, field.label_span) {
        (model::Label::Optional, None) => "",
        (label, _) => label.name(),
    };
    Member {
        number: field.number,
        name,
        ty: type_text(field),
        label: label.to_string(),
        span: field.span.into(),
    }
}

fn type_text(field: &Field) -> String {
    match &field.type_name {
        Some(name) if field.ty.is_named() => name.trim_start_matches('.').to_string(),
        _ => field.ty.name().to_string(),
    }
}

/// Whether two type texts name the same type. A name resolved in one snapshot may be kept
/// as written in another (`Foo` for `acme.v1.Foo`, when the defining file was not at hand),
/// so a dotted name matches any longer name it ends with, token by token (`map<K, V>`).
pub fn same_type(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let tokens = |s: &str| -> Vec<String> {
        s.split(['<', '>', ',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| t.trim_start_matches('.').to_string())
            .collect()
    };
    let (ta, tb) = (tokens(a), tokens(b));
    ta.len() == tb.len()
        && ta
            .iter()
            .zip(&tb)
            .all(|(x, y)| x == y || x.ends_with(&format!(".{y}")) || y.ends_with(&format!(".{x}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summarises_messages_enums_and_extensions() {
        let text = "syntax = \"proto2\";\npackage p;\nimport \"other.proto\";\n\
                    message M {\n  reserved 4 to 6;\n  reserved \"old\";\n  optional Foo a = 1;\n  \
                    repeated int32 b = 2;\n  map<string, Foo> c = 3;\n  message N { optional string x = 1; }\n  \
                    extensions 100 to 200;\n}\nenum E { E_ZERO = 0; E_ONE = 1; }\n\
                    extend M { optional int32 ext = 100; }\n";
        let s = summarize("a.proto", text);
        assert_eq!(s.error, None);
        let names: Vec<(&str, Kind)> = s
            .elements
            .iter()
            .map(|e| (e.full_name.as_str(), e.kind))
            .collect();
        assert_eq!(
            names,
            [
                ("p.E", Kind::Enum),
                ("p.M", Kind::Message),
                ("p.M", Kind::Extendee),
                ("p.M.N", Kind::Message)
            ]
        );
        let m = &s.named("p.M")[0];
        let members: Vec<(i64, &str, &str, &str)> = m
            .members
            .iter()
            .map(|f| (f.number, f.name.as_str(), f.ty.as_str(), f.label.as_str()))
            .collect();
        assert_eq!(
            members,
            [
                (1, "a", "Foo", "optional"),
                (2, "b", "int32", "repeated"),
                (3, "c", "map<string, Foo>", "")
            ]
        );
        assert_eq!(
            (m.reserved_numbers[0].start, m.reserved_numbers[0].end),
            (4, 6)
        );
        assert_eq!(m.reserved_names[0].name, "old");
        assert_eq!(s.named("p.M")[1].members[0].name, "p.ext");
    }

    #[test]
    fn a_broken_file_is_an_error_not_an_empty_file() {
        let s = summarize(
            "a.proto",
            "syntax = \"proto3\";\nmessage M { int32 a = ; }\n",
        );
        assert!(s.elements.is_empty());
        assert!(s.error.is_some());
    }

    #[test]
    fn names_kept_as_written_match_their_full_names() {
        assert!(same_type("Foo", "acme.v1.Foo"));
        assert!(same_type("map<string, v1.Foo>", "map<string, acme.v1.Foo>"));
        assert!(!same_type("Foo", "acme.v1.Bar"));
        assert!(!same_type("oo", "acme.Foo"));
        assert!(!same_type("int32", "string"));
    }
}
