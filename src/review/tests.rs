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
    let diff = Diff::new(&module.old.schema, &module.new.schema);
    let changes = changes(&diff, &module);
    review(changes, std::slice::from_ref(&module), &[])
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
            "a.proto:6 minor added field p.v1.M.c: new field `c` = 3 (string)",
            "a.proto:10 minor added enum_value p.v1.E.E_ONE: new value `E_ONE` = 1",
            // A removal's line is on the old side: removals come after the new side's lines.
            "a.proto:5 minor removed field p.v1.M.b: field `b` = 2 (int32) deleted",
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

#[test]
fn renames_are_one_change_each() {
    let old = "syntax = \"proto3\";\npackage p.v1;\nmessage Order {\n  int32 qty = 1;\n  message Line { int32 n = 1; }\n}\nenum Color {\n  COLOR_UNSPECIFIED = 0;\n  COLOR_RED = 1;\n}\nservice Old {\n  rpc Ping(Order) returns (Order);\n}\nservice Shop {\n  rpc Get(Order) returns (Order);\n}\n";
    let new = "syntax = \"proto3\";\npackage p.v1;\nmessage Purchase {\n  int32 quantity = 1;\n  message Line { int32 n = 1; }\n}\nenum Hue {\n  COLOR_UNSPECIFIED = 0;\n  COLOR_RED = 1;\n}\nservice New {\n  rpc Ping(Purchase) returns (Purchase);\n}\nservice Shop {\n  rpc Fetch(Purchase) returns (Purchase);\n}\n";
    // Field names are not part of a message's contents; rpc types follow the renamed message
    // (the signatures differ, so the services and the rpc do not match by shape).
    assert_eq!(
        lines(old, new),
        [
            "a.proto:3 minor renamed message p.v1.Purchase: renamed from `p.v1.Order` (same 1 field)",
            "a.proto:5 minor renamed message p.v1.Purchase.Line: renamed from `p.v1.Order.Line` (same 1 field)",
            "a.proto:7 minor renamed enum p.v1.Hue: renamed from `p.v1.Color` (same 2 values)",
            "a.proto:11 minor added service p.v1.New: new service (1 rpc)",
            "a.proto:15 minor added rpc p.v1.Shop.Fetch: new rpc `Fetch(p.v1.Purchase) returns (p.v1.Purchase)`",
            "a.proto:11 minor removed service p.v1.Old: service deleted (1 rpc)",
            "a.proto:15 minor removed rpc p.v1.Shop.Get: rpc `Get(p.v1.Order) returns (p.v1.Order)` deleted",
        ]
    );
}

#[test]
fn services_rpcs_fields_and_values_renamed() {
    let old = "syntax = \"proto3\";\npackage p.v1;\nmessage M {\n  int32 count = 1;\n}\nenum E {\n  E_UNSPECIFIED = 0;\n  E_RED = 1;\n}\nservice Old {\n  rpc Ping(M) returns (M);\n}\nservice Shop {\n  rpc Get(M) returns (M);\n}\n";
    let new = "syntax = \"proto3\";\npackage p.v1;\nmessage M {\n  int32 total = 1;\n}\nenum E {\n  E_UNSPECIFIED = 0;\n  E_CRIMSON = 1;\n}\nservice New {\n  rpc Ping(M) returns (M);\n}\nservice Shop {\n  rpc Fetch(M) returns (M);\n}\n";
    assert_eq!(
        lines(old, new),
        [
            "a.proto:4 minor renamed field p.v1.M.total: name `count` → `total`; json_name `count` → `total`",
            "a.proto:8 minor renamed enum_value p.v1.E.E_CRIMSON: name `E_RED` → `E_CRIMSON`",
            "a.proto:10 minor renamed service p.v1.New: renamed from `p.v1.Old` (same 1 rpc)",
            "a.proto:14 minor renamed rpc p.v1.Shop.Fetch: renamed from `Get` (same signature `(p.v1.M) returns (p.v1.M)`)",
        ]
    );
}

#[test]
fn an_ambiguous_rpc_or_a_changed_message_is_no_rename() {
    // Two rpcs of one signature removed and two added: which became which is a guess.
    let old = "syntax = \"proto3\";\npackage p.v1;\nmessage M {\n  int32 a = 1;\n}\nmessage Old {\n  int32 a = 1;\n}\nservice S {\n  rpc A(M) returns (M);\n  rpc B(M) returns (M);\n}\n";
    let new = "syntax = \"proto3\";\npackage p.v1;\nmessage M {\n  int32 a = 1;\n}\nmessage New {\n  int64 a = 1;\n}\nservice S {\n  rpc C(M) returns (M);\n  rpc D(M) returns (M);\n}\n";
    assert_eq!(
        lines(old, new),
        [
            "a.proto:6 minor added message p.v1.New: new message (1 field)",
            "a.proto:10 minor added rpc p.v1.S.C: new rpc `C(p.v1.M) returns (p.v1.M)`",
            "a.proto:11 minor added rpc p.v1.S.D: new rpc `D(p.v1.M) returns (p.v1.M)`",
            "a.proto:6 minor removed message p.v1.Old: message deleted (1 field)",
            "a.proto:10 minor removed rpc p.v1.S.A: rpc `A(p.v1.M) returns (p.v1.M)` deleted",
            "a.proto:11 minor removed rpc p.v1.S.B: rpc `B(p.v1.M) returns (p.v1.M)` deleted",
        ]
    );
}

/// Option values compare as values: `1.0` and `1`, `0x10` and `16`, `"a" "b"` and `"ab"`,
/// a literal laid out again (delimiters, separators, comments, field order) are no change;
/// a real change of a number, a string or a literal's field still is.
#[test]
fn option_values_compare_as_values() {
    let schema = |options: &str| {
        format!(
            "syntax = \"proto2\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\n\
             message O {{ optional int32 a = 1; repeated string s = 2; optional O o = 3; }}\n\
             extend google.protobuf.MessageOptions {{\n  optional double d = 50001;\n  optional uint32 u = 50002;\n  optional string str = 50003;\n  optional O lit = 50004;\n}}\n\
             message M {{\n{options}\n}}\n"
        )
    };
    let old = schema(
        "  option (d) = 1.0;\n  option (u) = 0x10;\n  option (str) = \"a\" \"b\";\n  option (lit) = { a: 1 s: [\"x\", \"y\"] o { a: 2 } };",
    );
    let same = schema(
        "  option (d) = 1;\n  option (u) = 16;\n  option (str) = \"ab\";\n  option (lit) = { o < a: 2 >; s: \"x\" # why\n s: \"y\", a: 1 };",
    );
    assert_eq!(
        lines(&old, &same),
        ["a.proto:1 patch changed file a.proto: text changed, no element did (formatting or comments)"]
    );
    let changed = schema(
        "  option (d) = 1.5;\n  option (u) = 17;\n  option (str) = \"ab\";\n  option (lit) = { a: 1 s: [\"y\", \"x\"] o { a: 2 } };",
    );
    assert_eq!(
        lines(&old, &changed),
        [
            "a.proto:12 patch changed option p.M: option `(d)` `1` → `1.5`",
            "a.proto:13 patch changed option p.M: option `(u)` `16` → `17`",
            "a.proto:15 patch changed option p.M: option `(lit)` `{ a: 1 s: [\"x\", \"y\"] o { a: 2 } }` → `{ a: 1 s: [\"y\", \"x\"] o { a: 2 } }`",
        ]
    );
}

/// Option values compare typed when the build resolved them: an enum value by number or by
/// name (inside a literal), or by an alias (at top level), is one value; a value whose
/// field changed type is a change, even written the same.
#[test]
fn option_values_compare_typed() {
    let schema = |types: &str, options: &str| {
        format!(
            "syntax = \"proto2\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\n\
             enum K {{ option allow_alias = true; K_A = 0; K_B = 2; K_BEE = 2; }}\n\
             message O {{ optional K k = 1; }}\n\
             extend google.protobuf.MessageOptions {{\n  optional O lit = 50001;\n  optional K ke = 50002;\n{types}\n}}\n\
             message M {{\n{options}\n}}\n"
        )
    };
    let types = "  optional int32 n = 50003;\n  optional float f = 50004;";
    let old = schema(
        types,
        "  option (lit) = { k: 2 };\n  option (ke) = K_B;\n  option (n) = 1;\n  option (f) = 1;",
    );
    let same = schema(
        types,
        "  option (lit) = { k: K_B };\n  option (ke) = K_BEE;\n  option (n) = 1;\n  option (f) = 1.0;",
    );
    assert_eq!(
        lines(&old, &same),
        ["a.proto:1 patch changed file a.proto: text changed, no element did (formatting or comments)"]
    );
    let changed = schema(
        "  optional double n = 50003;\n  optional string f = 50004;",
        "  option (lit) = { k: K_A };\n  option (ke) = K_BEE;\n  option (n) = 1.0;\n  option (f) = \"1\";",
    );
    assert_eq!(
        lines(&old, &changed),
        [
            "a.proto:9 minor changed extension p.n: type `int32` → `double`",
            "a.proto:10 minor changed extension p.f: type `float` → `string`",
            "a.proto:13 patch changed option p.M: option `(lit)` `{ k: 2 }` → `{ k: K_A }`",
            "a.proto:15 patch changed option p.M: option `(n)` `1` → `1`",
            "a.proto:16 patch changed option p.M: option `(f)` `1` → `\"1\"`",
        ]
    );
}
