//! The lexer as it was before the throughput rewrite (issue 13), kept for the differential
//! test in `lexer_differential.rs` while both exist: the new one must give the same tokens,
//! values, comments and errors on every input. Delete both once the new lexer has settled.

use crate::syntax::token::LexComment;
use crate::syntax::Span;

#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    Ident,
    Int(Option<u64>),
    Float(f64),
    Str(Vec<u8>),
    Symbol(char),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

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
    let mut lexer = Lexer {
        text,
        bytes: text.as_bytes(),
        pos: start,
        out: Lexed::default(),
    };
    lexer.run();
    lexer.out
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    out: Lexed,
}

impl Lexer<'_> {
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

    fn run(&mut self) {
        while let Some(b) = self.peek(0) {
            let start = self.pos;
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b'/' if self.peek(1) == Some(b'/') => self.line_comment(),
                b'/' if self.peek(1) == Some(b'*') => self.block_comment(),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.ident(),
                b'0'..=b'9' => self.number(),
                b'.' if self.peek(1).is_some_and(|c| c.is_ascii_digit()) => self.number(),
                b'"' | b'\'' => self.string(b),
                _ if b.is_ascii() => {
                    self.pos += 1;
                    self.push(TokenKind::Symbol(b as char), start);
                }
                _ => {
                    // A non-ASCII character outside strings and comments: skip it whole.
                    let ch = self.text[start..].chars().next().unwrap_or('\u{fffd}');
                    self.pos += ch.len_utf8().max(1);
                    self.error(start, self.pos, format!("unexpected character `{ch}`"));
                }
            }
        }
    }

    fn line_comment(&mut self) {
        let start = self.pos;
        let end = self.bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.bytes.len(), |i| start + i);
        self.pos = end;
        // A CRLF line ending's `\r` is not part of the comment.
        let end = if self.text[..end].ends_with('\r') && end > start + 2 {
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
        match self.text[body..].find("*/") {
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
        while self
            .peek(0)
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.pos += 1;
        }
        self.push(TokenKind::Ident, start);
    }

    fn number(&mut self) {
        let start = self.pos;
        // Take the longest run that can belong to a numeric literal, then classify it.
        while let Some(c) = self.peek(0) {
            let prev = if self.pos > start {
                self.bytes[self.pos - 1]
            } else {
                0
            };
            let is_exponent_sign = (c == b'+' || c == b'-')
                && self.pos > start
                && (prev == b'e' || prev == b'E')
                && !self.text[start..self.pos].starts_with("0x")
                && !self.text[start..self.pos].starts_with("0X");
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || is_exponent_sign {
                self.pos += 1;
            } else {
                break;
            }
        }
        let literal = &self.text[start..self.pos];
        match classify_number(literal) {
            Ok(kind) => self.push(kind, start),
            Err(message) => {
                self.error(start, self.pos, message);
                self.push(TokenKind::Int(Some(0)), start);
            }
        }
    }

    fn string(&mut self, quote: u8) {
        let start = self.pos;
        self.pos += 1;
        let mut value = Vec::new();
        loop {
            let Some(c) = self.peek(0) else {
                self.error(start, self.pos, "unterminated string literal");
                break;
            };
            match c {
                b'\n' => {
                    self.error(start, self.pos, "unterminated string literal");
                    break;
                }
                _ if c == quote => {
                    self.pos += 1;
                    break;
                }
                b'\\' => self.escape(&mut value),
                _ => {
                    value.push(c);
                    self.pos += 1;
                }
            }
        }
        self.push(TokenKind::Str(value), start);
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

/// Classifies a numeric literal: decimal, hex or octal integer, or float.
fn classify_number(literal: &str) -> Result<TokenKind, String> {
    let lower = literal.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("invalid hexadecimal literal `{literal}`"));
        }
        return Ok(TokenKind::Int(u64::from_str_radix(hex, 16).ok()));
    }
    let is_float = lower.contains('.') || lower.contains('e');
    if is_float {
        let valid = lower
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'+' | b'-'));
        return match lower.parse::<f64>() {
            Ok(f) if valid => Ok(TokenKind::Float(f)),
            _ => Err(format!("invalid number `{literal}`")),
        };
    }
    if !lower.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("invalid number `{literal}`"));
    }
    if lower.len() > 1 && lower.starts_with('0') {
        if !lower.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            return Err(format!("invalid octal literal `{literal}`"));
        }
        return Ok(TokenKind::Int(u64::from_str_radix(&lower[1..], 8).ok()));
    }
    Ok(TokenKind::Int(lower.parse::<u64>().ok()))
}
