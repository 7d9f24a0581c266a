//! Syntax types: byte spans, the pieces of a declaration that the model keeps as written
//! (labels, scalar types, option values), tokens and the syntax tree. This module depends
//! on nothing else in the crate: the parser produces these types and every later stage reads
//! them.

pub mod ast;
pub mod literal;
mod position;
pub mod token;

pub use position::{line_col, LineIndex};

use std::borrow::Cow;

/// The highest field number of a message (`max` in a message's ranges).
pub const FIELD_MAX: i64 = 536_870_911;
/// The highest field number of a message using the message-set wire format.
pub const MESSAGE_SET_FIELD_MAX: i64 = 2_147_483_646;
/// The highest enum value number (`max` in an enum's ranges).
pub const ENUM_MAX: i64 = 2_147_483_647;

/// A half-open byte range `[start, end)` into a file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    /// An identifier: `true`, `false`, `CORD`, `inf`, an enum value name.
    Ident(String),
    /// A string literal (adjacent literals joined), escapes decoded once by the lexer: the
    /// exact bytes, which need not be UTF-8 (`"\377"` is the byte 0xff).
    String(Vec<u8>),
    Int(i128),
    Float(f64),
    /// A message literal `{ ... }`, kept as its source text.
    Aggregate(String),
}

impl OptionValue {
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            OptionValue::Ident(s) if s == "true" => Some(true),
            OptionValue::Ident(s) if s == "false" => Some(false),
            _ => None,
        }
    }
    /// The text of an identifier or string; a string's bytes that are not UTF-8 read as
    /// U+FFFD (for display and names; compare [`OptionValue::as_bytes`] for exactness).
    pub fn as_str(&self) -> Option<Cow<'_, str>> {
        match self {
            OptionValue::Ident(s) => Some(Cow::Borrowed(s)),
            OptionValue::String(bytes) => Some(String::from_utf8_lossy(bytes)),
            _ => None,
        }
    }
    /// The exact bytes of a string value.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            OptionValue::String(bytes) => Some(bytes),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Label {
    Optional,
    Required,
    Repeated,
}

impl Label {
    pub fn name(self) -> &'static str {
        match self {
            Label::Optional => "optional",
            Label::Required => "required",
            Label::Repeated => "repeated",
        }
    }
}

/// `FieldDescriptorProto.Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldType {
    Double,
    Float,
    Int64,
    Uint64,
    Int32,
    Fixed64,
    Fixed32,
    Bool,
    String,
    Group,
    Message,
    Bytes,
    Uint32,
    Enum,
    Sfixed32,
    Sfixed64,
    Sint32,
    Sint64,
}

impl FieldType {
    /// The lower-case proto keyword (`group`, `message` and `enum` for the named kinds).
    pub fn name(self) -> &'static str {
        use FieldType::*;
        match self {
            Double => "double",
            Float => "float",
            Int64 => "int64",
            Uint64 => "uint64",
            Int32 => "int32",
            Fixed64 => "fixed64",
            Fixed32 => "fixed32",
            Bool => "bool",
            String => "string",
            Group => "group",
            Message => "message",
            Bytes => "bytes",
            Uint32 => "uint32",
            Enum => "enum",
            Sfixed32 => "sfixed32",
            Sfixed64 => "sfixed64",
            Sint32 => "sint32",
            Sint64 => "sint64",
        }
    }
    pub fn from_keyword(s: &str) -> Option<FieldType> {
        use FieldType::*;
        Some(match s {
            "double" => Double,
            "float" => Float,
            "int64" => Int64,
            "uint64" => Uint64,
            "int32" => Int32,
            "fixed64" => Fixed64,
            "fixed32" => Fixed32,
            "bool" => Bool,
            "string" => String,
            "bytes" => Bytes,
            "uint32" => Uint32,
            "sfixed32" => Sfixed32,
            "sfixed64" => Sfixed64,
            "sint32" => Sint32,
            "sint64" => Sint64,
            _ => return None,
        })
    }
    pub fn is_named(self) -> bool {
        matches!(
            self,
            FieldType::Message | FieldType::Enum | FieldType::Group
        )
    }
}
