//! Differential test of the lexer against the one it replaced (`legacy_lexer.rs`): on every
//! `.proto` file under `testdata/` and on hand-picked malformed inputs, both must give the
//! same tokens (kind, span and value), comments and errors.

use super::legacy_lexer as legacy;
use super::lexer::{self, TokenKind};

/// A token as the old lexer produced it, rebuilt from the new lexer's token and the text.
fn as_legacy(text: &str, token: &lexer::Token) -> legacy::Token {
    let kind = match token.kind {
        TokenKind::Ident => legacy::TokenKind::Ident,
        TokenKind::Int => legacy::TokenKind::Int(lexer::int_value(text, token)),
        TokenKind::Float => legacy::TokenKind::Float(lexer::float_value(text, token)),
        TokenKind::Str => {
            legacy::TokenKind::Str(lexer::string_value(text, token.span).into_owned())
        }
        TokenKind::Symbol(c) => legacy::TokenKind::Symbol(c),
    };
    legacy::Token {
        kind,
        span: token.span,
    }
}

fn assert_same(name: &str, text: &str) {
    let old = legacy::lex(text);
    let new = lexer::lex(text);
    let new_tokens: Vec<legacy::Token> = new.tokens.iter().map(|t| as_legacy(text, t)).collect();
    // Floats compare by bits so that a NaN equals itself.
    let key = |t: &legacy::Token| match &t.kind {
        legacy::TokenKind::Float(f) => (t.span, format!("float {}", f.to_bits())),
        other => (t.span, format!("{other:?}")),
    };
    let old_keys: Vec<_> = old.tokens.iter().map(key).collect();
    let new_keys: Vec<_> = new_tokens.iter().map(key).collect();
    assert_eq!(old_keys, new_keys, "tokens of {name}");
    assert_eq!(old.comments, new.comments, "comments of {name}");
    let old_errors: Vec<_> = old
        .errors
        .iter()
        .map(|e| (e.span, e.message.as_str()))
        .collect();
    let new_errors: Vec<_> = new
        .errors
        .iter()
        .map(|e| (e.span, e.message.as_str()))
        .collect();
    assert_eq!(old_errors, new_errors, "errors of {name}");
}

/// Every `.proto` file under `dir` (walkdir, as `source::fs` lists a tree).
fn proto_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .map(walkdir::DirEntry::into_path)
        .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "proto"))
        .collect()
}

#[test]
fn same_as_the_old_lexer_on_every_testdata_file() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let files = proto_files(&root);
    assert!(
        files.len() > 1000,
        "testdata has {} .proto files",
        files.len()
    );
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert_same(&path.display().to_string(), &text);
    }
}

#[test]
fn same_as_the_old_lexer_on_malformed_input() {
    let cases = [
        "",
        "\u{feff}",
        "\u{feff}syntax",
        "\"abc",
        "'abc\n'",
        "/* x",
        "/*",
        "/**/",
        "//",
        "//\r",
        "// a\r\nb",
        "a//\r",
        "0x",
        "0X1F",
        "0x1g",
        "1e",
        "1e+",
        "1e+5",
        "1E-5x",
        "0x1e+5",
        "1.2.3",
        ".5",
        ". 5",
        "5.",
        "09",
        "07",
        "0",
        "00",
        "018446744073709551616",
        "18446744073709551616",
        "0xFFFFFFFFFFFFFFFFF",
        "1_000",
        "12abc",
        "é",
        "aé b",
        "'\\",
        "'\\u12'",
        "'\\U0010FFFF'",
        "'\\U00110000'",
        "'\\uD800'",
        "'\\x'",
        "'\\x4'",
        "'\\x41'",
        "'\\X41'",
        "'\\777'",
        "'\\400'",
        "'\\0'",
        "'\\08'",
        "'\\q'",
        "'\\é'",
        "'\\\n'",
        "\"\\\"\"",
        "\"a\" 'b' \"c\\\"d\"",
        "\"\"",
        "''",
        "\"'\"",
        "'\"'",
        "/",
        "/ /",
        "a/b",
        "a.b",
        "a..b",
        "inf -inf nan",
        "\u{0}\u{7f}\u{1}",
        "{[(<>)]};=,:-+",
        "\t\u{b}\u{c}\r\n",
        "x\"unterminated\nnext",
        "'tab\tinside'",
        "\"é\\n\"",
        "1.e5",
        "1e5.5",
        "0.0e-0",
        "-0",
        "+1",
    ];
    for text in cases {
        assert_same(&format!("{text:?}"), text);
    }
}

/// `PROTO_DIR=… cargo test --release --lib lexer_differential -- --ignored`: the same
/// comparison on a large tree (googleapis as `scripts/bench.sh googleapis-dir` exports it).
#[test]
#[ignore = "needs a large tree of .proto files (PROTO_DIR, default the bench's googleapis export)"]
fn same_as_the_old_lexer_on_a_large_tree() {
    let dir = std::env::var("PROTO_DIR")
        .unwrap_or_else(|_| "/tmp/protocompat-bench/googleapis".to_string());
    let files = proto_files(std::path::Path::new(&dir));
    assert!(!files.is_empty(), "no .proto files under {dir}");
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        assert_same(
            &path.display().to_string(),
            &String::from_utf8_lossy(&bytes),
        );
    }
}

/// Random texts over the bytes that matter to the lexer (every token start, escapes, line
/// ends, a non-ASCII letter), long enough to cross the eight-byte scans: the same result as
/// the old lexer. `PROPTEST_CASES` runs more (the default is quick).
mod random {
    use proptest::prelude::*;

    /// Pieces whose concatenations reach every branch of both lexers.
    const PIECES: &[&str] = &[
        " ",
        "        ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\u{b}",
        "\u{c}",
        "a",
        "Z",
        "_",
        "abcdefgh",
        "message",
        "0",
        "1",
        "9",
        "07",
        "09",
        "0x",
        "0X1f",
        "e",
        "E",
        "+",
        "-",
        ".",
        "..",
        "/",
        "//",
        "/*",
        "*",
        "*/",
        "\"",
        "'",
        "\\",
        "\\n",
        "\\x4",
        "\\u00e9",
        "\\U0010FFFF",
        "\\777",
        "\\q",
        "é",
        "\u{feff}",
        "{",
        "}",
        ";",
        "=",
        "[",
        "]",
        "(",
        ")",
        "<",
        ">",
        ",",
        "\u{0}",
        "\u{7f}",
    ];

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(PIECES), 0..64).prop_map(|p| p.concat())
    }

    fn config() -> ProptestConfig {
        ProptestConfig {
            cases: std::env::var("PROPTEST_CASES")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(2000),
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn same_as_the_old_lexer_on_random_text(text in text()) {
            super::assert_same(&format!("{text:?}"), &text);
        }
    }
}
