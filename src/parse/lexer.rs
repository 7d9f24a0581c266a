//! Tokenizer for `.proto` text. Every token keeps its byte span; comments are kept apart
//! (they drive ignore directives and docs). The lexer never fails hard: a bad character or an
//! unterminated literal becomes a `LexError` and lexing goes on.
//!
//! It is built for throughput (issue 13): a byte-class table picks each token's scanner,
//! `memchr` finds the ends of comments (most of a large schema's text) and strings, and a
//! token is a kind and a span, so nothing is allocated per token. Literal values are read
//! again from the text when the parser needs them ([`int_value`], [`float_value`],
//! [`string_value`]); the lexer has already checked them and reported what is wrong.

use std::borrow::Cow;

pub use crate::syntax::token::{LexComment, Token, TokenKind};
use crate::syntax::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct LexError {
    pub span: Span,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub comments: Vec<LexComment>,
    pub errors: Vec<LexError>,
}

/// Splits `text` into tokens and comments.
pub fn lex(text: &str) -> Lexed {
    // A UTF-8 byte order mark is skipped (offsets stay those of the original text).
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut lexer = Lexer::new(text, start);
    lexer.out.tokens.reserve(expected_tokens(text.len()));
    lexer.run();
    lexer.out
}

/// A first capacity for the token vector, so it rarely grows: googleapis has a token per
/// ~12 bytes of text (56% of it comments), hand-written schemas without comments one per ~6.
fn expected_tokens(text_len: usize) -> usize {
    text_len / 8 + 16
}

/// The value of an `Int` token of `text`: `None` when it does not fit in 64 bits. A literal
/// the lexer refused (and reported) reads as 0.
pub fn int_value(text: &str, token: &Token) -> Option<u64> {
    match number_value(&text[token.span.range()]) {
        Ok(Number::Int(n)) => n,
        _ => Some(0),
    }
}

/// The value of a `Float` token of `text`.
pub fn float_value(text: &str, token: &Token) -> f64 {
    match number_value(&text[token.span.range()]) {
        Ok(Number::Float(f)) => f,
        _ => 0.0,
    }
}

/// The bytes the string literal at `span` of `text` decodes to (escapes decoded exactly as
/// the lexer checked them). Borrowed from the text when the literal has no escape.
pub fn string_value(text: &str, span: Span) -> Cow<'_, [u8]> {
    let literal = &text.as_bytes()[span.range()];
    let quote = literal[0];
    if memchr::memchr(b'\\', literal).is_none() {
        // An unterminated literal (cut at a line end or the end of the file) has no closing
        // quote to strip.
        let closed = literal.len() >= 2 && literal[literal.len() - 1] == quote;
        let end = if closed {
            literal.len() - 1
        } else {
            literal.len()
        };
        return Cow::Borrowed(&literal[1..end]);
    }
    let mut lexer = Lexer::new(text, span.start as usize);
    let mut value = Vec::new();
    lexer.string_body(quote, &mut value);
    Cow::Owned(value)
}

/// What a byte can start.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Space,
    Slash,
    IdentStart,
    Digit,
    Dot,
    Quote,
    /// Any other ASCII byte: a one-character symbol.
    Symbol,
    NonAscii,
}

const CLASS: [Class; 256] = classes();

const fn classes() -> [Class; 256] {
    let mut table = [Class::NonAscii; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = match b as u8 {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => Class::Space,
            b'/' => Class::Slash,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => Class::IdentStart,
            b'0'..=b'9' => Class::Digit,
            b'.' => Class::Dot,
            b'"' | b'\'' => Class::Quote,
            _ => Class::Symbol,
        };
        b += 1;
    }
    table
}

/// Bytes that continue an identifier (and a numeric literal's run): `[A-Za-z0-9_]`.
const IDENT_CONTINUE: [bool; 256] = ident_continue();

const fn ident_continue() -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    out: Lexed,
    /// Where string literals are decoded while lexing (to check their escapes); reused, so a
    /// file allocates it once at most.
    scratch: Vec<u8>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, pos: usize) -> Self {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos,
            out: Lexed::default(),
            scratch: Vec::new(),
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    fn error(&mut self, start: usize, end: usize, message: impl Into<String>) {
        self.out.errors.push(LexError {
            span: Span::new(start, end),
            message: message.into(),
        });
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.out.tokens.push(Token {
            kind,
            span: Span::new(start, self.pos),
        });
    }

    fn symbol(&mut self, b: u8) {
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::Symbol(b as char), start);
    }

    fn run(&mut self) {
        let bytes = self.bytes;
        while let Some(&b) = bytes.get(self.pos) {
            match CLASS[b as usize] {
                Class::Space => self.pos = self.whitespace_end(self.pos + 1),
                Class::Slash => match self.peek(1) {
                    Some(b'/') => self.line_comment(),
                    Some(b'*') => self.block_comment(),
                    _ => self.symbol(b),
                },
                Class::IdentStart => self.ident(),
                Class::Digit => self.number(),
                Class::Dot if self.peek(1).is_some_and(|c| c.is_ascii_digit()) => self.number(),
                Class::Quote => self.string(b),
                Class::Dot | Class::Symbol => self.symbol(b),
                Class::NonAscii => self.non_ascii(),
            }
        }
    }

    /// A non-ASCII character outside strings and comments: skipped whole and reported.
    fn non_ascii(&mut self) {
        let start = self.pos;
        let ch = self.text[start..].chars().next().unwrap_or('\u{fffd}');
        self.pos += ch.len_utf8().max(1);
        self.error(start, self.pos, format!("unexpected character `{ch}`"));
    }

    fn line_comment(&mut self) {
        let start = self.pos;
        let end =
            memchr::memchr(b'\n', &self.bytes[start..]).map_or(self.bytes.len(), |i| start + i);
        self.pos = end;
        // A CRLF line ending's `\r` is not part of the comment.
        let end = if self.bytes[end - 1] == b'\r' && end > start + 2 {
            end - 1
        } else {
            end
        };
        self.out.comments.push(LexComment {
            span: Span::new(start, end),
        });
    }

    fn block_comment(&mut self) {
        let start = self.pos;
        let body = start + 2;
        match memchr::memmem::find(&self.bytes[body..], b"*/") {
            Some(i) => {
                self.pos = body + i + 2;
                self.out.comments.push(LexComment {
                    span: Span::new(start, self.pos),
                });
            }
            None => {
                self.pos = self.bytes.len();
                self.error(start, body, "unterminated block comment");
            }
        }
    }

    fn ident(&mut self) {
        let start = self.pos;
        self.pos = self.identifier_run_end(start + 1);
        self.push(TokenKind::Ident, start);
    }

    /// Where the run of whitespace from `pos` ends: indentation is a large part of a schema,
    /// so it is skipped here rather than a byte per turn of the main loop.
    fn whitespace_end(&self, mut pos: usize) -> usize {
        while pos < self.bytes.len() && CLASS[self.bytes[pos] as usize] == Class::Space {
            pos += 1;
        }
        pos
    }

    /// Where the run of `[A-Za-z0-9_]` from `pos` ends.
    fn identifier_run_end(&self, mut pos: usize) -> usize {
        while pos < self.bytes.len() && IDENT_CONTINUE[self.bytes[pos] as usize] {
            pos += 1;
        }
        pos
    }

    fn number(&mut self) {
        let start = self.pos;
        let bytes = self.bytes;
        let hex = bytes[start] == b'0' && matches!(bytes.get(start + 1), Some(b'x' | b'X'));
        // Take the longest run that can belong to a numeric literal, then classify it: a sign
        // belongs to it right after the `e` of a decimal exponent.
        let mut pos = start;
        while let Some(&c) = bytes.get(pos) {
            let is_exponent_sign = (c == b'+' || c == b'-')
                && pos > start
                && matches!(bytes[pos - 1], b'e' | b'E')
                && !hex;
            if IDENT_CONTINUE[c as usize] || c == b'.' || is_exponent_sign {
                pos += 1;
            } else {
                break;
            }
        }
        self.pos = pos;
        match number_value(&self.text[start..pos]) {
            Ok(Number::Int(_)) => self.push(TokenKind::Int, start),
            Ok(Number::Float(_)) => self.push(TokenKind::Float, start),
            Err(message) => {
                self.error(start, pos, message);
                self.push(TokenKind::Int, start);
            }
        }
    }

    fn string(&mut self, quote: u8) {
        let start = self.pos;
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        self.string_body(quote, &mut scratch);
        self.scratch = scratch;
        self.push(TokenKind::Str, start);
    }

    /// Scans the string literal whose opening quote is at `pos` to past its closing quote
    /// (or to the line end or end of file that cuts it, reported), decoding it into `value`.
    fn string_body(&mut self, quote: u8, value: &mut Vec<u8>) {
        let start = self.pos;
        self.pos += 1;
        loop {
            // The plain bytes up to the next quote, backslash or line end, in one step.
            let rest = &self.bytes[self.pos..];
            let Some(i) = memchr::memchr3(quote, b'\\', b'\n', rest) else {
                value.extend_from_slice(rest);
                self.pos = self.bytes.len();
                self.error(start, self.pos, "unterminated string literal");
                return;
            };
            value.extend_from_slice(&rest[..i]);
            self.pos += i;
            match self.bytes[self.pos] {
                b'\n' => {
                    self.error(start, self.pos, "unterminated string literal");
                    return;
                }
                b'\\' => self.escape(value),
                _ => {
                    self.pos += 1;
                    return;
                }
            }
        }
    }
    /// Decodes one escape sequence starting at the backslash.
    fn escape(&mut self, value: &mut Vec<u8>) {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.peek(0) else {
            return;
        };
        self.pos += 1;
        let simple = match c {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(0x0b),
            b'\\' | b'\'' | b'"' | b'?' => Some(c),
            _ => None,
        };
        if let Some(b) = simple {
            value.push(b);
            return;
        }
        match c {
            b'0'..=b'7' => {
                let mut n = u32::from(c - b'0');
                for _ in 0..2 {
                    match self.peek(0) {
                        Some(d @ b'0'..=b'7') => {
                            n = n * 8 + u32::from(d - b'0');
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                // protoc accepts up to `\777` and keeps the low byte (`\400` is 0).
                value.push(n as u8);
            }
            b'x' | b'X' => match self.hex_digits(2) {
                Some(n) => value.push(n as u8),
                None => self.error(start, self.pos, "expected hex digits after `\\x`"),
            },
            b'u' | b'U' => {
                let len = if c == b'u' { 4 } else { 8 };
                match self.exact_hex_digits(len).and_then(char::from_u32) {
                    Some(ch) => {
                        let mut buf = [0u8; 4];
                        value.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    }
                    None => self.error(
                        start,
                        self.pos,
                        format!("invalid unicode escape: expected {len} hex digits of a valid code point"),
                    ),
                }
            }
            _ => {
                // Keep the escaped character (a non-ASCII one whole) and report it.
                self.pos -= 1;
                let ch = self.text[self.pos..].chars().next().unwrap_or('?');
                self.pos += ch.len_utf8();
                self.error(start, self.pos, format!("invalid escape sequence `\\{ch}`"));
            }
        }
    }

    fn hex_digits(&mut self, max: usize) -> Option<u32> {
        let mut n = 0u32;
        let mut count = 0;
        while count < max {
            match self.peek(0).and_then(|d| (d as char).to_digit(16)) {
                Some(d) => {
                    n = n * 16 + d;
                    self.pos += 1;
                    count += 1;
                }
                None => break,
            }
        }
        (count > 0).then_some(n)
    }

    fn exact_hex_digits(&mut self, len: usize) -> Option<u32> {
        let before = self.pos;
        let n = self.hex_digits(len)?;
        (self.pos - before == len).then_some(n)
    }
}

/// A numeric literal's value.
enum Number {
    /// `None` when it does not fit in 64 bits.
    Int(Option<u64>),
    Float(f64),
}

/// Classifies and reads a numeric literal: decimal, hex or octal integer, or float.
fn number_value(literal: &str) -> Result<Number, String> {
    let bytes = literal.as_bytes();
    if bytes.len() >= 2 && bytes[0] == b'0' && matches!(bytes[1], b'x' | b'X') {
        let hex = &literal[2..];
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("invalid hexadecimal literal `{literal}`"));
        }
        return Ok(Number::Int(u64::from_str_radix(hex, 16).ok()));
    }
    let is_float = bytes.iter().any(|b| matches!(b, b'.' | b'e' | b'E'));
    if is_float {
        let valid = bytes
            .iter()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
        return match literal.parse::<f64>() {
            Ok(f) if valid => Ok(Number::Float(f)),
            _ => Err(format!("invalid number `{literal}`")),
        };
    }
    if !bytes.iter().all(u8::is_ascii_digit) {
        return Err(format!("invalid number `{literal}`"));
    }
    if bytes.len() > 1 && bytes[0] == b'0' {
        if !bytes.iter().all(|b| (b'0'..=b'7').contains(b)) {
            return Err(format!("invalid octal literal `{literal}`"));
        }
        return Ok(Number::Int(u64::from_str_radix(&literal[1..], 8).ok()));
    }
    Ok(Number::Int(literal.parse::<u64>().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token with the value the parser reads from it.
    #[derive(Debug, PartialEq)]
    enum Decoded {
        Int(Option<u64>),
        Float(f64),
        Str(Vec<u8>),
        Other(TokenKind),
    }

    fn kinds(text: &str) -> Vec<Decoded> {
        let lexed = lex(text);
        assert!(lexed.errors.is_empty(), "{:?}", lexed.errors);
        lexed.tokens.iter().map(|t| decoded(text, t)).collect()
    }

    fn decoded(text: &str, token: &Token) -> Decoded {
        match token.kind {
            TokenKind::Int => Decoded::Int(int_value(text, token)),
            TokenKind::Float => Decoded::Float(float_value(text, token)),
            TokenKind::Str => Decoded::Str(string_value(text, token.span).into_owned()),
            kind => Decoded::Other(kind),
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(
            kinds("10 0x1F 017 0 1.5 1e3 .5 2E-2 18446744073709551616"),
            vec![
                Decoded::Int(Some(10)),
                Decoded::Int(Some(31)),
                Decoded::Int(Some(15)),
                Decoded::Int(Some(0)),
                Decoded::Float(1.5),
                Decoded::Float(1000.0),
                Decoded::Float(0.5),
                Decoded::Float(0.02),
                Decoded::Int(None),
            ]
        );
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(
            kinds(r#"'a\n\x41\101\u00e9\U0001F600\?\'' "b""#),
            vec![
                Decoded::Str(b"a\nAA\xc3\xa9\xf0\x9f\x98\x80?'".to_vec()),
                Decoded::Str(b"b".to_vec()),
            ]
        );
    }

    #[test]
    fn comments_are_kept() {
        let text = "a // one\n/* two */ b";
        let lexed = lex(text);
        assert_eq!(lexed.tokens.len(), 2);
        assert_eq!(lexed.comments[0].body(text), " one");
        assert_eq!(lexed.comments[1].body(text), " two ");
        assert_eq!(lexed.comments[1].span, Span::new(9, 18));
    }

    #[test]
    fn crlf_is_not_part_of_a_line_comment() {
        let text = "// buf:lint:ignore X\r\nmessage";
        let lexed = lex(text);
        assert_eq!(lexed.comments[0].body(text), " buf:lint:ignore X");
        assert_eq!(lexed.comments[0].span, Span::new(0, 20));
        assert_eq!(lexed.tokens.len(), 1);
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let lexed = lex("\u{feff}syntax");
        assert!(lexed.errors.is_empty());
        assert_eq!(lexed.tokens[0].span, Span::new(3, 9));
    }

    #[test]
    fn bad_input_does_not_panic() {
        for text in [
            "\"abc", "/* x", "0x", "1e", "é", "'\\", "'\\u12'", "09", "1.2.3",
        ] {
            let lexed = lex(text);
            assert!(!lexed.errors.is_empty(), "{text}");
        }
    }
}
