//! Behaviour tests for the enum and enum value rules where buf's semantics are subtle. Expectations
//! were checked against buf 1.75.0.

use crate::rules::RuleId;
use crate::test_support::{messages, proto3, run_rule};

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
