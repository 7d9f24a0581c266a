//! Directive parsing and attachment on in-memory schemas.

use super::*;
use crate::test_support::build_test_schema;

fn schema(text: &str) -> Schema {
    build_test_schema(&[("a.proto", text)])
}

/// A finding of `rule` located at the first occurrence of `at` in the file.
fn finding_at(schema: &Schema, rule: &'static str, at: &str) -> Finding {
    let file = &schema.files["a.proto"];
    let start = file.text.find(at).expect("anchor in text");
    let span = Span::new(start, start + at.len());
    Finding {
        rule,
        location: Some(Location::in_file(file, Some(span))),
        previous: None,
        message: String::new(),
        help: None,
        edits: Default::default(),
        focus: None,
        group: None,
        direction: crate::rules::Direction::Both,
        severity: None,
    }
}

fn run(
    text: &str,
    findings: &[(&'static str, &str)],
) -> (Vec<&'static str>, Vec<String>, Vec<String>) {
    let schema = schema(text);
    let all = findings
        .iter()
        .map(|(rule, at)| finding_at(&schema, rule, at))
        .collect();
    let applied = apply(&schema, all, "v2", &|p| p.to_string());
    let ignored = applied.ignored.iter().map(|i| i.reason.clone()).collect();
    let warnings = applied.warnings.iter().map(|w| w.to_string()).collect();
    (
        applied.kept.iter().map(|f| f.rule).collect(),
        ignored,
        warnings,
    )
}

const HEAD: &str = "syntax = \"proto3\";\npackage p;\n";

#[test]
fn an_element_directive_covers_the_element_and_its_children() {
    let text = format!(
        "{HEAD}// Orders.\n// protocompat:ignore FIELD_SAME_TYPE, FIELD_NO_DELETE -- v2 clients are gone\nmessage M {{\n  int64 id = 1;\n}}\nmessage Other {{\n  int64 x = 1;\n}}\n"
    );
    let (kept, ignored, warnings) = run(
        &text,
        &[
            ("FIELD_SAME_TYPE", "int64 id"),
            ("FIELD_NO_DELETE", "message M {\n  int64 id = 1;\n}"),
            ("FIELD_SAME_TYPE", "int64 x"),
            ("FIELD_SAME_NAME", "id"),
        ],
    );
    assert_eq!(kept, ["FIELD_SAME_TYPE", "FIELD_SAME_NAME"]);
    assert_eq!(ignored, ["v2 clients are gone", "v2 clients are gone"]);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn a_file_directive_covers_the_file_and_categories_are_accepted() {
    let text = format!(
        "{HEAD}/* protocompat:ignore-file WIRE_JSON -- generated, never on the wire */\nmessage M {{\n  int64 id = 1;\n}}\n"
    );
    let (kept, ignored, warnings) = run(
        &text,
        &[
            ("FIELD_WIRE_JSON_COMPATIBLE_TYPE", "int64 id"),
            ("FILE_SAME_GO_PACKAGE", "package p;"),
        ],
    );
    assert_eq!(kept, ["FILE_SAME_GO_PACKAGE"]);
    assert_eq!(ignored, ["generated, never on the wire"]);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn a_directive_without_reason_is_not_honoured() {
    let text =
        format!("{HEAD}// protocompat:ignore FIELD_SAME_TYPE\nmessage M {{\n  int64 id = 1;\n}}\n");
    let (kept, _, warnings) = run(&text, &[("FIELD_SAME_TYPE", "int64 id")]);
    assert_eq!(kept, ["FIELD_SAME_TYPE"]);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("needs a reason"), "{warnings:?}");
}

#[test]
fn unknown_ids_and_unused_ids_are_warnings() {
    let text = format!(
        "{HEAD}// protocompat:ignore FIELD_SAME_TYPE, NO_SUCH_RULE, FIELD_SAME_NAME -- why\nmessage M {{\n  int64 id = 1;\n}}\n"
    );
    let (kept, ignored, warnings) = run(&text, &[("FIELD_SAME_TYPE", "int64 id")]);
    assert!(kept.is_empty());
    assert_eq!(ignored.len(), 1);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("unknown rule id or category `NO_SUCH_RULE`"));
    assert!(warnings[1].contains("FIELD_SAME_NAME` silences nothing"));
}

#[test]
fn detached_or_trailing_directives_are_warnings() {
    let text = format!(
        "{HEAD}// protocompat:ignore FIELD_SAME_TYPE -- why\n\nmessage M {{\n  int64 id = 1; // protocompat:ignore FIELD_SAME_TYPE -- why\n}}\n"
    );
    let (kept, _, warnings) = run(&text, &[("FIELD_SAME_TYPE", "int64 id")]);
    assert_eq!(kept, ["FIELD_SAME_TYPE"]);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("blank line"));
    assert!(warnings[1].contains("follows code"));
}

#[test]
fn a_directive_on_a_field_covers_only_that_field() {
    let text = format!(
        "{HEAD}message M {{\n  // protocompat:ignore FIELD_SAME_TYPE -- why\n  int64 a = 1;\n  int64 b = 2;\n}}\n"
    );
    let (kept, ignored, _) = run(
        &text,
        &[
            ("FIELD_SAME_TYPE", "int64 a"),
            ("FIELD_SAME_TYPE", "int64 b"),
        ],
    );
    assert_eq!(kept, ["FIELD_SAME_TYPE"]);
    assert_eq!(ignored, ["why"]);
}

#[test]
fn warnings_about_an_id_point_at_the_id() {
    let text = format!(
        "{HEAD}// protocompat:ignore FIELD_SAME_TYPE, FIELD_SAME_TYPO -- why\nmessage M {{\n  int64 id = 1;\n}}\n"
    );
    let schema = schema(&text);
    let applied = apply(&schema, Vec::new(), "v2", &|p| p.to_string());
    let spans: Vec<&str> = applied
        .warnings
        .iter()
        .flat_map(|w| w.labels().into_iter().flatten())
        .map(|l| &text[l.offset()..l.offset() + l.len()])
        .collect();
    // The unknown id, then the unused one.
    assert_eq!(spans, ["FIELD_SAME_TYPO", "FIELD_SAME_TYPE"]);
}
