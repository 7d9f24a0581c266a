//! Behaviour tests for the package rules where buf's semantics are subtle. Expectations
//! were checked against buf 1.75.0.

use crate::rules::RuleId;
use crate::test_support::run_rule;

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
