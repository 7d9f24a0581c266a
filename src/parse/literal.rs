//! The parser of message literals (protobuf text format, as option values use it): the text
//! an `OptionValue::Aggregate` keeps, to a `MessageLiteral` with spans into the file.
//! Its errors mirror what protoc's text-format parser refuses while interpreting the option
//! (`Expected ":", found "["`, `Expected double, got: +`, `Invalid identifier in type name`).

use super::lexer::{self, lex, Token, TokenKind};
use crate::syntax::literal::{LiteralField, LiteralName, LiteralValue, MessageLiteral};
use crate::syntax::{OptionValue, Span};

/// Parses `text` (a literal starting with `{`), found at byte `offset` of its file.
pub fn parse_literal(text: &str, offset: u32) -> Result<MessageLiteral, (Span, String)> {
    let uncommented = without_comments(text);
    let text = uncommented.as_str();
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
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
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
                    // Keep byte offsets: one space per byte.
                    out.extend(std::iter::repeat_n(' ', rest.len_utf8()));
                }
            }
            _ => out.push(c),
        }
    }
    out
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
