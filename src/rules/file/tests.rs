//! Behaviour tests for the file rules where buf's semantics are subtle. Expectations
//! were checked against buf 1.75.0.

use crate::rules::RuleId;
use crate::test_support::{messages, proto3, run_rule};

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
