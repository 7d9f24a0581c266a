//! Tokens of `.proto` text, as the lexer produces them: each keeps its byte span.

use super::Span;

#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    /// An identifier or keyword; its text is `text[span]` (not copied: lexing stays
    /// allocation-free for the most common token).
    Ident,
    /// An integer literal; `None` when it does not fit in 64 bits.
    Int(Option<u64>),
    Float(f64),
    /// A string literal (adjacent literals are NOT joined here; the parser joins them).
    Str(Vec<u8>),
    Symbol(char),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

impl Token {
    /// How the token reads in an error message: `` `foo` ``, `` `;` ``, `string literal`.
    pub fn describe(&self, text: &str) -> String {
        match &self.kind {
            TokenKind::Ident => format!("`{}`", &text[self.span.range()]),
            TokenKind::Int(_) | TokenKind::Float(_) => "number".to_string(),
            TokenKind::Str(_) => "string literal".to_string(),
            TokenKind::Symbol(c) => format!("`{c}`"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct LexComment {
    pub span: Span,
    /// The text without `//`, or `/*` and `*/`.
    pub text: String,
}
