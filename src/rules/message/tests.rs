//! Behaviour tests for the message rules where buf's semantics are subtle. Expectations
//! were checked against buf 1.75.0.

use crate::rules::RuleId;
use crate::test_support::{messages, proto3, run_rule};

#[test]
fn reserved_range_may_be_split_but_not_shrunk() {
    let old = proto3("message M {\n  reserved 1 to 10, 20 to max;\n}\n");
    let split = proto3("message M {\n  reserved 1 to 4, 5, 6 to 10, 20 to 100, 101 to max;\n}\n");
    let shrunk = proto3("message M {\n  reserved 1 to 4, 6 to 10, 20 to 100;\n}\n");
    let rule = RuleId::ReservedMessageNoDelete;
    assert!(run_rule(rule, &[("a.proto", &old)], &[("a.proto", &split)]).is_empty());
    let found = run_rule(rule, &[("a.proto", &old)], &[("a.proto", &shrunk)]);
    assert_eq!(
        messages(&found),
        [
            "Previously present reserved range \"[1,10]\" on message \"M\" is missing values: \
             [5] were removed.",
            "Previously present reserved range \"[20,max]\" on message \"M\" is missing values: \
             [101,max] were removed.",
        ]
    );
}

#[test]
fn deleted_nested_types_point_at_the_closest_surviving_parent() {
    let old = proto3("message A {\n  message B {\n    message C {}\n    enum E { E0 = 0; }\n  }\n}\nmessage Gone {}\n");
    let new = proto3("message A {\n}\n");
    let found = run_rule(
        RuleId::MessageNoDelete,
        &[("a.proto", &old)],
        &[("a.proto", &new)],
    );
    let got: Vec<(&str, &str)> = found.iter().map(|f| (f.1.as_str(), f.2.as_str())).collect();
    assert_eq!(
        got,
        [
            (
                "1:1-1:1",
                "Previously present message \"Gone\" was deleted from file."
            ),
            (
                "3:1-4:2",
                "Previously present message \"A.B\" was deleted from file."
            ),
            (
                "3:1-4:2",
                "Previously present message \"A.B.C\" was deleted from file."
            ),
        ]
    );
    let found = run_rule(
        RuleId::EnumNoDelete,
        &[("a.proto", &old)],
        &[("a.proto", &new)],
    );
    assert_eq!(found[0].1, "3:1-4:2");
}

#[test]
fn legacy_required_in_editions_is_not_a_required_label_for_buf() {
    let old = "edition = \"2023\";\npackage p;\nmessage M {\n  string a = 1;\n}\n";
    let new = "edition = \"2023\";\npackage p;\nmessage M {\n  string a = 1 [features.field_presence = LEGACY_REQUIRED];\n}\n";
    let rule = RuleId::MessageSameRequiredFields;
    assert!(run_rule(rule, &[("a.proto", old)], &[("a.proto", new)]).is_empty());
    let proto2 = "syntax = \"proto2\";\npackage p;\nmessage M {\n  required string a = 1;\n}\n";
    let found = run_rule(rule, &[("a.proto", proto2)], &[("a.proto", new)]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "3:1-5:2");
}
