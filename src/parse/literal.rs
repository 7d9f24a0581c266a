//! The parser of message literals (protobuf text format, as option values use it): the text
//! an `OptionValue::Aggregate` keeps, to a `MessageLiteral` with spans into the file.
//! Its errors mirror what protoc's text-format parser refuses while interpreting the option
//! (`Expected ":", found "["`, `Expected double, got: +`, `Invalid identifier in type name`).

use std::borrow::Cow;

use super::lexer::{self, lex, Token, TokenKind};
use crate::syntax::literal::{LiteralField, LiteralName, LiteralValue, MessageLiteral};
use crate::syntax::{OptionValue, Span};

/// Parses `text` (a literal starting with `{`), found at byte `offset` of its file.
pub fn parse_literal(text: &str, offset: u32) -> Result<MessageLiteral, (Span, String)> {
    let uncommented = without_comments(text);
    let text = uncommented.as_ref();
    let lexed = lex(text);
    let shift = |span: Span| Span {
        start: span.start + offset,
        end: span.end + offset,
    };
    if let Some(error) = lexed.errors.first() {
        return Err((shift(error.span), error.message.clone()));
    }
    let mut parser = LiteralParser {
        text,
        tokens: &lexed.tokens,
        pos: 0,
        offset,
    };
    let literal = parser.message()?;
    match parser.peek() {
        None => Ok(literal),
        Some(token) => Err(parser.unexpected(token, "the end of the message literal")),
    }
}

/// `text` with each `#` comment (to the end of its line, as protobuf's text format reads
/// them) blanked out, so that spans stay where they were. A `#` inside a string is kept.
/// Most literals have no `#` at all: they are borrowed as they are.
fn without_comments(text: &str) -> Cow<'_, str> {
    if memchr::memchr(b'#', text.as_bytes()).is_none() {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match (quote, b) {
            (Some(_), b'\\') => {
                // The escaped byte is copied as it is (a multi-byte character's other bytes
                // are never a quote, a backslash or `#`).
                out.extend_from_slice(&bytes[i..(i + 2).min(bytes.len())]);
                i += 2;
                continue;
            }
            (Some(open), _) if b == open => quote = None,
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'#') => {
                // One space per byte up to the end of the line, which is kept.
                let end = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                out.resize(out.len() + (end - i), b' ');
                i = end;
                continue;
            }
            _ => {}
        }
        out.push(b);
        i += 1;
    }
    // Only whole characters were replaced, each by ASCII spaces.
    Cow::Owned(String::from_utf8(out).expect("blanking whole characters keeps UTF-8"))
}

struct LiteralParser<'a> {
    text: &'a str,
    tokens: &'a [Token],
    pos: usize,
    offset: u32,
}

type PResult<T> = Result<T, (Span, String)>;

impl<'a> LiteralParser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }

    fn span(&self, span: Span) -> Span {
        Span {
            start: span.start + self.offset,
            end: span.end + self.offset,
        }
    }

    fn end_span(&self) -> Span {
        let end = self.text.len() as u32 + self.offset;
        Span { start: end, end }
    }

    fn is_symbol(&self, c: char) -> bool {
        matches!(self.peek(), Some(t) if t.kind == TokenKind::Symbol(c))
    }

    fn unexpected(&self, token: &Token, expected: &str) -> (Span, String) {
        (
            self.span(token.span),
            format!(
                "message literal: expected {expected}, found {}",
                token.describe(self.text)
            ),
        )
    }

    fn next(&mut self, expected: &str) -> PResult<&'a Token> {
        match self.tokens.get(self.pos) {
            Some(token) => {
                self.pos += 1;
                Ok(token)
            }
            None => Err((
                self.end_span(),
                format!("message literal: expected {expected}, found the end"),
            )),
        }
    }

    fn expect_symbol(&mut self, c: char) -> PResult<Span> {
        let token = self.next(&format!("`{c}`"))?;
        if token.kind == TokenKind::Symbol(c) {
            Ok(self.span(token.span))
        } else {
            Err(self.unexpected(token, &format!("`{c}`")))
        }
    }

    /// `{ fields }` or `< fields >`.
    fn message(&mut self) -> PResult<MessageLiteral> {
        let open = self.next("`{` or `<`")?;
        let close = match open.kind {
            TokenKind::Symbol('{') => '}',
            TokenKind::Symbol('<') => '>',
            _ => return Err(self.unexpected(open, "`{` or `<`")),
        };
        let mut fields = Vec::new();
        loop {
            if self.is_symbol(close) {
                let end = self.next("")?.span.end + self.offset;
                let span = Span {
                    start: open.span.start + self.offset,
                    end,
                };
                return Ok(MessageLiteral { fields, span });
            }
            fields.push(self.field()?);
            if self.is_symbol(',') || self.is_symbol(';') {
                self.pos += 1;
            }
        }
    }

    fn field(&mut self) -> PResult<LiteralField> {
        let (name, name_span) = self.field_name()?;
        let colon = self.is_symbol(':');
        if colon {
            self.pos += 1;
        }
        let is_message_next = self.is_symbol('{') || self.is_symbol('<');
        let value = if is_message_next {
            LiteralValue::Message(self.message()?)
        } else if self.is_symbol('[') {
            self.list()?
        } else {
            let value = self.scalar()?;
            if !colon {
                // protoc: `Expected ":", found "123"`.
                return Err((
                    value.span(),
                    "message literal: a `:` must separate a field name from a scalar value".into(),
                ));
            }
            value
        };
        Ok(LiteralField {
            name,
            name_span,
            colon,
            value,
        })
    }

    /// `name`, `[pkg.ext]` or `[domain/pkg.Msg]`.
    fn field_name(&mut self) -> PResult<(LiteralName, Span)> {
        let token = self.next("a field name")?;
        match token.kind {
            TokenKind::Ident => Ok((
                LiteralName::Field(self.text[token.span.range()].to_string()),
                self.span(token.span),
            )),
            TokenKind::Symbol('[') => {
                let start = token.span.start;
                let first = self.dotted_name()?;
                let name = if self.is_symbol('/') {
                    self.pos += 1;
                    let type_name = self.dotted_name()?;
                    LiteralName::Any {
                        domain: first,
                        type_name,
                    }
                } else {
                    LiteralName::Extension(first)
                };
                let end = self.expect_symbol(']')?.end;
                Ok((
                    name,
                    Span {
                        start: start + self.offset,
                        end,
                    },
                ))
            }
            _ => Err(self.unexpected(token, "a field name")),
        }
    }

    /// `a.b.c`, without a leading dot (protoc: `Invalid identifier in type name`).
    fn dotted_name(&mut self) -> PResult<String> {
        let mut name = String::new();
        loop {
            let token = self.next("a name")?;
            if token.kind != TokenKind::Ident {
                return Err(self.unexpected(token, "a name"));
            }
            name.push_str(&self.text[token.span.range()]);
            if !self.is_symbol('.') {
                return Ok(name);
            }
            self.pos += 1;
            name.push('.');
        }
    }

    /// `[v, ...]`: scalars or messages.
    fn list(&mut self) -> PResult<LiteralValue> {
        let start = self.expect_symbol('[')?.start;
        let mut values = Vec::new();
        loop {
            if self.is_symbol(']') {
                let end = self.next("`]`")?.span.end + self.offset;
                return Ok(LiteralValue::List(values, Span { start, end }));
            }
            if !values.is_empty() {
                self.expect_symbol(',')?;
            }
            let value = if self.is_symbol('{') || self.is_symbol('<') {
                LiteralValue::Message(self.message()?)
            } else {
                self.scalar()?
            };
            values.push(value);
        }
    }

    /// An identifier, strings, or a number with an optional `-` (protoc refuses `+`).
    fn scalar(&mut self) -> PResult<LiteralValue> {
        let first = self.next("a value")?;
        let negative = first.kind == TokenKind::Symbol('-');
        let token = if negative {
            self.next("a number after `-`")?
        } else {
            first
        };
        let span = Span {
            start: first.span.start + self.offset,
            end: token.span.end + self.offset,
        };
        let sign = |f: f64| if negative { -f } else { f };
        let value = match token.kind {
            TokenKind::Int => match lexer::int_value(self.text, token) {
                Some(n) => {
                    let n = i128::from(n);
                    OptionValue::Int(if negative { -n } else { n })
                }
                None => {
                    let f = self.text[token.span.range()]
                        .parse()
                        .unwrap_or(f64::INFINITY);
                    return Ok(LiteralValue::BigInt(sign(f), span));
                }
            },
            TokenKind::Float => OptionValue::Float(sign(lexer::float_value(self.text, token))),
            TokenKind::Ident if negative => {
                match self.text[token.span.range()].to_ascii_lowercase().as_str() {
                    "inf" | "infinity" => OptionValue::Float(f64::NEG_INFINITY),
                    "nan" => OptionValue::Float(f64::NAN),
                    _ => return Err(self.unexpected(token, "a number after `-`")),
                }
            }
            TokenKind::Ident => OptionValue::Ident(self.text[token.span.range()].to_string()),
            TokenKind::Str if !negative => {
                let mut bytes = lexer::string_value(self.text, token.span).into_owned();
                let mut end = token.span.end;
                while let Some(&Token {
                    kind: TokenKind::Str,
                    span: more,
                }) = self.peek()
                {
                    bytes.extend_from_slice(&lexer::string_value(self.text, more));
                    end = more.end;
                    self.pos += 1;
                }
                let span = Span {
                    start: span.start,
                    end: end + self.offset,
                };
                return Ok(LiteralValue::Scalar(OptionValue::String(bytes), span));
            }
            _ => return Err(self.unexpected(token, "a value")),
        };
        Ok(LiteralValue::Scalar(value, span))
    }
}

/// Whether two option values are one value, as protoc stores it: numbers by value (`1.0`
/// and `1`; `0x10` and `16` are one already, and so are `"a" "b"` and `"ab"`), message
/// literals by what they set, whatever their layout, comments, delimiters (`{}` or `<>`),
/// separators, list or repeated spelling, and the order of distinct fields (a repeated
/// field's values keep their order). Untyped: an enum value by number and by name, or a
/// bool as `t` and `true`, inside a literal, differ.
pub fn same_value(a: &OptionValue, b: &OptionValue) -> bool {
    match (a, b) {
        (OptionValue::Aggregate(x), OptionValue::Aggregate(y)) => {
            x == y
                || match (parse_literal(x, 0), parse_literal(y, 0)) {
                    (Ok(x), Ok(y)) => same_message(&x, &y),
                    _ => false,
                }
        }
        _ => same_scalar(a, b),
    }
}

/// Numbers by their `f64` bits when one is a float (so `-0.0` is not `0`), NaN equal to
/// NaN; anything else as written.
fn same_scalar(a: &OptionValue, b: &OptionValue) -> bool {
    let same_float = |x: f64, y: f64| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
    match (a, b) {
        (OptionValue::Float(x), OptionValue::Float(y)) => same_float(*x, *y),
        (OptionValue::Int(i), OptionValue::Float(f))
        | (OptionValue::Float(f), OptionValue::Int(i)) => same_float(*i as f64, *f),
        _ => a == b,
    }
}

/// A literal's values by field name (`[ext]` and `[domain/type]` names in brackets), in
/// name order, each field's values in the order written (lists flattened).
fn by_field(literal: &MessageLiteral) -> std::collections::BTreeMap<String, Vec<&LiteralValue>> {
    let mut fields: std::collections::BTreeMap<String, Vec<&LiteralValue>> = Default::default();
    for field in &literal.fields {
        let name = match &field.name {
            LiteralName::Field(name) => name.clone(),
            LiteralName::Extension(name) => format!("[{name}]"),
            LiteralName::Any { domain, type_name } => format!("[{domain}/{type_name}]"),
        };
        let values = fields.entry(name).or_default();
        match &field.value {
            LiteralValue::List(list, _) => values.extend(list),
            value => values.push(value),
        }
    }
    fields
}

fn same_message(a: &MessageLiteral, b: &MessageLiteral) -> bool {
    let (a, b) = (by_field(a), by_field(b));
    a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|((name_a, values_a), (name_b, values_b))| {
                name_a == name_b
                    && values_a.len() == values_b.len()
                    && values_a
                        .iter()
                        .zip(values_b)
                        .all(|(x, y)| same_literal_value(x, y))
            })
}

fn same_literal_value(a: &LiteralValue, b: &LiteralValue) -> bool {
    match (a, b) {
        (LiteralValue::Scalar(x, _), LiteralValue::Scalar(y, _)) => same_scalar(x, y),
        (LiteralValue::BigInt(x, _), LiteralValue::BigInt(y, _)) => x.to_bits() == y.to_bits(),
        (LiteralValue::BigInt(x, _), LiteralValue::Scalar(y, _))
        | (LiteralValue::Scalar(y, _), LiteralValue::BigInt(x, _)) => {
            same_scalar(&OptionValue::Float(*x), y)
        }
        (LiteralValue::Message(x), LiteralValue::Message(y)) => same_message(x, y),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_literal, same_value, without_comments};
    use crate::syntax::OptionValue;

    fn literal(text: &str) -> OptionValue {
        OptionValue::Aggregate(text.to_string())
    }

    #[test]
    fn comments_are_blanked_and_spans_stay() {
        let text = "{ # one: 1\n  a: 1 # two\n  s: \"#x\" }";
        let parsed = parse_literal(text, 10).expect("parses");
        assert_eq!(parsed.fields.len(), 2);
        let a = parsed.fields[0].name_span;
        assert_eq!(&text[(a.start - 10) as usize..(a.end - 10) as usize], "a");
        assert_eq!(
            parsed.fields[1].value,
            crate::syntax::literal::LiteralValue::Scalar(
                OptionValue::String(b"#x".to_vec()),
                crate::syntax::Span {
                    start: 10 + 29,
                    end: 10 + 33
                }
            )
        );
    }

    #[test]
    fn the_same_value_however_written() {
        assert!(same_value(&OptionValue::Int(1), &OptionValue::Float(1.0)));
        assert!(!same_value(&OptionValue::Int(0), &OptionValue::Float(-0.0)));
        assert!(same_value(
            &OptionValue::Float(f64::NAN),
            &OptionValue::Float(f64::NAN)
        ));
        assert!(!same_value(&OptionValue::Int(1), &OptionValue::Float(1.5)));
        assert!(same_value(
            &literal("{ a: 1 b: [2, 3] c { d: \"x\" } }"),
            &literal("< b: 2; c < d: \"x\" >, a: 1.0 # moved\n b: 3 >")
        ));
        assert!(same_value(
            &literal("{ a: 0x10 s: \"a\" \"b\" }"),
            &literal("{a:16,s:'ab'}")
        ));
        // A real change, a repeated field's order, a value added.
        assert!(!same_value(&literal("{ a: 1 }"), &literal("{ a: 2 }")));
        assert!(!same_value(
            &literal("{ b: [2, 3] }"),
            &literal("{ b: [3, 2] }")
        ));
        assert!(!same_value(&literal("{ a: 1 }"), &literal("{ a: 1 b: 1 }")));
        assert!(!same_value(&literal("{ c { } }"), &literal("{ c: 1 }")));
    }

    /// The byte-wise blanking gives what a character-by-character reading of the text
    /// format's comments gives: strings with escapes, quotes of the other kind, multi-byte
    /// characters inside and outside comments, a comment at the very end.
    #[test]
    fn blanking_comments_matches_a_reading_by_characters() {
        fn by_characters(text: &str) -> String {
            let mut out = String::new();
            let mut quote: Option<char> = None;
            let mut chars = text.chars();
            while let Some(c) = chars.next() {
                match (quote, c) {
                    (Some(_), '\\') => {
                        out.push(c);
                        out.extend(chars.next());
                    }
                    (Some(open), _) if c == open => {
                        quote = None;
                        out.push(c);
                    }
                    (None, '"' | '\'') => {
                        quote = Some(c);
                        out.push(c);
                    }
                    (None, '#') => {
                        out.push(' ');
                        for rest in chars.by_ref() {
                            if rest == '\n' {
                                out.push('\n');
                                break;
                            }
                            out.extend(std::iter::repeat_n(' ', rest.len_utf8()));
                        }
                    }
                    _ => out.push(c),
                }
            }
            out
        }
        let cases = [
            "{ a: 1 }",
            "{ # one: 1\n  a: 1 # two\n  s: \"#x\" }",
            "{ s: 'it\\'s # not a comment' # but this é is\n b: \"\\\"#\" }",
            "{ s: \"é#\\é\" # ü€ to the end",
            "{ s: '\"#' t: \"'#\" }#",
            "{ s: \"unterminated # still a string\n}",
            "{ s: \"ends in a backslash \\",
        ];
        for text in cases {
            let blanked = without_comments(text);
            assert_eq!(blanked, by_characters(text), "{text:?}");
            assert_eq!(blanked.len(), text.len(), "{text:?}");
        }
    }
}
