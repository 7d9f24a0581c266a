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
