//! Recursive-descent parser over the token stream. Each statement either parses fully or
//! reports one error and skips to the end of the statement (`;` or its closing `}`), so one
//! file can yield several errors. Nesting is bounded so no input can overflow the stack.

use super::ast::*;
use super::lexer::{self, Token, TokenKind};
use std::fmt::Display;

use compact_str::CompactString;

use crate::syntax::{FieldType, Label, OptionValue, Span, ENUM_MAX, FIELD_MAX};

/// Deepest nesting of messages/groups/aggregate values accepted.
pub const MAX_DEPTH: usize = 128;

#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

/// Marker: an error was recorded; the caller recovers.
struct Failed;
type PResult<T> = Result<T, Failed>;

pub struct Parser<'a> {
    text: &'a str,
    tokens: &'a [Token],
    pos: usize,
    depth: usize,
    editions: bool,
    /// Edition 2024 or later: `export` / `local` and `import option` exist, `import weak`
    /// does not.
    edition_2024: bool,
    /// Set after an error that ends parsing (too deep nesting): later errors are noise.
    stopped: bool,
    /// The `local` / `export` just read, for the message or enum that follows.
    visibility: Option<Visibility>,
    /// The items of the message bodies being parsed, innermost last. A body moves its own
    /// into a vector of exactly their number at its end, so no body's vector grows (growing
    /// reallocated it and moved its large items again) or keeps spare room.
    items: Vec<MessageItem>,
    pub errors: Vec<ParseError>,
}

/// Parses a token stream (from `lexer::lex(text)`).
pub fn parse_tokens(text: &str, tokens: &[Token]) -> (FileAst, Vec<ParseError>) {
    let mut parser = Parser {
        text,
        tokens,
        pos: 0,
        depth: 0,
        editions: false,
        edition_2024: false,
        stopped: false,
        visibility: None,
        items: Vec::new(),
        errors: Vec::new(),
    };
    let ast = parser.file();
    (ast, parser.errors)
}

impl<'a> Parser<'a> {
    // ---- token helpers ----

    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }

    fn peek_at(&self, ahead: usize) -> Option<&'a Token> {
        self.tokens.get(self.pos + ahead)
    }

    fn is_symbol(&self, c: char) -> bool {
        matches!(self.peek(), Some(Token { kind: TokenKind::Symbol(s), .. }) if *s == c)
    }

    fn is_symbol_at(&self, ahead: usize, c: char) -> bool {
        matches!(self.peek_at(ahead), Some(Token { kind: TokenKind::Symbol(s), .. }) if *s == c)
    }

    fn is_keyword(&self, word: &str) -> bool {
        self.ident_at(0) == Some(word)
    }

    fn ident_at(&self, ahead: usize) -> Option<&'a str> {
        match self.peek_at(ahead) {
            Some(Token {
                kind: TokenKind::Ident,
                span,
            }) => Some(&self.text[span.range()]),
            _ => None,
        }
    }

    /// The current token's value and span when it is an integer literal.
    fn peek_int(&self) -> Option<(Option<u64>, Span)> {
        match self.peek() {
            Some(
                token @ Token {
                    kind: TokenKind::Int,
                    span,
                },
            ) => Some((lexer::int_value(self.text, token), *span)),
            _ => None,
        }
    }

    fn bump(&mut self) -> Option<&'a Token> {
        let token = self.tokens.get(self.pos);
        if token.is_some() {
            self.pos += 1;
        }
        token
    }

    /// End of the previous token (for statement spans).
    fn prev_end(&self) -> u32 {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(0, |t| t.span.end)
    }

    fn current_start(&self) -> u32 {
        self.peek().map_or(self.text.len() as u32, |t| t.span.start)
    }

    fn span_from(&self, start: u32) -> Span {
        Span {
            start,
            end: self.prev_end().max(start),
        }
    }

    fn found(&self) -> String {
        self.peek()
            .map_or_else(|| "end of file".to_string(), |t| t.describe(self.text))
    }

    fn here(&self) -> Span {
        match self.peek() {
            Some(t) => t.span,
            None => Span::new(self.text.len(), self.text.len()),
        }
    }

    fn error_at(&mut self, span: Span, message: String) -> Failed {
        if !self.stopped {
            self.errors.push(ParseError { span, message });
        }
        Failed
    }

    /// "expected X, found Y" at the current token, or right after the previous token when
    /// the current one starts a later line (a missing `;` is best shown where it belongs).
    fn expected(&mut self, what: impl Display) -> Failed {
        let message = format!("expected {what}, found {}", self.found());
        let span = if self.next_is_on_later_line() {
            let end = self.prev_end();
            Span { start: end, end }
        } else {
            self.here()
        };
        self.error_at(span, message)
    }

    /// Whether a line break separates the previous token from the current one.
    fn next_is_on_later_line(&self) -> bool {
        if self.pos == 0 {
            return false;
        }
        let start = self.prev_end() as usize;
        let end = self.current_start() as usize;
        self.text
            .get(start..end.max(start))
            .is_some_and(|between| between.contains('\n'))
    }

    fn expect_symbol(&mut self, c: char, context: impl Display) -> PResult<Span> {
        if self.is_symbol(c) {
            Ok(self.bump().map(|t| t.span).unwrap_or_default())
        } else if c == ';' && self.next_is_on_later_line() {
            // A forgotten `;` at the end of a line: report it and go on as if it were there,
            // so the next line is parsed (and checked) normally.
            self.expected(format_args!("`;` {context}"));
            let end = self.prev_end();
            Ok(Span { start: end, end })
        } else {
            Err(self.expected(format_args!("`{c}` {context}")))
        }
    }

    fn expect_keyword(&mut self, word: &str, context: impl Display) -> PResult<Span> {
        if self.is_keyword(word) {
            Ok(self.bump().map(|t| t.span).unwrap_or_default())
        } else {
            Err(self.expected(format_args!("`{word}` {context}")))
        }
    }

    fn ident(&mut self, what: impl Display) -> PResult<Name> {
        let span = self.ident_span(what)?;
        Ok(Name {
            text: CompactString::new(&self.text[span.range()]),
            span,
        })
    }

    /// An identifier's span, its text not copied.
    fn ident_span(&mut self, what: impl Display) -> PResult<Span> {
        match self.peek() {
            Some(Token {
                kind: TokenKind::Ident,
                span,
            }) => {
                self.pos += 1;
                Ok(*span)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// `a.b.c`, with a leading `.` when `allow_leading_dot`.
    fn dotted_name(&mut self, what: impl Display + Copy, allow_leading_dot: bool) -> PResult<Name> {
        let start = self.current_start();
        let first = self.pos;
        if allow_leading_dot && self.is_symbol('.') {
            self.bump();
        }
        self.ident_span(what)?;
        while self.is_symbol('.') {
            self.bump();
            self.ident_span(format_args!("identifier after `.` in {what}"))?;
        }
        let span = self.span_from(start);
        // Written without spaces or comments between its parts (nearly always), the name is
        // its text as is: one copy.
        let parts = &self.tokens[first..self.pos];
        let text = if parts.windows(2).all(|w| w[0].span.end == w[1].span.start) {
            CompactString::new(&self.text[span.range()])
        } else {
            parts.iter().map(|t| &self.text[t.span.range()]).collect()
        };
        Ok(Name { text, span })
    }

    fn string_literal(&mut self, what: impl Display) -> PResult<(String, Span)> {
        let (bytes, span) = self.string_bytes(what)?;
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Ok((text, span))
    }

    /// Adjacent string literals joined, as the exact bytes their escapes decode to.
    fn string_bytes(&mut self, what: impl Display) -> PResult<(Vec<u8>, Span)> {
        let start = self.current_start();
        let mut bytes = Vec::new();
        let mut any = false;
        while let Some(Token {
            kind: TokenKind::Str,
            span,
        }) = self.peek()
        {
            let value = lexer::string_value(self.text, *span);
            if any {
                bytes.extend_from_slice(&value);
            } else {
                bytes = value.into_owned();
            }
            self.pos += 1;
            any = true;
        }
        if !any {
            return Err(self.expected(what));
        }
        Ok((bytes, self.span_from(start)))
    }

    /// Skips to the end of the current statement: past the next `;` at this level, or up to
    /// (not past) a `}` closing the enclosing body; a nested `{...}` block is skipped whole
    /// (and ends the statement).
    fn recover(&mut self) {
        let mut depth = 0usize;
        while let Some(token) = self.peek() {
            match token.kind {
                TokenKind::Symbol(';') if depth == 0 => {
                    self.pos += 1;
                    return;
                }
                TokenKind::Symbol('{') => depth += 1,
                TokenKind::Symbol('}') => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return;
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.here();
            self.errors.push(ParseError {
                span,
                message: format!("nesting is too deep (more than {MAX_DEPTH} levels)"),
            });
            // Nothing sensible can follow: stop parsing this file.
            self.pos = self.tokens.len();
            self.stopped = true;
            self.depth -= 1;
            return Err(Failed);
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- file level ----

    fn file(&mut self) -> FileAst {
        let mut ast = FileAst::default();
        while self.is_symbol(';') {
            self.bump();
        }
        if self.is_keyword("syntax") || self.is_keyword("edition") {
            match self.syntax_decl() {
                Ok(decl) => {
                    self.editions = decl.kind == SyntaxKind::Edition;
                    // Edition names of one length compare as numbers.
                    self.edition_2024 = self.editions && decl.value.as_str() >= "2024";
                    ast.syntax = Some(decl);
                }
                Err(Failed) => self.recover(),
            }
        }
        while self.peek().is_some() {
            let before = self.pos;
            match self.top_item() {
                Ok(Some(item)) => ast.items.push(item),
                Ok(None) => {}
                Err(Failed) => self.recover(),
            }
            if self.pos == before {
                // A stray `}` at top level: report and skip it so we always progress.
                let span = self.here();
                let found = self.found();
                self.errors.push(ParseError {
                    span,
                    message: format!("expected a top-level declaration, found {found}"),
                });
                self.pos += 1;
            }
        }
        ast
    }

    fn syntax_decl(&mut self) -> PResult<SyntaxDecl> {
        let start = self.current_start();
        let kind = if self.is_keyword("syntax") {
            SyntaxKind::Syntax
        } else {
            SyntaxKind::Edition
        };
        let keyword = if kind == SyntaxKind::Syntax {
            "syntax"
        } else {
            "edition"
        };
        self.bump();
        self.expect_symbol('=', format_args!("after `{keyword}`"))?;
        let (value, value_span) = self.string_literal(format_args!("{keyword} string"))?;
        match (&kind, value.as_str()) {
            (SyntaxKind::Syntax, "proto2" | "proto3") => {}
            // UNSTABLE: protoc's edition in the making, accepted only in its own files (see
            // `written::unstable_edition`).
            (SyntaxKind::Edition, "2023" | "2024" | "UNSTABLE") => {}
            (SyntaxKind::Syntax, _) => {
                return Err(self.error_at(
                    value_span,
                    format!("unknown syntax \"{value}\": expected \"proto2\" or \"proto3\""),
                ))
            }
            (SyntaxKind::Edition, _) => {
                return Err(self.error_at(
                    value_span,
                    format!("unsupported edition \"{value}\": expected \"2023\" or \"2024\""),
                ))
            }
        }
        self.expect_symbol(';', format_args!("after {keyword} value"))?;
        Ok(SyntaxDecl {
            kind,
            value,
            value_span,
            span: self.span_from(start),
        })
    }

    fn top_item(&mut self) -> PResult<Option<TopItem>> {
        if self.is_symbol(';') {
            self.bump();
            return Ok(None);
        }
        self.skip_visibility()?;
        let Some(word) = self.ident_at(0) else {
            if self.is_symbol('}') {
                return Ok(None); // reported by the caller as stray
            }
            return Err(self.expected("a top-level declaration"));
        };
        Ok(Some(match word {
            "package" => TopItem::Package(self.package()?),
            "import" => TopItem::Import(self.import()?),
            "option" => TopItem::Option(self.option_statement()?),
            "message" => TopItem::Message(self.message()?),
            "enum" => TopItem::Enum(self.enum_decl()?),
            "service" => TopItem::Service(self.service()?),
            "extend" => TopItem::Extend(self.extend()?),
            "syntax" | "edition" => {
                let span = self.here();
                return Err(self.error_at(
                    span,
                    format!("`{word}` must be the first statement of the file"),
                ));
            }
            _ => return Err(self.expected("a top-level declaration")),
        }))
    }

    /// Editions 2024 `export` / `local` before a message or enum: kept for that declaration,
    /// refused before edition 2024 (protoc: `Expected top-level statement (e.g.
    /// "message").`, buf: "`local` is not supported in Edition 2023"). From edition 2024 on
    /// the words start no other statement (protoc: `'local' and 'export' visibility
    /// modifiers are valid only on 'message' and 'enum'`), so `export.T f = 1;` is refused.
    fn skip_visibility(&mut self) -> PResult<()> {
        self.visibility = None;
        if !(self.is_keyword("export") || self.is_keyword("local")) {
            return Ok(());
        }
        if !matches!(self.ident_at(1), Some("message" | "enum")) {
            if !self.edition_2024 {
                return Ok(());
            }
            let word = self.here();
            self.bump();
            let span = self.here();
            let word = &self.text[word.range()];
            return Err(self.error_at(
                span,
                format!("`{word}` may only come before `message` or `enum`"),
            ));
        }
        self.visibility = Some(if self.is_keyword("local") {
            Visibility::Local
        } else {
            Visibility::Export
        });
        if !self.edition_2024 {
            let span = self.here();
            let word = &self.text[span.range()];
            let message = format!("`{word}` is only allowed from edition 2024 on");
            self.errors.push(ParseError { span, message });
        }
        self.bump();
        Ok(())
    }

    fn package(&mut self) -> PResult<PackageDecl> {
        let start = self.current_start();
        self.bump();
        let name = self.dotted_name("package name", false)?;
        self.expect_symbol(';', "after package name")?;
        Ok(PackageDecl {
            name,
            span: self.span_from(start),
        })
    }

    fn import(&mut self) -> PResult<ImportDecl> {
        let start = self.current_start();
        self.bump();
        let (mut public, mut weak, mut option_only) = (false, false, false);
        match self.ident_at(0) {
            Some("public") => public = true,
            Some("weak") => weak = true,
            Some("option") => option_only = true,
            _ => {}
        }
        if public || weak || option_only {
            self.import_modifier_allowed(weak, option_only);
            self.bump();
        }
        let (path, path_span) = self.string_literal("import path string")?;
        self.expect_symbol(';', "after import path")?;
        Ok(ImportDecl {
            path,
            path_span,
            public,
            weak,
            option_only,
            span: self.span_from(start),
        })
    }

    /// protoc: `option import is not supported before edition 2024.` and `weak import is not
    /// supported in edition 2024 and above. Consider using option import instead.`
    fn import_modifier_allowed(&mut self, weak: bool, option_only: bool) {
        let message = if option_only && !self.edition_2024 {
            "`import option` is only allowed from edition 2024 on"
        } else if weak && self.edition_2024 {
            "`import weak` is not allowed from edition 2024 on; use `import option`"
        } else {
            return;
        };
        let span = self.here();
        self.errors.push(ParseError {
            span,
            message: message.to_string(),
        });
    }

    // ---- options ----

    fn option_statement(&mut self) -> PResult<OptionDecl> {
        let start = self.current_start();
        self.bump();
        let mut decl = self.option_body()?;
        self.expect_symbol(';', "after option value")?;
        decl.span = self.span_from(start);
        Ok(decl)
    }

    /// `name = value`; the span covers exactly that.
    fn option_body(&mut self) -> PResult<OptionDecl> {
        let start = self.current_start();
        let name = self.option_name()?;
        self.expect_symbol('=', "after option name")?;
        let value_start = self.current_start();
        let is_default =
            matches!(name.as_slice(), [part] if !part.is_extension && part.name == "default");
        let value = self.constant(is_default)?;
        let value_span = self.span_from(value_start);
        Ok(OptionDecl {
            name,
            value,
            value_span,
            span: self.span_from(start),
        })
    }

    fn option_name(&mut self) -> PResult<Vec<OptionNamePart>> {
        let mut parts = Vec::new();
        loop {
            if self.is_symbol('(') {
                let start = self.current_start();
                self.bump();
                let name = self.dotted_name("extension name", true)?;
                self.expect_symbol(')', "after extension name")?;
                parts.push(OptionNamePart {
                    name: name.text,
                    is_extension: true,
                    span: self.span_from(start),
                });
            } else {
                let name = self.ident("option name")?;
                parts.push(OptionNamePart {
                    name: name.text,
                    is_extension: false,
                    span: name.span,
                });
            }
            if !self.is_symbol('.') {
                return Ok(parts);
            }
            self.bump();
        }
    }

    /// `[a = 1, (b).c = "x"]`
    fn compact_options(&mut self) -> PResult<Vec<OptionDecl>> {
        let mut options = Vec::new();
        if !self.is_symbol('[') {
            return Ok(options);
        }
        self.bump();
        loop {
            options.push(self.option_body()?);
            if self.is_symbol(',') {
                self.bump();
                continue;
            }
            self.expect_symbol(']', "to close the option list")?;
            return Ok(options);
        }
    }

    /// An option value: identifier, signed number, string(s), or `{ aggregate }`.
    /// A decimal integer beyond 64 bits reads as a double, as protoc reads a `default` or an
    /// option value (valid for double and float; the linker refuses it for integer types).
    /// `is_default`: protoc's option values take only `-` (`Expected option value.`); a
    /// default's `+` is refused later with its own message.
    fn constant(&mut self, is_default: bool) -> PResult<OptionValue> {
        if self.is_symbol('+') && !is_default {
            return Err(self.expected("an option value"));
        }
        let negative = if self.is_symbol('-') || self.is_symbol('+') {
            let neg = self.is_symbol('-');
            self.bump();
            Some(neg)
        } else {
            None
        };
        let Some(token) = self.peek() else {
            return Err(self.expected("an option value"));
        };
        let int = match token.kind {
            TokenKind::Int => Some(lexer::int_value(self.text, token)),
            _ => None,
        };
        let value = match (token.kind, int, negative) {
            (TokenKind::Int, Some(Some(n)), neg) => {
                let n = i128::from(n);
                OptionValue::Int(if neg == Some(true) { -n } else { n })
            }
            (TokenKind::Int, Some(None), neg)
                if self.text[token.span.range()]
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
            {
                let f: f64 = self.text[token.span.range()]
                    .parse()
                    .unwrap_or(f64::INFINITY);
                OptionValue::Float(if neg == Some(true) { -f } else { f })
            }
            (TokenKind::Int, _, _) => {
                return Err(self.error_at(token.span, "integer literal is out of range".into()))
            }
            (TokenKind::Float, _, neg) => {
                let f = lexer::float_value(self.text, token);
                OptionValue::Float(if neg == Some(true) { -f } else { f })
            }
            // protoc: `Identifier after '-' symbol must be inf or nan.` (lower case, and
            // not `infinity`, which only an unsigned option value may spell).
            (TokenKind::Ident, _, Some(neg)) => {
                let f = match &self.text[token.span.range()] {
                    "inf" => f64::INFINITY,
                    "nan" => f64::NAN,
                    _ => {
                        return Err(self
                            .error_at(token.span, "only `inf` or `nan` may follow a sign".into()))
                    }
                };
                OptionValue::Float(if neg { -f } else { f })
            }
            (TokenKind::Ident, _, None) => {
                OptionValue::Ident(self.text[token.span.range()].to_string())
            }
            (TokenKind::Str, _, None) => {
                return Ok(OptionValue::String(self.string_bytes("string")?.0))
            }
            (TokenKind::Symbol('{'), _, None) => return self.aggregate(),
            _ => return Err(self.expected("an option value")),
        };
        self.bump();
        Ok(value)
    }

    /// A message literal: balanced braces, kept as source text.
    fn aggregate(&mut self) -> PResult<OptionValue> {
        let start = self.current_start();
        let mut depth = 0usize;
        while let Some(token) = self.bump() {
            match token.kind {
                TokenKind::Symbol('{') => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Err(self.error_at(
                            token.span,
                            format!("nesting is too deep (more than {MAX_DEPTH} levels)"),
                        ));
                    }
                }
                TokenKind::Symbol('}') => {
                    depth -= 1;
                    if depth == 0 {
                        let span = self.span_from(start);
                        return Ok(OptionValue::Aggregate(self.text[span.range()].to_string()));
                    }
                }
                _ => {}
            }
        }
        let span = Span::new(start as usize, start as usize + 1);
        Err(self.error_at(span, "unclosed `{` in message literal".into()))
    }

    // ---- messages ----

    fn message(&mut self) -> PResult<MessageDecl> {
        let visibility = self.visibility.take();
        let start = self.current_start();
        self.bump();
        let name = self.ident("message name")?;
        let body = self.message_body(format_args!("after message name `{}`", name.text))?;
        Ok(MessageDecl {
            name,
            body,
            span: self.span_from(start),
            visibility,
        })
    }

    /// `{ items }` of a message or group.
    fn message_body(&mut self, context: impl Display) -> PResult<Vec<MessageItem>> {
        self.expect_symbol('{', context)?;
        self.enter()?;
        let first = self.items.len();
        let closed = loop {
            if self.is_symbol('}') {
                self.bump();
                break Ok(());
            }
            if self.peek().is_none() {
                break Err(self.expected("`}` to close the message"));
            }
            match self.message_item() {
                Ok(Some(item)) => self.items.push(item),
                Ok(None) => {}
                Err(Failed) => self.recover(),
            }
        };
        self.leave();
        // Nested bodies have taken theirs: what lies above `first` is this body's.
        let items: Vec<MessageItem> = self.items.drain(first..).collect();
        closed.map(|()| items)
    }

    /// One statement of a message body. As in protoc, a statement's first word decides what
    /// it is: `message bar = 1;` is a message missing its `{` (protoc: `Expected "{".`), not
    /// a field of a type named `message` (buf accepts that one).
    fn message_item(&mut self) -> PResult<Option<MessageItem>> {
        if self.is_symbol(';') {
            self.bump();
            return Ok(None);
        }
        self.skip_visibility()?;
        let item = match self.ident_at(0) {
            Some("message") => MessageItem::Message(self.message()?),
            Some("enum") => MessageItem::Enum(self.enum_decl()?),
            Some("extend") => MessageItem::Extend(self.extend()?),
            Some("oneof") => MessageItem::Oneof(self.oneof()?),
            Some("extensions") => MessageItem::Extensions(self.extensions()?),
            Some("reserved") => MessageItem::Reserved(self.reserved(FIELD_MAX)?),
            Some("option") => MessageItem::Option(self.option_statement()?),
            Some(_) => MessageItem::Field(self.field(FieldContext::Message)?),
            None if self.is_symbol('.') => MessageItem::Field(self.field(FieldContext::Message)?),
            None => return Err(self.expected("a field, message, enum, oneof or option")),
        };
        Ok(Some(item))
    }

    fn field(&mut self, context: FieldContext) -> PResult<FieldDecl> {
        let start = self.current_start();
        let label = self.label(context)?;
        let type_start = self.current_start();
        let ty = self.type_ref()?;
        let type_span = self.span_from(type_start);
        if matches!(ty, TypeRef::Map { .. }) {
            if let Some((_, span)) = label {
                return Err(self.error_at(span, "map fields cannot have a label".into()));
            }
        }
        let name = self.ident("field name")?;
        if ty == TypeRef::Group && !name.text.starts_with(|c: char| c.is_ascii_uppercase()) {
            // protoc's parser: "Group names must start with a capital letter." (the group's
            // message is named as written, and its field is the lowercased name).
            return Err(self.error_at(
                name.span,
                "group names must start with a capital letter".into(),
            ));
        }
        self.expect_symbol('=', format_args!("after field name `{}`", name.text))?;
        let (number, number_span) = self.field_number()?;
        let options = self.compact_options()?;
        let group_body = if ty == TypeRef::Group {
            Some(self.message_body(format_args!("after group `{}`", name.text))?)
        } else {
            let context = if options.is_empty() {
                "after field number"
            } else {
                "after field options"
            };
            self.expect_symbol(';', context)?;
            None
        };
        Ok(FieldDecl {
            label,
            ty,
            type_span,
            name,
            number,
            number_span,
            options,
            group_body,
            span: self.span_from(start),
        })
    }

    fn label(&mut self, context: FieldContext) -> PResult<Option<(Label, Span)>> {
        let label = match self.ident_at(0) {
            Some("optional") => Label::Optional,
            Some("required") => Label::Required,
            Some("repeated") => Label::Repeated,
            _ => return Ok(None),
        };
        // As in protoc, the word is always a label: `optional foo = 1;` is a field of type
        // `foo` with no name (protoc: `Expected field name.`), never one of a type named
        // `optional` (buf accepts that).
        let span = self.here();
        if context == FieldContext::Oneof {
            return Err(self.error_at(
                span,
                format!(
                    "fields in a oneof cannot have a label (found `{}`)",
                    label.name()
                ),
            ));
        }
        if self.editions && label != Label::Repeated {
            return Err(self.error_at(
                span,
                format!(
                    "label `{}` is not allowed in editions; use `features.field_presence`",
                    label.name()
                ),
            ));
        }
        self.bump();
        Ok(Some((label, span)))
    }

    fn type_ref(&mut self) -> PResult<TypeRef> {
        if self.is_keyword("map") && self.is_symbol_at(1, '<') {
            return self.map_type();
        }
        if let Some(word) = self.ident_at(0).filter(|w| is_type_keyword(w)) {
            // protoc reads a scalar, `group` or `map` as the whole type: `group.Bar Foo = 1;`
            // is a group with no name (`Expected field name.`), not a type `group.Bar`.
            let span = self.here();
            self.bump();
            return match FieldType::from_keyword(word) {
                Some(scalar) => Ok(TypeRef::Scalar(scalar)),
                None if word == "group" => self.group_type(span),
                None => Ok(TypeRef::Named(CompactString::new(word))),
            };
        }
        let name = self.dotted_name("field type", true)?;
        Ok(TypeRef::Named(name.text))
    }

    /// After the word `group`: a group (not allowed in editions).
    fn group_type(&mut self, span: Span) -> PResult<TypeRef> {
        if self.editions {
            return Err(self.error_at(
                span,
                "groups are not allowed in editions; use `features.message_encoding = DELIMITED`"
                    .into(),
            ));
        }
        Ok(TypeRef::Group)
    }

    /// A message's name where only a message may be named (an extendee, a method's input or
    /// output): protoc refuses a scalar or `group` there (`Expected message type.`).
    fn message_type_name(&mut self, what: impl Display + Copy) -> PResult<Name> {
        if let Some(word) = self
            .ident_at(0)
            .filter(|w| is_type_keyword(w) && *w != "map")
        {
            let span = self.here();
            return Err(self.error_at(
                span,
                format!("expected a message type for the {what}, found `{word}`"),
            ));
        }
        self.dotted_name(what, true)
    }

    fn map_type(&mut self) -> PResult<TypeRef> {
        self.bump();
        self.bump();
        let key_start = self.current_start();
        let key = self.dotted_name("map key type", true)?;
        let key_span = self.span_from(key_start);
        let key_type = match FieldType::from_keyword(&key.text) {
            Some(
                t @ (FieldType::Int32
                | FieldType::Int64
                | FieldType::Uint32
                | FieldType::Uint64
                | FieldType::Sint32
                | FieldType::Sint64
                | FieldType::Fixed32
                | FieldType::Fixed64
                | FieldType::Sfixed32
                | FieldType::Sfixed64
                | FieldType::Bool
                | FieldType::String),
            ) => t,
            _ => {
                return Err(self.error_at(
                    key_span,
                    format!(
                        "invalid map key type `{}`: expected an integer type, bool or string",
                        key.text
                    ),
                ))
            }
        };
        self.expect_symbol(',', "after map key type")?;
        let value_start = self.current_start();
        let value = self.dotted_name("map value type", true)?;
        let value_span = self.span_from(value_start);
        self.expect_symbol('>', "after map value type")?;
        let value_type = match FieldType::from_keyword(&value.text) {
            Some(t) => TypeRef::Scalar(t),
            // protoc reads `group` as the group type, which a map value cannot be.
            None if value.text == "group" => {
                return Err(self.error_at(value_span, "a map value cannot be a group".into()))
            }
            None => TypeRef::Named(value.text),
        };
        Ok(TypeRef::Map {
            key: Box::new(TypeRef::Scalar(key_type)),
            key_span,
            value: Box::new(value_type),
            value_span,
        })
    }

    fn field_number(&mut self) -> PResult<(i64, Span)> {
        if let Some((n, span)) = self.peek_int() {
            self.pos += 1;
            return match n {
                Some(n) if n <= i64::MAX as u64 => Ok((n as i64, span)),
                _ => Err(self.error_at(span, "field number is out of range".into())),
            };
        }
        match self.peek() {
            Some(Token {
                kind: TokenKind::Symbol('-'),
                span,
            }) => {
                let span = *span;
                Err(self.error_at(span, "field numbers must be positive".into()))
            }
            _ => Err(self.expected("field number")),
        }
    }

    /// The items of a `{ ... }` block whose `{` was consumed, up to and including its `}`:
    /// empty statements are skipped when `empty_statements` (protoc allows none in `oneof`
    /// and `extend` blocks: there `;` is a field missing its type), and a failed item is
    /// recovered from at the next statement so one block can yield several errors. `what`
    /// names the block when `}` is missing.
    fn block_items(
        &mut self,
        what: &str,
        empty_statements: bool,
        mut item: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        loop {
            if self.is_symbol('}') {
                self.bump();
                return Ok(());
            }
            if self.peek().is_none() {
                return Err(self.expected(format_args!("`}}` to close the {what}")));
            }
            if self.is_symbol(';') {
                if !empty_statements {
                    // protoc: `Expected type name.` at the `;`.
                    let span = self.here();
                    let message = "expected a field, found `;` (a oneof or `extend` block has no empty statements)";
                    self.error_at(span, message.into());
                }
                self.bump();
                continue;
            }
            if item(self).is_err() {
                self.recover();
            }
        }
    }

    fn oneof(&mut self) -> PResult<OneofDecl> {
        let start = self.current_start();
        self.bump();
        let name = self.ident("oneof name")?;
        self.expect_symbol('{', format_args!("after oneof name `{}`", name.text))?;
        let mut fields = Vec::new();
        let mut options = Vec::new();
        self.block_items("oneof", false, |p| {
            if p.is_keyword("option") {
                p.option_statement().map(|o| options.push(o))
            } else {
                p.field(FieldContext::Oneof).map(|f| fields.push(f))
            }
        })?;
        Ok(OneofDecl {
            name,
            fields,
            options,
            span: self.span_from(start),
        })
    }

    fn extend(&mut self) -> PResult<ExtendDecl> {
        let start = self.current_start();
        self.bump();
        let extendee = self.message_type_name("extended message name")?;
        self.expect_symbol('{', "after extended message name")?;
        let mut fields = Vec::new();
        self.block_items("extend block", false, |p| {
            p.field(FieldContext::Extend).map(|f| fields.push(f))
        })?;
        Ok(ExtendDecl {
            extendee,
            fields,
            span: self.span_from(start),
        })
    }

    fn extensions(&mut self) -> PResult<ExtensionsDecl> {
        let start = self.current_start();
        self.bump();
        let ranges = self.ranges(FIELD_MAX)?;
        let options = self.compact_options()?;
        self.expect_symbol(';', "after extension ranges")?;
        Ok(ExtensionsDecl {
            ranges,
            options,
            span: self.span_from(start),
        })
    }

    fn reserved(&mut self, max: i64) -> PResult<ReservedDecl> {
        let start = self.current_start();
        self.bump();
        let mut ranges = Vec::new();
        let mut names = Vec::new();
        let is_name = |p: &Self| {
            matches!(
                p.peek(),
                Some(Token {
                    kind: TokenKind::Str | TokenKind::Ident,
                    ..
                })
            )
        };
        if is_name(self) {
            loop {
                if self.ident_at(0).is_some() {
                    if !self.editions {
                        let span = self.here();
                        return Err(self.error_at(
                            span,
                            "reserved names must be string literals before editions (write `\"name\"`)"
                                .into(),
                        ));
                    }
                    names.push(self.ident("reserved name")?);
                } else {
                    if self.editions {
                        let span = self.here();
                        return Err(self.error_at(
                            span,
                            "reserved names must be identifiers in editions (write the name without quotes)"
                                .into(),
                        ));
                    }
                    let (text, span) = self.string_literal("reserved name")?;
                    names.push(Name {
                        text: text.into(),
                        span,
                    });
                }
                if !self.is_symbol(',') {
                    break;
                }
                self.bump();
            }
        } else {
            ranges = self.ranges(max)?;
        }
        self.expect_symbol(';', "after reserved ranges or names")?;
        Ok(ReservedDecl {
            ranges,
            names,
            span: self.span_from(start),
        })
    }

    fn ranges(&mut self, max: i64) -> PResult<Vec<RangeDecl>> {
        let mut ranges = Vec::new();
        loop {
            let start_pos = self.current_start();
            let start = self.range_bound(max == ENUM_MAX)?;
            let (end, end_is_max) = if self.is_keyword("to") {
                self.bump();
                if self.is_keyword("max") {
                    self.bump();
                    (max, true)
                } else {
                    (self.range_bound(max == ENUM_MAX)?, false)
                }
            } else {
                (start, false)
            };
            ranges.push(RangeDecl {
                start,
                end,
                end_is_max,
                span: self.span_from(start_pos),
            });
            if !self.is_symbol(',') {
                return Ok(ranges);
            }
            self.bump();
        }
    }

    fn range_bound(&mut self, allow_negative: bool) -> PResult<i64> {
        let negative = allow_negative && self.is_symbol('-');
        if negative {
            self.bump();
        }
        match self.peek_int() {
            Some((n, span)) => {
                self.pos += 1;
                match n {
                    Some(n) if n <= i64::MAX as u64 => {
                        Ok(if negative { -(n as i64) } else { n as i64 })
                    }
                    _ => Err(self.error_at(span, "number is out of range".into())),
                }
            }
            None => Err(self.expected("a number in the range")),
        }
    }

    // ---- enums ----

    fn enum_decl(&mut self) -> PResult<EnumDecl> {
        let visibility = self.visibility.take();
        let start = self.current_start();
        self.bump();
        let name = self.ident("enum name")?;
        self.expect_symbol('{', format_args!("after enum name `{}`", name.text))?;
        let mut body = Vec::new();
        self.block_items("enum", true, |p| {
            let item = match p.ident_at(0) {
                // As in protoc, never a value named `option` or `reserved`.
                Some("option") => p.option_statement().map(EnumItem::Option),
                Some("reserved") => p.reserved(ENUM_MAX).map(EnumItem::Reserved),
                _ => p.enum_value().map(EnumItem::Value),
            };
            item.map(|item| body.push(item))
        })?;
        Ok(EnumDecl {
            name,
            body,
            span: self.span_from(start),
            visibility,
        })
    }

    fn enum_value(&mut self) -> PResult<EnumValueDecl> {
        let start = self.current_start();
        let name = self.ident("enum value name")?;
        self.expect_symbol('=', format_args!("after enum value name `{}`", name.text))?;
        let number_start = self.current_start();
        let negative = self.is_symbol('-');
        if negative {
            self.bump();
        }
        let number = match self.peek_int() {
            Some((n, span)) => {
                self.pos += 1;
                let value = n.map(|n| if negative { -(n as i128) } else { n as i128 });
                match value {
                    Some(v) if (i32::MIN as i128..=i32::MAX as i128).contains(&v) => v as i64,
                    _ => {
                        let span = Span {
                            start: number_start,
                            end: span.end,
                        };
                        return Err(self
                            .error_at(span, "enum value number is out of the int32 range".into()));
                    }
                }
            }
            _ => return Err(self.expected("enum value number")),
        };
        let number_span = self.span_from(number_start);
        let options = self.compact_options()?;
        self.expect_symbol(';', "after enum value")?;
        Ok(EnumValueDecl {
            name,
            number,
            number_span,
            options,
            span: self.span_from(start),
        })
    }

    // ---- services ----

    fn service(&mut self) -> PResult<ServiceDecl> {
        let start = self.current_start();
        self.bump();
        let name = self.ident("service name")?;
        self.expect_symbol('{', format_args!("after service name `{}`", name.text))?;
        let mut methods = Vec::new();
        let mut options = Vec::new();
        self.block_items("service", true, |p| match p.ident_at(0) {
            Some("option") => p.option_statement().map(|o| options.push(o)),
            Some("rpc") => p.method().map(|m| methods.push(m)),
            _ => Err(p.expected("`rpc` or `option` in service")),
        })?;
        Ok(ServiceDecl {
            name,
            methods,
            options,
            span: self.span_from(start),
        })
    }

    fn method(&mut self) -> PResult<MethodDecl> {
        let start = self.current_start();
        self.bump();
        let name = self.ident("method name")?;
        let (client_streaming, input) = self.method_type("input")?;
        self.expect_keyword("returns", "after method input type")?;
        let (server_streaming, output) = self.method_type("output")?;
        let mut options = Vec::new();
        if self.is_symbol('{') {
            self.bump();
            loop {
                if self.is_symbol('}') {
                    self.bump();
                    break;
                }
                if self.is_symbol(';') {
                    self.bump();
                    continue;
                }
                if self.is_keyword("option") {
                    match self.option_statement() {
                        Ok(o) => options.push(o),
                        Err(Failed) => self.recover(),
                    }
                } else {
                    return Err(self.expected("`option` or `}` in method body"));
                }
            }
        } else {
            self.expect_symbol(';', "or `{` after method output type")?;
        }
        Ok(MethodDecl {
            name,
            input,
            output,
            client_streaming,
            server_streaming,
            options,
            span: self.span_from(start),
        })
    }

    /// `( [stream] Type )`
    fn method_type(&mut self, which: &str) -> PResult<(Option<Span>, Name)> {
        self.expect_symbol('(', format_args!("before method {which} type"))?;
        // As in protoc, `stream` is always the keyword: `(stream)` names no type.
        let stream = if self.is_keyword("stream") {
            self.bump().map(|t| t.span)
        } else {
            None
        };
        let name = self.message_type_name(format_args!("method {which} type"))?;
        self.expect_symbol(')', format_args!("after method {which} type"))?;
        Ok((stream, name))
    }
}

/// The words protoc's parser takes as a whole field type (its type-name table, and `map`).
fn is_type_keyword(word: &str) -> bool {
    FieldType::from_keyword(word).is_some() || matches!(word, "group" | "map")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FieldContext {
    Message,
    Oneof,
    Extend,
}
