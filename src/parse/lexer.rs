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
    let literal = &text[token.span.range()];
    if let Some(n) = short_decimal(literal.as_bytes()) {
        return Some(n);
    }
    match number_value(literal) {
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

/// Where the run of whitespace from `pos` ends. Indentation is a large part of a schema, so
/// runs of spaces are skipped eight bytes at a time, without a branch per byte.
fn whitespace_end(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        if let Some(chunk) = eight_at(bytes, pos) {
            let spaces = leading_spaces(chunk);
            pos += spaces;
            if spaces == 8 {
                continue;
            }
        }
        match bytes.get(pos) {
            Some(&b) if CLASS[b as usize] == Class::Space => pos += 1,
            _ => return pos,
        }
    }
}

/// Where the run of `[A-Za-z0-9_]` from `pos` ends, eight bytes at a time: most
/// identifiers end inside their first eight bytes, without a branch per byte.
fn identifier_run_end(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(chunk) = eight_at(bytes, pos) {
        let run = leading_identifier_bytes(chunk);
        pos += run;
        if run < 8 {
            return pos;
        }
    }
    while pos < bytes.len() && IDENT_CONTINUE[bytes[pos] as usize] {
        pos += 1;
    }
    pos
}

/// The eight bytes from `pos` as one word (the first byte lowest), if there are eight.
fn eight_at(bytes: &[u8], pos: usize) -> Option<u64> {
    bytes
        .get(pos..)
        .and_then(<[u8]>::first_chunk::<8>)
        .map(|chunk| u64::from_le_bytes(*chunk))
}

/// A byte of value 1 in each of a word's eight bytes, and the high bit of each.
const ONES: u64 = u64::from_le_bytes([1; 8]);
const HIGHS: u64 = ONES * 0x80;

/// How many of the word's bytes, from the first, are spaces.
fn leading_spaces(word: u64) -> usize {
    ((word ^ (ONES * u64::from(b' '))).trailing_zeros() / 8) as usize
}

/// How many of the word's bytes, from the first, are in `[A-Za-z0-9_]`.
fn leading_identifier_bytes(word: u64) -> usize {
    let low7 = word & !HIGHS;
    // `| 0x20` maps `A-Z` onto `a-z` and nothing else onto them.
    let letters = bytes_within(low7 | (ONES * 0x20), b'a', b'z');
    let digits = bytes_within(low7, b'0', b'9');
    let underscores = bytes_within(low7, b'_', b'_');
    // `& !word`: a non-ASCII byte (high bit set) is none of them.
    let identifier = (letters | digits | underscores) & !word;
    ((!identifier & HIGHS).trailing_zeros() / 8) as usize
}

/// The high bit of each byte of `low7` (bytes of at most 0x7f) that lies in `lo..=hi`. No
/// byte's sum carries into the next: at most 0x7f + 0x80.
fn bytes_within(low7: u64, lo: u8, hi: u8) -> u64 {
    let at_least_lo = low7 + ONES * u64::from(0x80 - lo);
    let above_hi = low7 + ONES * u64::from(0x7f - hi);
    at_least_lo & !above_hi & HIGHS
}

/// A decimal literal of at most 19 digits without a leading zero (every such number fits
/// in 64 bits): nearly every number of a schema, read without [`number_value`]'s checks.
fn short_decimal(literal: &[u8]) -> Option<u64> {
    let plain =
        !literal.is_empty() && literal.len() <= 19 && (literal[0] != b'0' || literal.len() == 1);
    if !plain {
        return None;
    }
    literal.iter().try_fold(0u64, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
    })
}

/// Where a string literal's decoded bytes go: a buffer, or nowhere when the lexer only
/// checks the literal (the parser decodes the few values it needs again).
trait Decoded {
    fn extend(&mut self, bytes: &[u8]);
}

impl Decoded for Vec<u8> {
    fn extend(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

struct Discard;

impl Decoded for Discard {
    fn extend(&mut self, _: &[u8]) {}
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// Where the literal being scanned has got to (strings and their escapes); the main
    /// loop keeps its own position in a local.
    pos: usize,
    out: Lexed,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, pos: usize) -> Self {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos,
            out: Lexed::default(),
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

    /// The main loop: whitespace skipped, then one token (or comments) per turn. The
    /// position and the token vector are locals, so they stay in registers.
    fn run(&mut self) {
        let bytes = self.bytes;
        let mut tokens = std::mem::take(&mut self.out.tokens);
        let mut pos = self.pos;
        loop {
            pos = whitespace_end(bytes, pos);
            let Some(&b) = bytes.get(pos) else {
                break;
            };
            let start = pos;
            let kind = match CLASS[b as usize] {
                Class::IdentStart => {
                    pos = identifier_run_end(bytes, pos + 1);
                    TokenKind::Ident
                }
                Class::Slash => match bytes.get(pos + 1) {
                    Some(b'/') => {
                        pos = self.line_comments(pos);
                        continue;
                    }
                    Some(b'*') => {
                        pos = self.block_comment(pos);
                        continue;
                    }
                    _ => {
                        pos += 1;
                        TokenKind::Symbol('/')
                    }
                },
                Class::Digit => {
                    let kind;
                    (pos, kind) = self.number(pos);
                    kind
                }
                Class::Dot if bytes.get(pos + 1).is_some_and(u8::is_ascii_digit) => {
                    let kind;
                    (pos, kind) = self.number(pos);
                    kind
                }
                Class::Quote => {
                    pos = self.string(pos, b);
                    TokenKind::Str
                }
                Class::Dot | Class::Symbol => {
                    pos += 1;
                    TokenKind::Symbol(b as char)
                }
                // `whitespace_end` stopped before it: not reached.
                Class::Space => {
                    pos += 1;
                    continue;
                }
                Class::NonAscii => {
                    pos = self.non_ascii(pos);
                    continue;
                }
            };
            tokens.push(Token {
                kind,
                span: Span::new(start, pos),
            });
        }
        self.pos = pos;
        self.out.tokens = tokens;
    }

    /// A non-ASCII character outside strings and comments at `start`: skipped whole and
    /// reported. Returns where it ends.
    fn non_ascii(&mut self, start: usize) -> usize {
        let ch = self.text[start..].chars().next().unwrap_or('\u{fffd}');
        let end = start + ch.len_utf8().max(1);
        self.error(start, end, format!("unexpected character `{ch}`"));
        end
    }

    /// The line comment at `start`, and those on the lines right after it (doc comments
    /// come in blocks): returns where the last one ends.
    fn line_comments(&mut self, mut start: usize) -> usize {
        let bytes = self.bytes;
        loop {
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            // A CRLF line ending's `\r` is not part of the comment.
            let body_end = if bytes[end - 1] == b'\r' && end > start + 2 {
                end - 1
            } else {
                end
            };
            self.out.comments.push(LexComment {
                span: Span::new(start, body_end),
            });
            let next = whitespace_end(bytes, end);
            if bytes.get(next..next + 2) != Some(b"//") {
                return next;
            }
            start = next;
        }
    }

    /// The block comment at `start`: returns where it ends.
    fn block_comment(&mut self, start: usize) -> usize {
        let body = start + 2;
        let mut from = body;
        // Each `*` until one is followed by `/` (a `memmem` searcher costs more to set up
        // than the few `*` of a comment).
        while let Some(i) = memchr::memchr(b'*', &self.bytes[from..]) {
            let star = from + i;
            if self.bytes.get(star + 1) == Some(&b'/') {
                let end = star + 2;
                self.out.comments.push(LexComment {
                    span: Span::new(start, end),
                });
                return end;
            }
            from = star + 1;
        }
        self.error(start, body, "unterminated block comment");
        self.bytes.len()
    }

    /// The numeric literal at `start`: where it ends, and whether it is an integer or a
    /// float (a bad one is reported, and an integer).
    fn number(&mut self, start: usize) -> (usize, TokenKind) {
        let bytes = self.bytes;
        // Nearly always a decimal integer without a leading zero, ended by a byte that cannot
        // continue it: nothing more to check.
        let digits_end = digit_run_end(bytes, start);
        let plain = digits_end > start && (bytes[start] != b'0' || digits_end == start + 1);
        let continues = bytes
            .get(digits_end)
            .is_some_and(|&c| IDENT_CONTINUE[c as usize] || c == b'.');
        if plain && !continues {
            return (digits_end, TokenKind::Int);
        }
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
        let kind = match number_value(&self.text[start..pos]) {
            Ok(Number::Int(_)) => TokenKind::Int,
            Ok(Number::Float(_)) => TokenKind::Float,
            Err(message) => {
                self.error(start, pos, message);
                TokenKind::Int
            }
        };
        (pos, kind)
    }

    /// The string literal at `start`, checked but not decoded: returns where it ends.
    fn string(&mut self, start: usize, quote: u8) -> usize {
        self.pos = start;
        self.string_body(quote, &mut Discard);
        self.pos
    }

    /// Scans the string literal whose opening quote is at `pos` to past its closing quote
    /// (or to the line end or end of file that cuts it, reported), decoding it into `value`.
    fn string_body(&mut self, quote: u8, value: &mut impl Decoded) {
        let start = self.pos;
        self.pos += 1;
        loop {
            // The plain bytes up to the next quote, backslash or line end, in one step.
            let rest = &self.bytes[self.pos..];
            let Some(i) = memchr::memchr3(quote, b'\\', b'\n', rest) else {
                value.extend(rest);
                self.pos = self.bytes.len();
                self.error(start, self.pos, "unterminated string literal");
                return;
            };
            value.extend(&rest[..i]);
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
    fn escape(&mut self, value: &mut impl Decoded) {
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
            value.extend(&[b]);
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
                value.extend(&[n as u8]);
            }
            b'x' | b'X' => match self.hex_digits(2) {
                Some(n) => value.extend(&[n as u8]),
                None => self.error(start, self.pos, "expected hex digits after `\\x`"),
            },
            b'u' | b'U' => {
                let len = if c == b'u' { 4 } else { 8 };
                match self.exact_hex_digits(len).and_then(char::from_u32) {
                    Some(ch) => {
                        let mut buf = [0u8; 4];
                        value.extend(ch.encode_utf8(&mut buf).as_bytes());
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

/// Where the run of decimal digits from `pos` ends.
fn digit_run_end(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
        pos += 1;
    }
    pos
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

    /// Every byte at every place of a word: the eight-byte scans agree with the tables.
    #[test]
    fn word_scans_agree_with_the_byte_tables() {
        for place in 0..8 {
            for b in 0..=255u8 {
                let mut ident = *b"abcdefgh";
                ident[place] = b;
                let expected = if IDENT_CONTINUE[b as usize] { 8 } else { place };
                let got = leading_identifier_bytes(u64::from_le_bytes(ident));
                assert_eq!(got, expected, "byte {b:#04x} at {place}");
                let mut spaces = [b' '; 8];
                spaces[place] = b;
                let expected = if b == b' ' { 8 } else { place };
                assert_eq!(leading_spaces(u64::from_le_bytes(spaces)), expected);
            }
        }
    }

    #[test]
    fn runs_end_at_the_right_byte_near_the_end_of_the_text() {
        for text in [
            "a",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnop-",
            "ab\u{e9}cdefghij",
        ] {
            let expected = text
                .bytes()
                .position(|b| !IDENT_CONTINUE[b as usize])
                .unwrap_or(text.len());
            assert_eq!(identifier_run_end(text.as_bytes(), 0), expected, "{text}");
        }
        for text in [
            "",
            " ",
            "        ",
            "         x",
            "\n\t  \r\n        \x0b\x0cx",
        ] {
            let expected = text
                .bytes()
                .position(|b| CLASS[b as usize] != Class::Space)
                .unwrap_or(text.len());
            assert_eq!(whitespace_end(text.as_bytes(), 0), expected, "{text:?}");
        }
    }

    #[test]
    fn short_decimals_read_as_number_value_reads_them() {
        for literal in [
            "0",
            "7",
            "10",
            "9999999999999999999",
            "18446744073709551615",
        ] {
            let general = match number_value(literal) {
                Ok(Number::Int(n)) => n,
                _ => panic!("{literal}"),
            };
            if let Some(n) = short_decimal(literal.as_bytes()) {
                assert_eq!(Some(n), general, "{literal}");
            }
        }
        for literal in ["", "00", "017", "1e5", "0x1", "12a", "10000000000000000000"] {
            assert_eq!(short_decimal(literal.as_bytes()), None, "{literal}");
        }
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
