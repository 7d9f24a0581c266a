//! What a file declares before its types: its package and the paths it imports, read from
//! the tokens at the top level (comments, strings and braces are the lexer's), without
//! parsing the file. The narrowed build (`super::narrow`) needs them for every file of both
//! sides, to know which files a change can reach, and reads most of them from the cache.
//!
//! For a file that parses without error this is exactly what the parser gives (the first
//! `package` statement's name, the `import` statements' paths in order): a differential test
//! holds it to that. For a file with errors it may differ, which is harmless: such a file
//! never builds clean, so it is always built, and its build fails.

use serde::{Deserialize, Serialize};

use crate::parse::lexer::{self, Token, TokenKind};

/// A file's package and imports, as its `package` and `import` statements write them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Empty when the file declares no package.
    pub package: String,
    /// The imported paths, in the order written (public, weak and option imports alike).
    pub imports: Vec<String>,
    /// The text holds an ignore directive (`protocompat:`): its warnings must be produced
    /// even when nothing in the file changed, so the file is built.
    pub directives: bool,
}

/// The header of a file's text.
pub fn scan(text: &str) -> Header {
    let tokens = lexer::lex(text).tokens;
    let mut header = Header {
        directives: memchr::memmem::find(text.as_bytes(), b"protocompat:").is_some(),
        ..Header::default()
    };
    let mut package_seen = false;
    let mut depth = 0usize;
    let mut at_start = true;
    let mut i = 0;
    while i < tokens.len() {
        let token = tokens[i];
        if depth == 0 && at_start && token.kind == TokenKind::Ident {
            match &text[token.span.range()] {
                "package" if !package_seen => {
                    package_seen = true;
                    header.package = dotted_name(text, &tokens[i + 1..]);
                }
                "import" => {
                    if let Some(path) = import_path(text, &tokens[i + 1..]) {
                        header.imports.push(path);
                    }
                }
                _ => {}
            }
        }
        at_start = false;
        match token.kind {
            TokenKind::Symbol('{') => depth += 1,
            TokenKind::Symbol('}') => {
                depth = depth.saturating_sub(1);
                at_start = depth == 0;
            }
            TokenKind::Symbol(';') => at_start = depth == 0,
            _ => {}
        }
        i += 1;
    }
    header
}

/// The name after `package`: identifiers joined by dots.
fn dotted_name(text: &str, tokens: &[Token]) -> String {
    let mut name = String::new();
    for (n, token) in tokens.iter().enumerate() {
        let is_dot = token.kind == TokenKind::Symbol('.');
        let wanted = if n % 2 == 0 {
            token.kind == TokenKind::Ident
        } else {
            is_dot
        };
        if !wanted {
            break;
        }
        name.push_str(&text[token.span.range()]);
    }
    name
}

/// The path after `import` (and `public`, `weak` or `option`): adjacent literals joined.
fn import_path(text: &str, tokens: &[Token]) -> Option<String> {
    let mut rest = tokens;
    if let Some(first) = rest.first() {
        let modifier = first.kind == TokenKind::Ident
            && matches!(&text[first.span.range()], "public" | "weak" | "option");
        if modifier {
            rest = &rest[1..];
        }
    }
    let mut bytes = Vec::new();
    let mut any = false;
    for token in rest.iter().take_while(|t| t.kind == TokenKind::Str) {
        bytes.extend_from_slice(&lexer::string_value(text, token.span));
        any = true;
    }
    any.then(|| {
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    })
}

/// The header the parser's tree gives: what [`scan`] must agree with on a file that parses.
pub fn of_tree(text: &str, ast: &crate::syntax::ast::FileAst) -> Header {
    use crate::syntax::ast::TopItem;
    let mut header = Header {
        directives: memchr::memmem::find(text.as_bytes(), b"protocompat:").is_some(),
        ..Header::default()
    };
    let mut package_seen = false;
    for item in &ast.items {
        match item {
            TopItem::Package(p) if !package_seen => {
                package_seen = true;
                header.package = p.name.text.to_string();
            }
            TopItem::Import(import) => header.imports.push(import.path.clone()),
            _ => {}
        }
    }
    header
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_package_and_imports_at_the_top_level_only() {
        let text = "// import \"no.proto\";\nsyntax = \"proto3\";\npackage a . b;\n\
                    import public \"x/\" \"y.proto\";\nimport weak 'z.proto';\n\
                    option (o) = { import: 1 package: 2 };\n\
                    message M { import x = 1; message package {} }\n\
                    /* package c; */ import \"last.proto\";\npackage again;\n";
        let header = scan(text);
        assert_eq!(header.package, "a.b");
        assert_eq!(header.imports, ["x/y.proto", "z.proto", "last.proto"]);
        assert!(!header.directives);
        let parsed = crate::parse::parse(text);
        assert_eq!(of_tree(text, &parsed.ast).imports, header.imports);
    }

    #[test]
    fn notes_directives() {
        let text = "syntax = \"proto3\";\n// protocompat:ignore FIELD_NO_DELETE -- why\n";
        assert!(scan(text).directives);
    }

    /// The scan gives the parser's package and imports for every file of the corpora that
    /// parses without error.
    #[test]
    fn agrees_with_the_parser_on_the_corpora() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let mut compared = 0;
        for entry in walkdir::WalkDir::new(&root).into_iter().flatten() {
            if entry.path().extension().is_none_or(|e| e != "proto") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let parsed = crate::parse::parse(&text);
            if !parsed.errors.is_empty() {
                continue;
            }
            assert_eq!(
                scan(&text),
                of_tree(&text, &parsed.ast),
                "{}",
                entry.path().display()
            );
            compared += 1;
        }
        assert!(compared > 500, "only {compared} files compared");
    }
}
