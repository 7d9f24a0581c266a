//! One side (old or new) of a field pair, with the derived facts buf's rules use: the field's
//! kind as protoreflect reports it, its cardinality, where buf points for each of its parts,
//! and the description buf puts at the start of each message.

use crate::diff::{FieldIn, Index};
use crate::finding::Location;
use crate::model::{
    Enum, Field, FieldPresence, FieldType, File, Label, Message, MessageEncoding, Span, Syntax,
};

use crate::rules::quote::quote;

/// A field (or extension) together with the schema index of its revision.
#[derive(Clone, Copy)]
pub struct FieldSide<'c, 'a> {
    pub at: FieldIn<'a>,
    pub index: &'c Index<'a>,
}

/// buf's cardinality of a field (cardinality.go).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cardinality {
    OptionalExplicit,
    OptionalImplicit,
    Required,
    Repeated,
    Map,
}

impl Cardinality {
    pub fn name(self) -> &'static str {
        match self {
            Cardinality::OptionalExplicit => "optional with explicit presence",
            Cardinality::OptionalImplicit => "optional with implicit presence",
            Cardinality::Required => "required",
            Cardinality::Repeated => "repeated",
            Cardinality::Map => "map",
        }
    }
}

impl<'c, 'a> FieldSide<'c, 'a> {
    pub fn new(at: FieldIn<'a>, index: &'c Index<'a>) -> Self {
        FieldSide { at, index }
    }

    pub fn field(&self) -> &'a Field {
        self.at.field
    }

    pub fn file(&self) -> &'a File {
        self.at.file
    }

    pub fn is_extension(&self) -> bool {
        self.at.field.extendee().is_some()
    }

    /// True for the `key`/`value` fields of a synthesized map entry message.
    pub fn in_map_entry(&self) -> bool {
        !self.is_extension() && self.at.message.is_some_and(|m| m.is_map_entry)
    }

    fn is_editions(&self) -> bool {
        matches!(self.at.file.syntax, Syntax::Editions(_))
    }

    /// The message a message/group-typed field refers to.
    pub fn message_type(&self) -> Option<&'a Message> {
        let f = self.at.field;
        if !matches!(f.ty, FieldType::Message | FieldType::Group) {
            return None;
        }
        let name = f.type_name.as_deref()?;
        self.index.messages.get(name).map(|m| m.item)
    }

    /// The enum an enum-typed field refers to.
    pub fn enum_type(&self) -> Option<&'a Enum> {
        let name = self.at.field.type_name.as_deref()?;
        self.index.enums.get(name).map(|e| e.item)
    }

    /// `repeated` of a map entry type (not for extensions, as protoreflect decides).
    pub fn is_map(&self) -> bool {
        let f = self.at.field;
        f.label == Label::Repeated
            && !self.is_extension()
            && f.ty == FieldType::Message
            && self.message_type().is_some_and(|m| m.is_map_entry)
    }

    pub fn is_list(&self) -> bool {
        self.at.field.label == Label::Repeated && !self.refers_to_map_entry()
    }

    fn refers_to_map_entry(&self) -> bool {
        self.at.field.ty == FieldType::Message
            && self.message_type().is_some_and(|m| m.is_map_entry)
    }

    /// The kind protoreflect reports: in editions, a message field with delimited encoding is a
    /// group (map fields and map entry fields excepted).
    pub fn kind(&self) -> FieldType {
        let f = self.at.field;
        if f.ty == FieldType::Message
            && self.is_editions()
            && !self.is_map()
            && !self.in_map_entry()
            && f.features.message_encoding.value == MessageEncoding::Delimited
        {
            return FieldType::Group;
        }
        f.ty
    }

    /// The kind as buf prints it in type-change messages.
    pub fn kind_display(&self) -> &'static str {
        let kind = self.kind();
        if kind == FieldType::Group && self.at.file.syntax != Syntax::Proto2 {
            return "message (delimited encoding)";
        }
        kind.name()
    }

    /// `required` by label, or (in editions) by the LEGACY_REQUIRED presence feature.
    fn is_required(&self) -> bool {
        let f = self.at.field;
        match f.label {
            Label::Required => true,
            Label::Repeated => false,
            Label::Optional => {
                self.is_editions()
                    && f.features.field_presence.value == FieldPresence::LegacyRequired
            }
        }
    }

    fn has_presence(&self) -> bool {
        let f = self.at.field;
        if f.label == Label::Repeated {
            return false;
        }
        if self.is_extension()
            || matches!(self.kind(), FieldType::Message | FieldType::Group)
            || f.oneof_index.is_some()
            || f.proto3_optional
        {
            return true;
        }
        matches!(
            f.features.field_presence.value,
            FieldPresence::Explicit | FieldPresence::LegacyRequired
        )
    }

    pub fn cardinality(&self) -> Cardinality {
        if self.is_list() {
            Cardinality::Repeated
        } else if self.is_map() {
            Cardinality::Map
        } else if self.is_required() {
            Cardinality::Required
        } else if self.has_presence() {
            Cardinality::OptionalExplicit
        } else {
            Cardinality::OptionalImplicit
        }
    }

    /// For a map entry's key/value field, buf has no location of its own and points at the
    /// `map<K, V>` type of the map field that produced the entry.
    fn map_entry_fallback(&self) -> Option<Span> {
        if !self.in_map_entry() {
            return None;
        }
        let entry = self.at.message?;
        map_field_type_span(self.index, entry)
    }

    /// `Location()`: the whole field declaration.
    pub fn span(&self) -> Span {
        self.map_entry_fallback().unwrap_or(self.at.field.span)
    }

    /// `NameLocation()`.
    pub fn name_span(&self) -> Span {
        self.map_entry_fallback().unwrap_or(self.at.field.name_span)
    }

    /// `TypeLocation()` / `TypeNameLocation()`: the model keeps one span for the type as written.
    pub fn type_span(&self) -> Span {
        self.map_entry_fallback().unwrap_or(self.at.field.type_span)
    }

    /// The span of an option written on the field (`json_name`, `jstype`, `ctype`, `default`).
    pub fn option_span(&self, name: &str) -> Option<Span> {
        if self.in_map_entry() {
            return None;
        }
        self.at.field.options.span(name)
    }

    pub fn loc(&self, span: Span) -> Location {
        Location::in_file(self.at.file, Some(span))
    }

    /// Extensions are known by their full name, fields by their name.
    pub fn display_name(&self) -> &'a str {
        let f = self.at.field;
        if self.is_extension() {
            &f.full_name
        } else {
            &f.name
        }
    }

    /// buf's `fieldDescription`: `Field "1" with name "one" on message "Two"`.
    pub fn description(&self) -> String {
        self.description_with_name(Some(self.display_name()))
    }

    /// buf's `fieldDescriptionWithName`; `None` leaves the name out.
    pub fn description_with_name(&self, name: Option<&str>) -> String {
        let f = self.at.field;
        let with_name = match name {
            Some(n) if !n.is_empty() => format!(" with name {}", quote(n)),
            _ => String::new(),
        };
        let (kind, message) = match f.extendee() {
            Some(extendee) => ("Extension", extendee),
            None => ("Field", self.at.message.map_or("", |m| m.name.as_str())),
        };
        format!(
            "{kind} {}{with_name} on message {}",
            quote(&f.number.to_string()),
            quote(message)
        )
    }

    /// The type as buf prints a type name: fully qualified, without a leading dot.
    pub fn type_name(&self) -> &'a str {
        self.at
            .field
            .type_name
            .as_deref()
            .map_or("", |n| n.trim_start_matches('.'))
    }
}

/// Where buf points for a message: its declaration, or for a synthesized map entry the
/// `map<K, V>` type of the map field that produced it.
pub fn message_span(index: &Index<'_>, message: &Message) -> Span {
    if message.is_map_entry {
        if let Some(span) = map_field_type_span(index, message) {
            return span;
        }
    }
    message.span
}

/// The type span of the map field whose entry message is `entry`.
fn map_field_type_span(index: &Index<'_>, entry: &Message) -> Option<Span> {
    let (parent_name, _) = entry.full_name.rsplit_once('.')?;
    let parent = index.messages.get(parent_name)?;
    parent
        .item
        .fields
        .iter()
        .find(|f| {
            f.label == Label::Repeated
                && f.ty == FieldType::Message
                && f.type_name.as_deref().map(|n| n.trim_start_matches('.'))
                    == Some(entry.full_name.as_str())
        })
        .map(|f| f.type_span)
}
