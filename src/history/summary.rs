//! What the ledger needs of one `.proto` blob: every message, enum and extendee it declares
//! (by full name) with the numbers, names, types and reservations inside.
//!
//! A blob is parsed alone (no imports), so it can be cached by its git id: types from other
//! files keep the name as written, which [`same_type`] allows for.

use serde::{Deserialize, Serialize};

use std::collections::{BTreeMap, HashSet};

use crate::model;
use crate::parse::ast::{self, EnumItem, FieldDecl, MessageItem, TopItem, TypeRef};

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

/// Parses one file on its own (no imports, no linking: a blob's summary depends on the
/// blob alone, and parsing is several times cheaper than building the model). Names are
/// resolved against the file's own declarations with protobuf's scoping; others stay as
/// written. A syntax error makes the file unreadable (`error`).
pub fn summarize(_path: &str, text: &str) -> FileSummary {
    let parsed = crate::parse::parse(text);
    if let Some((span, message)) = parsed.errors.first() {
        let (line, column) = model::line_col(text, span.start);
        return FileSummary {
            elements: Vec::new(),
            error: Some(format!("{line}:{column}: {message}")),
        };
    }
    let package = parsed
        .ast
        .items
        .iter()
        .find_map(|i| match i {
            TopItem::Package(p) => Some(p.name.text.trim_start_matches('.').to_string()),
            _ => None,
        })
        .unwrap_or_default();
    let mut declared = HashSet::new();
    for item in &parsed.ast.items {
        match item {
            TopItem::Message(m) => {
                declare_message(&join(&package, &m.name.text), &m.body, &mut declared)
            }
            TopItem::Enum(e) => {
                declared.insert(join(&package, &e.name.text));
            }
            _ => {}
        }
    }
    let mut walker = Walker {
        package: &package,
        declared: &declared,
        elements: Vec::new(),
        extensions: BTreeMap::new(),
    };
    for item in &parsed.ast.items {
        match item {
            TopItem::Message(m) => walker.message(&package, &m.name, &m.body),
            TopItem::Enum(e) => walker.enumeration(&package, e),
            TopItem::Extend(x) => walker.extend(&package, x),
            _ => {}
        }
    }
    let mut elements = walker.elements;
    elements.extend(walker.extensions.into_values());
    elements.sort_by(|a, b| (a.full_name.as_str(), a.kind).cmp(&(b.full_name.as_str(), b.kind)));
    FileSummary {
        elements,
        error: None,
    }
}

fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}.{name}")
    }
}

/// Every message and enum full name the file declares (groups and nested ones included).
fn declare_message(full: &str, body: &[MessageItem], out: &mut HashSet<String>) {
    out.insert(full.to_string());
    for item in body {
        match item {
            MessageItem::Message(m) => declare_message(&join(full, &m.name.text), &m.body, out),
            MessageItem::Enum(e) => {
                out.insert(join(full, &e.name.text));
            }
            MessageItem::Field(f) => declare_group(full, f, out),
            MessageItem::Oneof(o) => o.fields.iter().for_each(|f| declare_group(full, f, out)),
            _ => {}
        }
    }
}

fn declare_group(scope: &str, f: &FieldDecl, out: &mut HashSet<String>) {
    if let Some(body) = &f.group_body {
        declare_message(&join(scope, &f.name.text), body, out);
    }
}

struct Walker<'a> {
    package: &'a str,
    declared: &'a HashSet<String>,
    elements: Vec<Element>,
    extensions: BTreeMap<String, Element>,
}

impl Walker<'_> {
    /// A type name as protoc resolves it from `scope`, when this file declares it; else as
    /// written (without a leading dot).
    fn resolve(&self, scope: &str, name: &str) -> String {
        if let Some(full) = name.strip_prefix('.') {
            return full.to_string();
        }
        let first = name.split('.').next().unwrap_or(name);
        let mut scope = scope.to_string();
        loop {
            if self.declared.contains(&join(&scope, first)) {
                return join(&scope, name);
            }
            match scope.rfind('.') {
                Some(i) => scope.truncate(i),
                None if !scope.is_empty() => scope.clear(),
                None => return name.to_string(),
            }
        }
    }

    fn type_text(&self, scope: &str, ty: &TypeRef, field: &FieldDecl) -> String {
        match ty {
            TypeRef::Scalar(t) => t.name().to_string(),
            TypeRef::Named(n) => self.resolve(scope, n),
            TypeRef::Map { key, value, .. } => format!(
                "map<{}, {}>",
                self.type_text(scope, key, field),
                self.type_text(scope, value, field)
            ),
            TypeRef::Group => join(scope, &field.name.text),
        }
    }

    fn member(&self, scope: &str, f: &FieldDecl, name: String) -> Member {
        Member {
            number: f.number,
            name,
            ty: self.type_text(scope, &f.ty, f),
            label: f.label.map_or(String::new(), |(l, _)| l.name().to_string()),
            span: f.span.into(),
        }
    }

    fn field_name(f: &FieldDecl) -> String {
        match f.ty {
            // A group's field is its name in lower case, as protoc names it.
            TypeRef::Group => f.name.text.as_str().to_lowercase(),
            _ => f.name.text.to_string(),
        }
    }

    fn message(&mut self, scope: &str, name: &ast::Name, body: &[MessageItem]) {
        let full = join(scope, &name.text);
        let mut element = Element {
            full_name: full.clone(),
            kind: Kind::Message,
            span: name.span.into(),
            members: Vec::new(),
            reserved_numbers: Vec::new(),
            reserved_names: Vec::new(),
        };
        let mut fields: Vec<&FieldDecl> = Vec::new();
        for item in body {
            match item {
                MessageItem::Field(f) => fields.push(f),
                MessageItem::Oneof(o) => fields.extend(&o.fields),
                MessageItem::Message(m) => self.message(&full, &m.name, &m.body),
                MessageItem::Enum(e) => self.enumeration(&full, e),
                MessageItem::Extend(x) => self.extend(&full, x),
                MessageItem::Reserved(r) => reserved(r, &mut element),
                MessageItem::Extensions(_) | MessageItem::Option(_) => {}
            }
        }
        for f in fields {
            element
                .members
                .push(self.member(&full, f, Self::field_name(f)));
            if let Some(group) = &f.group_body {
                self.message(&full, &f.name, group);
            }
        }
        self.elements.push(element);
    }

    fn enumeration(&mut self, scope: &str, e: &ast::EnumDecl) {
        let mut element = Element {
            full_name: join(scope, &e.name.text),
            kind: Kind::Enum,
            span: e.name.span.into(),
            members: Vec::new(),
            reserved_numbers: Vec::new(),
            reserved_names: Vec::new(),
        };
        for item in &e.body {
            match item {
                EnumItem::Value(v) => element.members.push(Member {
                    number: v.number,
                    name: v.name.text.to_string(),
                    ty: String::new(),
                    label: String::new(),
                    span: v.span.into(),
                }),
                EnumItem::Reserved(r) => reserved(r, &mut element),
                EnumItem::Option(_) => {}
            }
        }
        self.elements.push(element);
    }

    /// Extensions of one extendee share its number space across files: one element per
    /// extendee, members named by their full names.
    fn extend(&mut self, scope: &str, x: &ast::ExtendDecl) {
        let extendee = qualified(&self.resolve(scope, &x.extendee.text), self.package);
        for f in &x.fields {
            let member = self.member(scope, f, join(scope, &Self::field_name(f)));
            if let Some(group) = &f.group_body {
                self.message(scope, &f.name, group);
            }
            self.extensions
                .entry(extendee.clone())
                .or_insert_with(|| Element {
                    full_name: extendee.clone(),
                    kind: Kind::Extendee,
                    span: x.extendee.span.into(),
                    members: Vec::new(),
                    reserved_numbers: Vec::new(),
                    reserved_names: Vec::new(),
                })
                .members
                .push(member);
        }
    }
}

fn reserved(r: &ast::ReservedDecl, element: &mut Element) {
    for range in &r.ranges {
        element.reserved_numbers.push(ReservedNumbers {
            start: range.start,
            end: range.end,
            span: range.span.into(),
        });
    }
    for name in &r.names {
        element.reserved_names.push(ReservedName {
            name: name.text.trim_matches(['"', '\'']).to_string(),
            span: name.span.into(),
        });
    }
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

#[cfg(test)]
mod bench {
    #[test]
    #[ignore = "a manual measurement: PROTOCOMPAT_BENCH_FILE=path"]
    fn summary_cost() {
        let Some(path) = std::env::var_os("PROTOCOMPAT_BENCH_FILE") else {
            return;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let t = std::time::Instant::now();
        for _ in 0..50 {
            let _ = crate::parse::parse(&text);
        }
        let parse = t.elapsed() / 50;
        let t = std::time::Instant::now();
        for _ in 0..50 {
            let _ = super::summarize("a.proto", &text);
        }
        eprintln!("parse {parse:?} summarize {:?}", t.elapsed() / 50);
    }
}
