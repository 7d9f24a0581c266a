//! Message literals: the protobuf text format of an option value `{ a: 1 b: [1, 2] c < d: 1 > }`,
//! as written (names unresolved, values untyped). `parse::literal` builds them from the
//! source text that `OptionValue::Aggregate` keeps.

use super::{OptionValue, Span};

/// `{ fields }` or `< fields >`.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageLiteral {
    pub fields: Vec<LiteralField>,
    pub span: Span,
}

/// One `name: value` of a message literal.
#[derive(Debug, Clone, PartialEq)]
pub struct LiteralField {
    pub name: LiteralName,
    pub name_span: Span,
    /// Written with a `:` between the name and the value.
    pub colon: bool,
    pub value: LiteralValue,
}

#[derive(Debug, Clone, PartialEq)]
pub enum LiteralName {
    /// A field by its name (or a group by its type's name).
    Field(String),
    /// `[pkg.ext]`: an extension, named relative to the literal's message.
    Extension(String),
    /// `[type.googleapis.com/pkg.Msg]`: the expanded form of a `google.protobuf.Any`.
    Any { domain: String, type_name: String },
}

#[derive(Debug, Clone, PartialEq)]
pub enum LiteralValue {
    /// An identifier, a string (adjacent strings joined), an integer, or a float (`-inf`
    /// and `nan` included).
    Scalar(OptionValue, Span),
    /// An integer literal beyond 64 bits: valid only for `float` and `double` fields.
    BigInt(f64, Span),
    Message(MessageLiteral),
    /// `[v, ...]`, for a repeated field.
    List(Vec<LiteralValue>, Span),
}

impl LiteralValue {
    pub fn span(&self) -> Span {
        match self {
            LiteralValue::Scalar(_, span)
            | LiteralValue::BigInt(_, span)
            | LiteralValue::List(_, span) => *span,
            LiteralValue::Message(m) => m.span,
        }
    }
}
