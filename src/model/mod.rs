//! The schema model: what the rules compare.
//!
//! It mirrors `google.protobuf.FileDescriptorProto` semantics (labels, types, fully-qualified
//! type names, synthetic oneofs, map entries, groups, effective editions features), because
//! buf's rules are defined on descriptors. Unlike descriptors, every element keeps the byte
//! span of each piece a rule may point at (the equivalent of protoc's SourceCodeInfo paths).
//!
//! This module holds only the types and depends only on `syntax`; `crate::link` builds them
//! from parsed files.

mod comments;
mod naming;
pub mod ranges;
pub use comments::doc_comment;
pub use naming::{default_json_name, map_entry_name, pascal_case};
// The syntax types the model keeps as written (spans, labels, scalar types, option values).
pub use crate::syntax::{line_col, FieldType, Label, LineIndex, OptionValue, Span};
pub use crate::syntax::{ENUM_MAX, FIELD_MAX, MESSAGE_SET_FIELD_MAX};

use std::collections::BTreeMap;
use std::sync::Arc;

/// A set of files, keyed by their path relative to the compared root (`/`-separated).
#[derive(Debug, Default, Clone)]
pub struct Schema {
    pub files: BTreeMap<String, Arc<File>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Syntax {
    Proto2,
    Proto3,
    /// `edition = "2023"` etc.; the string is the edition as written.
    Editions(String),
}

impl Syntax {
    /// The value buf prints in messages: "proto2", "proto3", "editions".
    pub fn name(&self) -> &str {
        match self {
            Syntax::Proto2 => "proto2",
            Syntax::Proto3 => "proto3",
            Syntax::Editions(_) => "editions",
        }
    }
}

#[derive(Debug, Clone)]
pub struct File {
    /// Path relative to the compared root, e.g. `acme/v1/order.proto`.
    pub path: String,
    /// The full text, for line/column computation and snippets.
    pub text: Arc<str>,
    pub syntax: Syntax,
    /// Span of the whole `syntax = ...;` / `edition = ...;` statement, if written.
    pub syntax_span: Option<Span>,
    /// Package name (`""` when absent).
    pub package: String,
    /// Span of the whole `package ...;` statement, if written.
    pub package_span: Option<Span>,
    pub imports: Vec<Import>,
    pub options: Options,
    pub messages: Vec<Message>,
    pub enums: Vec<Enum>,
    pub services: Vec<Service>,
    /// Top-level `extend` fields.
    pub extensions: Vec<Field>,
    /// Effective file-level features (for editions; derived from syntax otherwise).
    pub features: Features,
    /// Comments of the file, for ignore directives: spans into `text` (see `Comment::body`).
    pub comments: Vec<Comment>,
    /// Line starts of `text`, built on first use: findings convert many spans of one file,
    /// and scanning from the start each time is quadratic on large files.
    pub line_index: std::sync::OnceLock<LineIndex>,
}

/// A comment of a file, as a span into its text: `Comment::body(&file.text)` reads it.
pub type Comment = crate::syntax::token::LexComment;

#[derive(Debug, Clone)]
pub struct Import {
    pub path: String,
    pub public: bool,
    pub weak: bool,
    pub span: Span,
}

/// Options as written on an element, in source order.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Sized exactly (a boxed slice, 8 bytes less than a vector in every element of the
    /// model: the model is built once and never grows).
    pub entries: Box<[OptionEntry]>,
}

#[derive(Debug, Clone)]
pub struct OptionEntry {
    /// The option name as a canonical dotted path: `java_package`, `ctype`,
    /// `features.field_presence`, `(acme.foo).bar`. Extension names are kept as written
    /// inside the parentheses (leading dot removed).
    pub name: String,
    pub value: OptionValue,
    /// Span buf reports for this option: for a statement `option x = y;` the whole statement;
    /// for a compact option `[x = y]` the `x = y` part.
    pub span: Span,
    /// The value as the build typed it, set where the file's options are checked against
    /// their declarations (custom options, and options whose value is a message literal);
    /// empty where that check did not run or the value was not fully known (an `Any`
    /// expansion, an enum number with no value). Comparisons use it when both sides have it.
    /// Boxed: most entries never get one, and inline it would be 80 of an entry's 144 bytes.
    pub resolved: std::sync::OnceLock<Box<ResolvedOption>>,
}

/// An option resolved against its declaration: the fields its name goes through (full
/// names, extension first) and its value typed by the last one.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedOption {
    pub path: Vec<String>,
    pub value: TypedValue,
}

/// An option's (or a message literal field's) value typed by its field: what protoc would
/// store, so that two spellings of one value are equal.
#[derive(Debug, Clone)]
pub enum TypedValue {
    Bool(bool),
    /// Any integer type.
    Int(i128),
    /// `float` (rounded to `f32`) or `double`.
    Float(f64),
    /// `string` or `bytes`.
    Bytes(Vec<u8>),
    /// An enum value: equal by number (an alias or a number is the same value).
    Enum {
        number: i64,
        name: String,
    },
    /// A message literal: each field set (full name) with its values in order, by full
    /// name (each name once).
    Message(Vec<(String, Vec<TypedValue>)>),
}

impl PartialEq for TypedValue {
    fn eq(&self, other: &Self) -> bool {
        use TypedValue::*;
        match (self, other) {
            (Bool(a), Bool(b)) => a == b,
            (Int(a), Int(b)) => a == b,
            // By bits, so that `-0.0` is not `0.0`; NaN equal to NaN.
            (Float(a), Float(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            (Bytes(a), Bytes(b)) => a == b,
            (Enum { number: a, .. }, Enum { number: b, .. }) => a == b,
            (Message(a), Message(b)) => a == b,
            _ => false,
        }
    }
}

impl Options {
    /// The last entry with this exact name (later assignments win, as in protoc).
    pub fn get(&self, name: &str) -> Option<&OptionEntry> {
        self.entries.iter().rev().find(|e| e.name == name)
    }
    pub fn value(&self, name: &str) -> Option<&OptionValue> {
        self.get(name).map(|e| &e.value)
    }
    pub fn span(&self, name: &str) -> Option<Span> {
        self.get(name).map(|e| e.span)
    }
    pub fn bool(&self, name: &str) -> Option<bool> {
        self.value(name).and_then(OptionValue::as_bool)
    }
    pub fn str(&self, name: &str) -> Option<std::borrow::Cow<'_, str>> {
        self.value(name).and_then(OptionValue::as_str)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Message {
    pub name: String,
    /// Fully-qualified name without a leading dot: `acme.v1.Order.Item`.
    pub full_name: String,
    /// Whole declaration (`message Foo { ... }`, or the group field for a group's message,
    /// or the `map<K, V>` type of the map field for a synthesized map entry).
    pub span: Span,
    pub name_span: Span,
    pub fields: Vec<Field>,
    /// Real and synthetic oneofs, in descriptor order (synthetic ones last, as protoc does).
    pub oneofs: Vec<Oneof>,
    pub messages: Vec<Message>,
    pub enums: Vec<Enum>,
    /// `extend` blocks nested in this message.
    pub extensions: Vec<Field>,
    pub reserved_ranges: Vec<ReservedRange>,
    pub reserved_names: Vec<ReservedName>,
    pub extension_ranges: Vec<ReservedRange>,
    pub options: Options,
    /// Synthesized `XxxEntry` message of a map field.
    pub is_map_entry: bool,
    /// Message created by a proto2 `group` field.
    pub is_group: bool,
    /// Effective features at message scope (shared: see [`Features`]).
    pub features: Arc<Features>,
}

/// A number range, inclusive on both ends (`end` = 536870911 for `max` in messages,
/// 2147483647 for enums).
#[derive(Debug, Clone)]
pub struct ReservedRange {
    pub start: i64,
    pub end: i64,
    pub span: Span,
    /// For an extension range: the options of its `extensions` statement (`declaration`,
    /// `verification`); empty otherwise.
    pub options: Options,
}

#[derive(Debug, Clone)]
pub struct ReservedName {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Oneof {
    pub name: String,
    pub span: Span,
    pub name_span: Span,
    /// The synthetic oneof protoc creates for a proto3 `optional` field.
    pub synthetic: bool,
    pub options: Options,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    /// Fully-qualified name (`pkg.Msg.field`, or `pkg.ext_name` for extensions).
    pub full_name: String,
    pub number: i64,
    /// Descriptor label. proto3 singular fields are `Optional`, as in descriptors.
    pub label: Label,
    pub ty: FieldType,
    /// For message/enum/group fields: the fully-qualified type name without leading dot
    /// (`acme.v1.Order`), or the name as written when it could not be resolved.
    /// Boxed strings here and below: a large build holds millions of fields, and each
    /// `Box<str>` is a third smaller than a `String`.
    pub type_name: Option<Box<str>>,
    /// Index into the parent message's `oneofs` (real or synthetic).
    /// (32 bits: see [`Field::oneof`].)
    pub oneof_index: Option<u32>,
    /// proto3 `optional` (the field lives in a synthetic oneof).
    pub proto3_optional: bool,
    /// Effective JSON name (explicit `json_name` or the lowerCamelCase default).
    pub json_name: Box<str>,
    /// Whether `json_name` was written explicitly.
    pub json_name_explicit: bool,
    /// The `default` and `json_name` pseudo-options also stay in `options` (for their spans).
    pub options: Options,
    /// What few fields have (a default, an extendee): see [`Field::default_value`] and
    /// [`Field::extendee`]. Boxed: inline, they made every field 36 bytes larger.
    pub rare: Option<Box<RareField>>,
    /// Effective features at field scope (editions semantics also computed for proto2/3;
    /// shared: see [`Features`]).
    pub features: Arc<Features>,

    /// Whole field declaration (for a group: the whole group; for map: the whole map field).
    pub span: Span,
    pub name_span: Span,
    pub number_span: Span,
    /// The label keyword if written.
    pub label_span: Option<Span>,
    /// The type as written: keyword (`int32`), type reference (`foo.Bar`) or `map<..>`,
    /// or the `group` keyword. This is `TypeLocation` for scalars and `TypeNameLocation`
    /// for named types, as protoc records them.
    pub type_span: Span,
}

/// The parts of a [`Field`] most fields do not have.
#[derive(Debug, Clone, Default)]
pub struct RareField {
    /// `default = ...` in the string form of `FieldDescriptorProto.default_value`: enum value
    /// name, `true`/`false`, decimal integers, floats as protoc prints them (`%.15g`; `inf`,
    /// `-inf`, `nan`), strings unescaped, bytes C-escaped (octal for non-printable bytes).
    pub default_value: Option<Box<str>>,
    /// For extensions: the fully-qualified extendee.
    pub extendee: Option<Box<str>>,
    /// Span of the `extend Foo` extendee name, for extensions.
    pub extendee_span: Option<Span>,
}

impl Field {
    /// The written `default = ...`, in the string form of `FieldDescriptorProto`'s
    /// `default_value` (see [`RareField::default_value`]).
    pub fn default_value(&self) -> Option<&str> {
        self.rare.as_ref()?.default_value.as_deref()
    }

    /// For an extension: the fully-qualified extendee.
    pub fn extendee(&self) -> Option<&str> {
        self.rare.as_ref()?.extendee.as_deref()
    }

    /// For an extension: the span of the `extend Foo` extendee name.
    pub fn extendee_span(&self) -> Option<Span> {
        self.rare.as_ref()?.extendee_span
    }

    /// The rare parts, made on first use.
    pub fn rare_mut(&mut self) -> &mut RareField {
        self.rare.get_or_insert_with(Box::default)
    }

    pub fn oneof<'a>(&self, parent: &'a Message) -> Option<&'a Oneof> {
        self.oneof_index.and_then(|i| parent.oneofs.get(i as usize))
    }

    /// Whether the field is written packed on the wire: repeated, of a numeric, bool or enum
    /// type, with effective PACKED encoding (proto2 `packed = true`, proto3 unless
    /// `packed = false`, editions `repeated_field_encoding`).
    pub fn is_packed(&self) -> bool {
        self.label == Label::Repeated
            && !matches!(
                self.ty,
                FieldType::String | FieldType::Bytes | FieldType::Message | FieldType::Group
            )
            && self.features.repeated_field_encoding.value == RepeatedFieldEncoding::Packed
    }

    /// Whether this is a map field: repeated, of a synthesized map entry message nested in
    /// `parent`.
    pub fn is_map(&self, parent: &Message) -> bool {
        self.label == Label::Repeated
            && self.ty == FieldType::Message
            && parent
                .messages
                .iter()
                .any(|m| m.is_map_entry && Some(m.full_name.as_str()) == self.type_name.as_deref())
    }
}

/// Effective editions features, resolved from defaults, file, message and field settings.
/// For proto2/proto3 files these are the equivalent legacy semantics, so rules can compare
/// across syntaxes. Each carries the span of the `features.x` option that set it closest to
/// the element, when one did.
///
/// Elements hold them behind an `Arc`, shared between the elements of a file that have the
/// same features (nearly all fields of a message do): a `Features` is 128 bytes, as much as
/// the rest of a field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features {
    pub field_presence: Feature<FieldPresence>,
    pub enum_type: Feature<EnumType>,
    pub repeated_field_encoding: Feature<RepeatedFieldEncoding>,
    pub utf8_validation: Feature<Utf8Validation>,
    pub message_encoding: Feature<MessageEncoding>,
    pub json_format: Feature<JsonFormat>,
    /// `(pb.cpp).string_type` feature.
    /// Effective as buf computes it: before edition 2024 a legacy `ctype` wins when set
    /// (CORD -> Cord, STRING and STRING_PIECE -> String; span None, look at the `ctype`
    /// option); otherwise the feature, defaulting to String (View from edition 2024).
    pub cpp_string_type: Feature<CppStringType>,
    /// `(pb.java).utf8_validation` feature.
    /// As buf computes it: outside editions, or when the file sets `java_string_check_utf8`,
    /// that file option decides (true -> Verify, else Default, span None); otherwise the
    /// feature. Default means "the standard `utf8_validation` applies", so buf's effective
    /// Java value is `Verify` -> VERIFY, `Default` -> `utf8_validation.value`.
    pub java_utf8_validation: Feature<JavaUtf8Validation>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Feature<T> {
    pub value: T,
    /// The span of the option that set the value directly on this element, if any.
    pub span: Option<Span>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FieldPresence {
    #[default]
    Explicit,
    Implicit,
    LegacyRequired,
}
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EnumType {
    #[default]
    Open,
    Closed,
}
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RepeatedFieldEncoding {
    #[default]
    Packed,
    Expanded,
}
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Utf8Validation {
    #[default]
    Verify,
    None,
}
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MessageEncoding {
    #[default]
    LengthPrefixed,
    Delimited,
}
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum JsonFormat {
    #[default]
    Allow,
    LegacyBestEffort,
}
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CppStringType {
    #[default]
    String,
    Cord,
    View,
}
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum JavaUtf8Validation {
    #[default]
    Default,
    Verify,
}

#[derive(Debug, Clone)]
pub struct Enum {
    pub name: String,
    pub full_name: String,
    pub span: Span,
    pub name_span: Span,
    pub values: Vec<EnumValue>,
    pub reserved_ranges: Vec<ReservedRange>,
    pub reserved_names: Vec<ReservedName>,
    pub options: Options,
    pub features: Arc<Features>,
}

#[derive(Debug, Clone)]
pub struct EnumValue {
    pub name: String,
    pub full_name: String,
    pub number: i64,
    pub span: Span,
    pub name_span: Span,
    pub number_span: Span,
    pub options: Options,
}

#[derive(Debug, Clone)]
pub struct Service {
    pub name: String,
    pub full_name: String,
    pub span: Span,
    pub name_span: Span,
    pub methods: Vec<Method>,
    pub options: Options,
}

#[derive(Debug, Clone)]
pub struct Method {
    pub name: String,
    pub full_name: String,
    pub span: Span,
    pub name_span: Span,
    /// Fully-qualified input/output types (or as written when unresolved).
    pub input_type: String,
    pub output_type: String,
    pub input_span: Span,
    pub output_span: Span,
    pub client_streaming: bool,
    pub server_streaming: bool,
    /// Span of the `stream` keyword for input/output, if written.
    pub client_streaming_span: Option<Span>,
    pub server_streaming_span: Option<Span>,
    pub options: Options,
}

impl File {
    /// 1-based (line, column) of a byte offset, as buf prints them (see [`line_col`]).
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        self.line_index
            .get_or_init(|| LineIndex::new(&self.text))
            .line_col(&self.text, offset)
    }

    /// Every message in the file, depth-first, parents before children.
    pub fn all_messages(&self) -> Vec<&Message> {
        let mut out = Vec::new();
        fn walk<'a>(m: &'a Message, out: &mut Vec<&'a Message>) {
            out.push(m);
            for c in &m.messages {
                walk(c, out);
            }
        }
        for m in &self.messages {
            walk(m, &mut out);
        }
        out
    }

    /// Every enum in the file, top-level and nested.
    pub fn all_enums(&self) -> Vec<&Enum> {
        let mut out: Vec<&Enum> = self.enums.iter().collect();
        for m in self.all_messages() {
            out.extend(m.enums.iter());
        }
        out
    }

    /// Every extension field in the file, top-level and nested in messages.
    pub fn all_extensions(&self) -> Vec<&Field> {
        let mut out: Vec<&Field> = self.extensions.iter().collect();
        for m in self.all_messages() {
            out.extend(m.extensions.iter());
        }
        out
    }
}

#[cfg(test)]
mod layout_tests {
    /// The model holds one of each per option written (hundreds of thousands on large trees):
    /// fails when a change makes one grow. Inline, the typed value made it 144 bytes.
    #[test]
    fn option_entries_stay_small() {
        assert!(std::mem::size_of::<super::OptionEntry>() <= 80);
    }
}
