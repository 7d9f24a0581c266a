//! `--fix` edits on in-memory schemas: the text after applying them, exactly.

use super::*;
use crate::model::Schema;
use crate::rules;
use crate::test_support::build_test_schema;

fn schema(text: &str) -> Schema {
    build_test_schema(&[("a.proto", text)])
}

/// The new text after fixing the findings of `rule_ids` between `old` and `new`.
fn fixed_with(rule_ids: &[&str], old: &str, new: &str) -> String {
    let (old_schema, new_schema) = (schema(old), schema(new));
    let selected: Vec<&'static rules::RuleMeta> = rule_ids
        .iter()
        .map(|id| rules::find(id).expect("known rule"))
        .collect();
    let diff = Diff::new(&old_schema, &new_schema);
    let mut findings = run(&diff, &selected);
    attach_edits(&diff, &mut findings, &str::to_string);
    let edits: Vec<&Edit> = findings.iter().flat_map(|f| f.edits.iter()).collect();
    apply_edits(new, &edits).expect("edits apply")
}

/// The findings of `rules` over `diff`, in report order (as the engine runs them; the
/// engine comes after the passes, so this test does not call it).
fn run(diff: &Diff, rules: &[&'static rules::RuleMeta]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for rule in rules {
        if let Some(check) = rule.check {
            check(diff, &mut crate::finding::Sink::new(rule.id, &mut findings));
        }
    }
    findings.sort_by_cached_key(Finding::sort_key);
    findings
}

fn fixed(old: &str, new: &str) -> String {
    fixed_with(
        &[
            rules::RuleId::FieldNoDelete.as_str(),
            rules::RuleId::EnumValueNoDelete.as_str(),
        ],
        old,
        new,
    )
}

const P3: &str = "syntax = \"proto3\";\npackage p;\n";

fn p3(body: &str) -> String {
    format!("{P3}{body}")
}

#[test]
fn new_statements_at_the_top_of_the_body() {
    let old = p3("message M {\n  // the id\n  string id = 1;\n  int32 a = 2;\n  int32 b = 3;\n}\n");
    let new = p3("message M {\n  // the id\n  string id = 1;\n}\n");
    assert_eq!(
        fixed(&old, &new),
        p3("message M {\n  reserved 2 to 3;\n  reserved \"a\", \"b\";\n  // the id\n  string id = 1;\n}\n")
    );
}

#[test]
fn merged_into_existing_sorted_statements() {
    let old = p3("message M {\n  reserved 1, 9;\n  reserved \"z\";\n  int32 a = 5;\n  int32 q = 12;\n  string id = 10;\n}\n");
    let new = p3("message M {\n  reserved 1, 9;\n  reserved \"z\";\n  string id = 10;\n}\n");
    assert_eq!(
        fixed(&old, &new),
        p3("message M {\n  reserved 1, 5, 9, 12;\n  reserved \"a\", \"q\", \"z\";\n  string id = 10;\n}\n")
    );
}

#[test]
fn unsorted_statement_gets_new_items_at_its_end_and_single_quotes_are_kept() {
    let old = p3("message M {\n  reserved 9, 1;\n  reserved 'z', 'b';\n  int32 a = 5;\n}\n");
    let new = p3("message M {\n  reserved 9, 1;\n  reserved 'z', 'b';\n}\n");
    assert_eq!(
        fixed(&old, &new),
        p3("message M {\n  reserved 9, 1, 5;\n  reserved 'z', 'b', 'a';\n}\n")
    );
}

#[test]
fn enum_values_and_their_aliases() {
    let old =
        p3("enum E {\n  option allow_alias = true;\n  E0 = 0;\n  A = 1;\n  B = 1;\n  C = 2;\n}\n");
    // The new revision keeps an alias (D): protoc refuses `allow_alias` without one.
    let new = p3("enum E {\n  option allow_alias = true;\n  E0 = 0;\n  C = 2;\n  D = 2;\n}\n");
    assert_eq!(
        fixed(&old, &new),
        p3("enum E {\n  reserved 1;\n  reserved \"A\", \"B\";\n  option allow_alias = true;\n  E0 = 0;\n  C = 2;\n  D = 2;\n}\n")
    );
}

#[test]
fn editions_reserve_identifiers() {
    let head = "edition = \"2023\";\npackage p;\n";
    let old = format!("{head}message M {{\n  int32 a = 1;\n  int32 b = 2;\n}}\n");
    let new = format!("{head}message M {{\n  int32 b = 2;\n}}\n");
    assert_eq!(
        fixed(&old, &new),
        format!("{head}message M {{\n  reserved 1;\n  reserved a;\n  int32 b = 2;\n}}\n")
    );
}

#[test]
fn crlf_and_tabs_are_kept() {
    let old = "syntax = \"proto3\";\r\npackage p;\r\nmessage M {\r\n\tmessage N {\r\n\t\tint32 a = 1;\r\n\t\tint32 b = 2;\r\n\t}\r\n}\r\n";
    let new = "syntax = \"proto3\";\r\npackage p;\r\nmessage M {\r\n\tmessage N {\r\n\t\tint32 b = 2;\r\n\t}\r\n}\r\n";
    assert_eq!(
        fixed(old, new),
        "syntax = \"proto3\";\r\npackage p;\r\nmessage M {\r\n\tmessage N {\r\n\t\treserved 1;\r\n\t\treserved \"a\";\r\n\t\tint32 b = 2;\r\n\t}\r\n}\r\n"
    );
}

#[test]
fn emptied_bodies_open_up() {
    let old = p3("message M {\n  message N { int32 a = 1; }\n  int32 x = 1;\n}\n");
    let new = p3("message M {\n  message N {}\n}\n");
    assert_eq!(
        fixed(&old, &new),
        p3("message M {\n  reserved 1;\n  reserved \"x\";\n  message N {\n    reserved 1;\n    reserved \"a\";\n  }\n}\n")
    );
}

#[test]
fn one_line_bodies_stay_on_one_line() {
    let old = p3("message M { int32 a = 1; int32 b = 2; }\n");
    let new = p3("message M { int32 b = 2; }\n");
    assert_eq!(
        fixed(&old, &new),
        p3("message M { reserved 1; reserved \"a\"; int32 b = 2; }\n")
    );
}

#[test]
fn a_name_still_in_use_is_not_reserved() {
    // Field 1 `a` is gone, but a new field 2 is now called `a`: reserving the name would make
    // the file invalid.
    let old = p3("message M {\n  int32 a = 1;\n}\n");
    let new = p3("message M {\n  int32 a = 2;\n}\n");
    assert_eq!(
        fixed(&old, &new),
        p3("message M {\n  reserved 1;\n  int32 a = 2;\n}\n")
    );
}

#[test]
fn only_what_the_reported_rules_cover() {
    // Number rule only: field 1's number is already reserved, so it is not reported and its
    // name stays unreserved; field 2 is reported and gets both.
    let old = p3("message M {\n  int32 a = 1;\n  int32 b = 2;\n}\n");
    let new = p3("message M {\n  reserved 1;\n}\n");
    assert_eq!(
        fixed_with(
            &[rules::RuleId::FieldNoDeleteUnlessNumberReserved.as_str()],
            &old,
            &new
        ),
        p3("message M {\n  reserved 1, 2;\n  reserved \"b\";\n}\n")
    );
}

#[test]
fn a_new_statement_goes_beside_the_existing_one_of_the_other_kind() {
    let old = p3("message M {\n  option deprecated = true;\n  reserved \"x\";\n  int32 a = 1;\n}\nenum E {\n  reserved 5 to 6; // old\n  E0 = 0;\n  E1 = 1;\n}\n");
    let new = p3("message M {\n  option deprecated = true;\n  reserved \"x\";\n}\nenum E {\n  reserved 5 to 6; // old\n  E0 = 0;\n}\n");
    assert_eq!(
        fixed(&old, &new),
        p3("message M {\n  option deprecated = true;\n  reserved 1;\n  reserved \"a\", \"x\";\n}\nenum E {\n  reserved 1, 5 to 6; // old\n  reserved \"E1\";\n  E0 = 0;\n}\n")
    );
}

#[test]
fn fixing_twice_changes_nothing() {
    let old = p3("message M {\n  int32 a = 1;\n  int32 b = 2;\n}\n");
    let new = p3("message M {\n  int32 b = 2;\n}\n");
    let once = fixed(&old, &new);
    assert_eq!(fixed(&old, &once), once);
}

#[test]
fn overlapping_edits_are_refused() {
    let edit = |start: u32, end: u32, text: &str| Edit {
        path: "a.proto".into(),
        span: Span { start, end },
        replacement: text.into(),
    };
    let (a, b, c) = (edit(1, 3, "x"), edit(2, 4, "y"), edit(1, 3, "x"));
    assert!(apply_edits("abcdef", &[&a, &b]).is_err());
    assert_eq!(apply_edits("abcdef", &[&a, &c]).as_deref(), Ok("axdef"));
    let (i, j) = (edit(2, 2, "1"), edit(2, 2, "2"));
    assert!(apply_edits("abcdef", &[&i, &j]).is_err());
}

#[test]
fn long_lists_wrap_into_several_statements() {
    let fields: String = (1..=40)
        .map(|n| format!("  int32 field_{n} = {};\n", n * 2))
        .collect();
    let old = p3(&format!("message M {{\n{fields}  string id = 100;\n}}\n"));
    let new = p3("message M {\n  string id = 100;\n}\n");
    let out = fixed(&old, &new);
    let reserved: Vec<&str> = out.lines().filter(|l| l.contains("reserved")).collect();
    assert!(reserved.len() > 2, "{out}");
    for line in &reserved {
        assert!(line.len() <= 2 + 96, "{line}");
        assert!(
            line.starts_with("  reserved ") && line.ends_with(';'),
            "{line}"
        );
    }
    let numbers: Vec<String> = (1..=40).map(|n| (n * 2).to_string()).collect();
    let listed: Vec<&str> = reserved
        .iter()
        .filter(|l| !l.contains('"'))
        .flat_map(|l| l["  reserved ".len()..l.len() - 1].split(", "))
        .collect();
    assert_eq!(listed, numbers);
    // Still one fix: a second run has nothing left to reserve.
    assert_eq!(fixed(&old, &out), out);
}
