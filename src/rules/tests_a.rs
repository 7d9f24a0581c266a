//! Behaviour tests for the file, package, message, enum, service and extension rules where
//! buf's semantics are subtle. Expectations were checked against buf 1.75.0.

use super::util::run_rule;
use super::RuleId;

const HEADER: &str = "syntax = \"proto3\";\npackage p;\n";

fn proto3(body: &str) -> String {
    format!("{HEADER}{body}")
}

fn messages(findings: &[(String, String, String)]) -> Vec<&str> {
    findings.iter().map(|f| f.2.as_str()).collect()
}

#[test]
fn deleted_alias_needs_every_name_reserved() {
    let old = proto3("enum E {\n  option allow_alias = true;\n  E0 = 0;\n  A = 1;\n  B = 1;\n}\n");
    let partly = proto3("enum E {\n  E0 = 0;\n  reserved \"A\";\n}\n");
    let fully = proto3("enum E {\n  E0 = 0;\n  reserved \"A\", \"B\";\n}\n");
    let rule = RuleId::EnumValueNoDeleteUnlessNameReserved;
    let found = run_rule(rule, &[("a.proto", &old)], &[("a.proto", &partly)]);
    assert_eq!(
        messages(&found),
        [
            "Previously present enum value \"1\" on enum \"E\" was deleted without reserving \
          the names \"A\", \"B\"."
        ]
    );
    assert_eq!(found[0].1, "3:1-6:2");
    assert!(run_rule(rule, &[("a.proto", &old)], &[("a.proto", &fully)]).is_empty());
}

#[test]
fn deleted_value_with_reserved_number_is_fine_only_for_the_number_rule() {
    let old = proto3("enum E {\n  E0 = 0;\n  E1 = 1;\n}\n");
    let new = proto3("enum E {\n  E0 = 0;\n  reserved 1;\n}\n");
    let (old, new) = ([("a.proto", old.as_str())], [("a.proto", new.as_str())]);
    assert!(run_rule(RuleId::EnumValueNoDeleteUnlessNumberReserved, &old, &new).is_empty());
    assert_eq!(run_rule(RuleId::EnumValueNoDelete, &old, &new).len(), 1);
    let by_name = run_rule(RuleId::EnumValueNoDeleteUnlessNameReserved, &old, &new);
    assert_eq!(by_name.len(), 1);
}

#[test]
fn adding_an_alias_keeps_the_name_but_losing_one_is_reported_at_each_value() {
    let old = proto3("enum E {\n  option allow_alias = true;\n  E0 = 0;\n  A = 1;\n  B = 1;\n}\n");
    let added = proto3(
        "enum E {\n  option allow_alias = true;\n  E0 = 0;\n  A = 1;\n  B = 1;\n  C = 1;\n}\n",
    );
    let lost = proto3("enum E {\n  option allow_alias = true;\n  E0 = 0;\n  A = 1;\n  C = 1;\n}\n");
    let rule = RuleId::EnumValueSameName;
    assert!(run_rule(rule, &[("a.proto", &old)], &[("a.proto", &added)]).is_empty());
    let found = run_rule(rule, &[("a.proto", &old)], &[("a.proto", &lost)]);
    let spans: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(spans, ["6:7-6:8", "7:7-7:8"]);
    assert_eq!(
        found[0].2,
        "Enum value \"1\" on enum \"E\" changed names from \"A\", \"B\" to \"A\", \"C\"."
    );
}

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
fn package_rules_allow_moving_types_between_files_of_the_package() {
    let old = [(
        "a.proto",
        "syntax = \"proto3\";\npackage p;\nmessage M {}\nenum E { E0 = 0; }\n",
    )];
    let new = [
        ("a.proto", "syntax = \"proto3\";\npackage p;\n"),
        (
            "b.proto",
            "syntax = \"proto3\";\npackage p;\nmessage M {}\nenum E { E0 = 0; }\n",
        ),
    ];
    assert!(run_rule(RuleId::PackageMessageNoDelete, &old, &new).is_empty());
    assert!(run_rule(RuleId::PackageEnumNoDelete, &old, &new).is_empty());
    assert_eq!(run_rule(RuleId::MessageNoDelete, &old, &new).len(), 1);
}

#[test]
fn package_rules_skip_a_package_left_without_that_kind_of_element_like_buf() {
    let old = [(
        "a.proto",
        "syntax = \"proto3\";\npackage p;\nmessage M {}\nenum E { E0 = 0; }\n",
    )];
    let new = [(
        "a.proto",
        "syntax = \"proto3\";\npackage p;\nmessage M {}\n",
    )];
    assert!(run_rule(RuleId::PackageEnumNoDelete, &old, &new).is_empty());
    assert_eq!(run_rule(RuleId::EnumNoDelete, &old, &new).len(), 1);
}

#[test]
fn file_options_compare_effective_values() {
    let unset = proto3("");
    let explicit_default =
        proto3("option cc_enable_arenas = true;\noption optimize_for = SPEED;\n");
    let changed = proto3("option cc_enable_arenas = false;\n");
    let run = |rule: RuleId, old: &str, new: &str| {
        run_rule(rule, &[("a.proto", old)], &[("a.proto", new)])
    };
    assert!(run(RuleId::FileSameCcEnableArenas, &unset, &explicit_default).is_empty());
    assert!(run(RuleId::FileSameOptimizeFor, &unset, &explicit_default).is_empty());
    let found = run(RuleId::FileSameCcEnableArenas, &unset, &changed);
    assert_eq!(found[0].1, "3:1-3:33");
    // Removing the option points at the file, as buf has no location for an unset option.
    let found = run(RuleId::FileSameCcEnableArenas, &changed, &unset);
    assert_eq!(found[0].1, "1:1-1:1");
    assert_eq!(
        found[0].2,
        "File option \"cc_enable_arenas\" changed from \"false\" to \"true\"."
    );
}

#[test]
fn missing_syntax_is_proto2() {
    let implicit = [("a.proto", "package p;\n")];
    let explicit = [("a.proto", "syntax = \"proto2\";\npackage p;\n")];
    let proto3 = [("a.proto", "syntax = \"proto3\";\npackage p;\n")];
    assert!(run_rule(RuleId::FileSameSyntax, &implicit, &explicit).is_empty());
    let found = run_rule(RuleId::FileSameSyntax, &implicit, &proto3);
    assert_eq!(
        messages(&found),
        ["File syntax changed from \"proto2\" to \"proto3\"."]
    );
}

#[test]
fn removed_idempotency_level_points_at_the_file() {
    let old = proto3(
        "message M {}\nservice S {\n  rpc A(M) returns (M) {\n    option idempotency_level = NO_SIDE_EFFECTS;\n  }\n}\n",
    );
    let new = proto3("message M {}\nservice S {\n  rpc A(M) returns (M);\n}\n");
    let found = run_rule(
        RuleId::RpcSameIdempotencyLevel,
        &[("a.proto", &old)],
        &[("a.proto", &new)],
    );
    assert_eq!(found[0].1, "1:1-1:1");
    assert_eq!(
        found[0].2,
        "RPC \"A\" on service \"S\" changed option \"idempotency_level\" from \
         \"NO_SIDE_EFFECTS\" to \"IDEMPOTENCY_UNKNOWN\"."
    );
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
