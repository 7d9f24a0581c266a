//! Changes listed from two in-memory schemas (no findings: the class each change has on its
//! own); the CLI tests cover findings, formats and verdicts end to end.

use super::*;
use crate::engine::Build;
use crate::test_support::build_test_schema;

fn lines(old: &str, new: &str) -> Vec<String> {
    let build = |text: &str| Build {
        schema: build_test_schema(&[("a.proto", text)]),
        imports: Default::default(),
    };
    let module = Compared {
        old: build(old),
        new: build(new),
        old_external: Default::default(),
        new_external: Default::default(),
    };
    review(&[module], &[])
        .changes
        .iter()
        .map(|c| {
            format!(
                "{}:{} {} {} {} {}: {}",
                c.path,
                c.start_line,
                c.class.name(),
                c.kind.name(),
                c.element_kind,
                c.element,
                c.description
            )
        })
        .collect()
}

#[test]
fn doc_comments_leading_and_trailing() {
    let old = "syntax = \"proto3\";\npackage p.v1;\n// Old doc.\nmessage M {\n  int32 a = 1; // trailing\n  int32 b = 2;\n}\n";
    let new = "syntax = \"proto3\";\npackage p.v1;\n// New doc.\nmessage M {\n  int32 a = 1; // trailing\n  int32 b = 2;\n}\n";
    assert_eq!(
        lines(old, new),
        ["a.proto:4 patch changed comment p.v1.M: doc comment changed"]
    );
}

#[test]
fn a_trailing_comment_is_not_the_next_fields_doc() {
    let old = "syntax = \"proto3\";\nmessage M {\n  int32 a = 1; // about a\n  int32 b = 2;\n}\n";
    let new = "syntax = \"proto3\";\nmessage M {\n  int32 a = 1; // about a, changed\n  int32 b = 2;\n}\n";
    assert_eq!(
        lines(old, new),
        ["a.proto:3 patch changed comment M.a: doc comment changed"]
    );
}

#[test]
fn members_options_and_reservations() {
    let old = "syntax = \"proto3\";\npackage p.v1;\nmessage M {\n  int32 a = 1;\n  int32 b = 2;\n}\nenum E {\n  E_UNSPECIFIED = 0;\n}\n";
    let new = "syntax = \"proto3\";\npackage p.v1;\nmessage M {\n  reserved 2;\n  int64 a = 1 [deprecated = true];\n  string c = 3;\n}\nenum E {\n  E_UNSPECIFIED = 0;\n  E_ONE = 1;\n}\n";
    assert_eq!(
        lines(old, new),
        [
            "a.proto:4 patch changed reservation p.v1.M: reserved 2 added",
            "a.proto:5 minor changed field p.v1.M.a: type `int32` → `int64`",
            "a.proto:5 minor changed option p.v1.M.a: option `deprecated` set to `true`",
            // A removal's line is on the old side.
            "a.proto:5 minor removed field p.v1.M.b: field `b` = 2 (int32) deleted",
            "a.proto:6 minor added field p.v1.M.c: new field `c` = 3 (string)",
            "a.proto:10 minor added enum_value p.v1.E.E_ONE: new value `E_ONE` = 1",
        ]
    );
}

#[test]
fn formatting_only_and_nothing() {
    let old = "syntax = \"proto3\";\nmessage M { int32 a = 1; }\n";
    let new = "syntax = \"proto3\";\n\nmessage M {\n  int32 a = 1;\n}\n";
    assert_eq!(
        lines(old, new),
        ["a.proto:1 patch changed file a.proto: text changed, no element did (formatting or comments)"]
    );
    assert!(lines(old, old).is_empty());
}

#[test]
fn unstable_packages() {
    for p in ["a.v1beta1", "a.v1alpha", "a.v2test", "a.v0", "a.v0alpha1"] {
        assert!(is_unstable(p), "{p}");
    }
    for p in ["a.v1", "v0", "a.v01", "a.b", ""] {
        assert!(!is_unstable(p), "{p}");
    }
}
