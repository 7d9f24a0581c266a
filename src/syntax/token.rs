//! Tokens of `.proto` text, as the lexer produces them: each keeps its byte span.

use super::Span;

/// What a token is. Literal values are not stored: a token is 16 bytes and `Copy`, so lexing
/// allocates nothing per token; the parser reads the few values it needs from the text
/// (`parse::lexer::int_value`, `float_value`, `string_value`), which the lexer has checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// An identifier or keyword; its text is `text[span]`.
    Ident,
    /// An integer literal (one the lexer refused reads as 0).
    Int,
    Float,
    /// A string literal (adjacent literals are NOT joined here; the parser joins them).
    Str,
    Symbol(char),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

impl Token {
    /// How the token reads in an error message: `` `foo` ``, `` `;` ``, `string literal`.
    pub fn describe(&self, text: &str) -> String {
        match self.kind {
            TokenKind::Ident => format!("`{}`", &text[self.span.range()]),
            TokenKind::Int | TokenKind::Float => "number".to_string(),
            TokenKind::Str => "string literal".to_string(),
            TokenKind::Symbol(c) => format!("`{c}`"),
        }
    }
}

/// A comment, as its span only: comments are most of the text of large schemas, and only
/// ignore directives read them, so their text is not copied (see [`LexComment::body`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LexComment {
    /// From the `//` or `/*` to the end of the line (without a `\r`) or the `*/`.
    pub span: Span,
}

impl LexComment {
    /// The comment's text without `//`, or `/*` and `*/`, from the text of its file.
    pub fn body<'t>(&self, file_text: &'t str) -> &'t str {
        let whole = &file_text[self.span.start as usize..self.span.end as usize];
        match whole.strip_prefix("/*") {
            Some(block) => block.strip_suffix("*/").unwrap_or(block),
            None => whole.strip_prefix("//").unwrap_or(whole),
        }
    }
}
