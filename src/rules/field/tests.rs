//! Behaviour tests for the field rules where buf's semantics are subtle. Every expectation was
//! checked against buf 1.75.0 (`buf breaking --error-format json`) on the same inputs.

use crate::finding::Finding;
use crate::rules::RuleId;
use crate::test_support::{proto2, proto3, rule_findings, run_rule};

/// Full findings (with `previous` and `help`) of one rule over one file per side.
fn findings(rule: RuleId, old: &str, new: &str) -> Vec<Finding> {
    rule_findings(rule, &[("a.proto", old)], &[("a.proto", new)])
}

/// `(line:col-line:col, message)` of one rule over one file per side.
fn run(rule: RuleId, old: &str, new: &str) -> Vec<(String, String)> {
    run_rule(rule, &[("a.proto", old)], &[("a.proto", new)])
        .into_iter()
        .map(|(_, span, message)| (span, message))
        .collect()
}

#[test]
fn deleted_field_points_at_the_new_message_and_suggests_reserving() {
    let old = proto3("message M {\n  int32 keep = 1;\n  string discount = 5;\n}\n");
    let new = proto3("message M {\n  int32 keep = 1;\n}\n");
    let found = findings(RuleId::FieldNoDelete, &old, &new);
    assert_eq!(found.len(), 1);
    let f = &found[0];
    assert_eq!(
        f.message,
        "Previously present field \"5\" with name \"discount\" on message \"M\" was deleted."
    );
    let loc = f.location.as_ref().expect("new location");
    assert_eq!((loc.start_line, loc.end_line), (3, 5));
    let prev = f.previous.as_ref().expect("old location");
    assert_eq!((prev.start_line, prev.end_line), (3, 6));
    let help = f.help.as_deref().unwrap_or_default();
    assert!(help.contains("reserved 5;"), "{help}");
    assert!(help.contains("reserved \"discount\";"), "{help}");
}

#[test]
fn reserved_number_or_name_allows_deletion_only_for_its_rule() {
    let old = proto3("message M {\n  int32 a = 1;\n  int32 b = 2;\n}\n");
    let by_number = proto3("message M {\n  int32 a = 1;\n  reserved 2;\n}\n");
    let by_name = proto3("message M {\n  int32 a = 1;\n  reserved \"b\";\n}\n");
    let number_rule = RuleId::FieldNoDeleteUnlessNumberReserved;
    let name_rule = RuleId::FieldNoDeleteUnlessNameReserved;
    assert!(run(number_rule, &old, &by_number).is_empty());
    assert_eq!(run(number_rule, &old, &by_name).len(), 1);
    assert!(run(name_rule, &old, &by_name).is_empty());
    assert_eq!(run(name_rule, &old, &by_number).len(), 1);
    assert_eq!(run(RuleId::FieldNoDelete, &old, &by_number).len(), 1);
}

#[test]
fn scalar_type_change_points_at_the_type_with_wire_alternatives_in_help() {
    let old = proto3("message M {\n  int32 a = 1;\n}\n");
    let new = proto3("message M {\n  sint32 a = 1;\n}\n");
    let found = findings(RuleId::FieldWireCompatibleType, &old, &new);
    assert_eq!(found.len(), 1);
    assert!(found[0].message.starts_with(
        "Field \"1\" with name \"a\" on message \"M\" changed type from \"int32\" to \"sint32\"."
    ));
    let loc = found[0].location.as_ref().expect("location");
    assert_eq!(
        (loc.start_line, loc.start_column, loc.end_column),
        (4, 3, 9)
    );
    let help = found[0].help.as_deref().unwrap_or_default();
    assert!(
        help.contains("`int64`") && help.contains("`bool`"),
        "{help}"
    );
    // int32 -> int64 is fine on the wire but not for generated code or JSON.
    let widened = proto3("message M {\n  int64 a = 1;\n}\n");
    assert!(run(RuleId::FieldWireCompatibleType, &old, &widened).is_empty());
    assert_eq!(
        run(RuleId::FieldWireJsonCompatibleType, &old, &widened).len(),
        1
    );
    assert_eq!(run(RuleId::FieldSameType, &old, &widened).len(), 1);
}

#[test]
fn string_to_bytes_is_wire_compatible_but_not_the_reverse() {
    let string = proto3("message M {\n  string a = 1;\n}\n");
    let bytes = proto3("message M {\n  bytes a = 1;\n}\n");
    assert!(run(RuleId::FieldWireCompatibleType, &string, &bytes).is_empty());
    let back = run(RuleId::FieldWireCompatibleType, &bytes, &string);
    assert_eq!(back.len(), 1);
    assert!(back[0]
        .1
        .contains("no way to enforce that a bytes field is UTF-8"));
    assert_eq!(
        run(RuleId::FieldWireJsonCompatibleType, &string, &bytes).len(),
        1
    );
}

#[test]
fn enum_moved_with_same_short_name_and_more_values_is_wire_compatible() {
    let old =
        proto3("enum Status { S_UNKNOWN = 0; S_OK = 1; }\nmessage M {\n  Status st = 1;\n}\n");
    let moved = proto3(
        "message R { enum Status { S_UNKNOWN = 0; S_OK = 1; S_NEW = 3; } }\n\
         message M {\n  R.Status st = 1;\n}\n",
    );
    let renumbered = proto3(
        "message R { enum Status { S_UNKNOWN = 0; S_OK = 2; } }\nmessage M {\n  R.Status st = 1;\n}\n",
    );
    assert!(run(RuleId::FieldWireCompatibleType, &old, &moved).is_empty());
    assert!(run(RuleId::FieldWireJsonCompatibleType, &old, &moved).is_empty());
    assert_eq!(
        run(RuleId::FieldSameType, &old, &moved),
        [(
            "5:3-5:11".to_string(),
            "Field \"1\" with name \"st\" on message \"M\" changed type from \"p.Status\" to \
             \"p.R.Status\"."
                .to_string()
        )]
    );
    assert_eq!(
        run(RuleId::FieldWireCompatibleType, &old, &renumbered).len(),
        1
    );
}

#[test]
fn delimited_encoding_is_a_type_change_in_editions() {
    let old = "edition = \"2023\";\npackage p;\nmessage M {\n  M a = 1;\n}\n";
    let new = "edition = \"2023\";\npackage p;\noption features.message_encoding = DELIMITED;\n\
               message M {\n  M a = 1;\n}\n";
    assert_eq!(
        run(RuleId::FieldSameType, old, new),
        [(
            "5:3-5:4".to_string(),
            "Field \"1\" with name \"a\" on message \"M\" changed type from \"message\" to \
             \"message (delimited encoding)\"."
                .to_string()
        )]
    );
}

#[test]
fn map_entry_fields_point_at_the_map_type() {
    let old = proto3("message One {}\nmessage Two {}\nmessage M {\n  map<int64, One> m = 1;\n}\n");
    let new = proto3("message One {}\nmessage Two {}\nmessage M {\n  map<int64, Two> m = 1;\n}\n");
    assert_eq!(
        run(RuleId::FieldSameType, &old, &new),
        [(
            "6:3-6:18".to_string(),
            "Field \"2\" with name \"value\" on message \"MEntry\" changed type from \"p.One\" to \
             \"p.Two\"."
                .to_string()
        )]
    );
}

#[test]
fn cardinality_tracks_presence_and_skips_map_entries() {
    let old = proto3(
        "message M {\n  int32 a = 1;\n  optional int32 b = 2;\n  map<int32, int32> c = 3;\n}\n",
    );
    let new = proto3(
        "message M {\n  optional int32 a = 1;\n  int32 b = 2;\n  repeated int32 c = 3;\n}\n",
    );
    let found = run(RuleId::FieldSameCardinality, &old, &new);
    let messages: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(
        messages,
        [
            "Field \"1\" with name \"a\" on message \"M\" changed cardinality from \"optional \
             with implicit presence\" to \"optional with explicit presence\".",
            "Field \"2\" with name \"b\" on message \"M\" changed cardinality from \"optional \
             with explicit presence\" to \"optional with implicit presence\".",
            "Field \"3\" with name \"c\" on message \"M\" changed cardinality from \"map\" to \
             \"repeated\".",
        ]
    );
    // Presence and map/repeated changes keep the wire format.
    assert!(run(RuleId::FieldWireCompatibleCardinality, &old, &new).is_empty());
    // But maps and repeated fields differ in JSON.
    assert_eq!(
        run(RuleId::FieldWireJsonCompatibleCardinality, &old, &new).len(),
        1
    );
}

#[test]
fn oneof_membership_ignores_synthetic_oneofs() {
    let old = proto3("message M {\n  optional int32 a = 1;\n  oneof x { int32 b = 2; }\n}\n");
    let new = proto3("message M {\n  oneof x { int32 a = 1; }\n  optional int32 b = 2;\n}\n");
    let found = run(RuleId::FieldSameOneof, &old, &new);
    let messages: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(
        messages,
        [
            "Field \"1\" with name \"a\" on message \"M\" moved from outside to inside a oneof.",
            "Field \"2\" with name \"b\" on message \"M\" moved from inside to outside a oneof.",
        ]
    );
}

#[test]
fn defaults_compare_by_value_across_types() {
    let old = proto2(
        "enum E { E_ONE = 1; E_TWO = 2; }\nmessage M {\n\
         optional int32 a = 1 [default = 5];\n\
         optional uint32 b = 2 [default = 7];\n\
         optional bool c = 3 [default = true];\n\
         optional double d = 4 [default = 0.1];\n\
         optional E e = 5 [default = E_TWO];\n\
         optional E f = 6;\n}\n",
    );
    let new = proto2(
        "enum E { E_ONE = 1; E_TWO = 2; }\nmessage M {\n\
         optional int64 a = 1 [default = 5];\n\
         optional bool b = 2 [default = true];\n\
         optional uint64 c = 3 [default = 1];\n\
         optional float d = 4 [default = 0.1];\n\
         optional int32 e = 5 [default = 2];\n\
         optional E f = 6 [default = E_TWO];\n}\n",
    );
    let found = run(RuleId::FieldSameDefault, &old, &new);
    let messages: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(
        messages,
        [
            "Field \"2\" with name \"b\" on message \"M\" changed default value from 7 to true.",
            "Field \"6\" with name \"f\" on message \"M\" changed default value from E.E_ONE to \
             E.E_TWO.",
        ]
    );
}

#[test]
fn bytes_defaults_keep_non_utf8_bytes() {
    let old = proto2("message M {\n  optional bytes b = 1 [default = \"\\xff\\001\"];\n}\n");
    let new = proto2("message M {\n  optional bytes b = 1 [default = \"\\xfe\\001\"];\n}\n");
    assert_eq!(
        run(RuleId::FieldSameDefault, &old, &new),
        [(
            "4:25-4:45".to_string(),
            "Field \"1\" with name \"b\" on message \"M\" changed default value from [0xFF,0x1] \
             to [0xFE,0x1]."
                .to_string()
        )]
    );
}

/// String defaults compare their exact bytes: `\377` and `\376` are distinct bytes that are not
/// UTF-8 (a lossy UTF-8 model read both as U+FFFD); buf prints them as Go's `%q` does.
#[test]
fn string_defaults_compare_exact_bytes() {
    let old = proto2("message M {\n  optional string s = 1 [default = \"a\\377\"];\n}\n");
    let new = proto2("message M {\n  optional string s = 1 [default = \"a\\376\"];\n}\n");
    assert_eq!(
        run(RuleId::FieldSameDefault, &old, &new),
        [(
            "4:26-4:43".to_string(),
            "Field \"1\" with name \"s\" on message \"M\" changed default value from \"a\\xff\" \
             to \"a\\xfe\"."
                .to_string()
        )]
    );
}

/// protoc truncates an octal escape above `\377` to its low byte: `\777` is the byte 0xff, the
/// same default as `\377`, so nothing changed.
#[test]
fn octal_escape_above_377_is_the_same_byte() {
    let old = proto2("message M {\n  optional bytes b = 1 [default = \"\\377\"];\n}\n");
    let new = proto2("message M {\n  optional bytes b = 1 [default = \"\\777\"];\n}\n");
    assert_eq!(run(RuleId::FieldSameDefault, &old, &new), []);
    let changed = proto2("message M {\n  optional bytes b = 1 [default = \"\\776\"];\n}\n");
    assert_eq!(
        run(RuleId::FieldSameDefault, &old, &changed),
        [(
            "4:25-4:41".to_string(),
            "Field \"1\" with name \"b\" on message \"M\" changed default value from [0xFF] \
             to [0xFE]."
                .to_string()
        )]
    );
}

#[test]
fn json_name_and_jstype_point_at_the_option() {
    let old = proto3("message M {\n  int64 a = 1 [json_name = \"x\", jstype = JS_STRING];\n}\n");
    let new = proto3("message M {\n  int64 a = 1 [json_name = \"y\"];\n}\n");
    assert_eq!(
        run(RuleId::FieldSameJsonName, &old, &new),
        [(
            "4:16-4:31".to_string(),
            "Field \"1\" with name \"a\" on message \"M\" changed option \"json_name\" from \"x\" \
             to \"y\"."
                .to_string()
        )]
    );
    // The option is gone on the new side: buf points at the whole field.
    assert_eq!(
        run(RuleId::FieldSameJstype, &old, &new),
        [(
            "4:3-4:33".to_string(),
            "Field \"1\" with name \"a\" on message \"M\" changed option \"jstype\" from \
             \"JS_STRING\" to \"JS_NORMAL\"."
                .to_string()
        )]
    );
}

#[test]
fn string_piece_to_string_is_allowed() {
    let old = proto2("message M {\n  optional string a = 1 [ctype = STRING_PIECE];\n  optional string b = 2 [ctype = CORD];\n}\n");
    let new = proto2("message M {\n  optional string a = 1;\n  optional string b = 2 [ctype = STRING_PIECE];\n}\n");
    assert_eq!(
        run(RuleId::FieldSameCppStringType, &old, &new),
        [(
            "5:26-5:46".to_string(),
            "Field \"2\" with name \"b\" on message \"M\" changed C++ string type from \"CORD\" to \
             \"STRING_PIECE\"."
                .to_string()
        )]
    );
}

#[test]
fn every_finding_has_previous_and_help() {
    let old = proto3("message M {\n  int32 a = 1;\n  string b = 2;\n}\n");
    let new = proto3("message M {\n  repeated string a = 1;\n}\n");
    for rule in crate::rules::RULES
        .iter()
        .filter(|r| r.id.starts_with("FIELD_") && r.check.is_some())
    {
        for f in findings(rule.rule, &old, &new) {
            assert!(f.previous.is_some(), "{}: no previous", rule.id);
            assert!(
                f.help.as_deref().is_some_and(|h| !h.is_empty()),
                "{}: no help",
                rule.id
            );
        }
    }
}

/// The `Before`/`After` example of a rule doc, if it has one.
fn doc_example(doc: &str) -> Option<(String, String)> {
    let block_after = |heading: &str| -> Option<String> {
        let rest = &doc[doc.find(heading)? + heading.len()..];
        let start = rest.find("```proto\n")? + "```proto\n".len();
        let end = rest[start..].find("```")?;
        Some(rest[start..start + end].to_string())
    };
    Some((block_after("### Before")?, block_after("### After")?))
}

#[test]
fn field_rule_doc_examples_are_flagged() {
    let mut checked = 0;
    for rule in crate::rules::RULES
        .iter()
        .filter(|r| r.id.starts_with("FIELD_"))
    {
        let Some((before, after)) = doc_example(rule.doc) else {
            continue;
        };
        // Deprecated ids run their replacements.
        let ids: Vec<RuleId> = if rule.check.is_some() {
            vec![rule.rule]
        } else {
            let known = |id: &&str| id.parse::<RuleId>().expect("replacement is a rule");
            rule.replaced_by.iter().map(known).collect()
        };
        let found: usize = ids.iter().map(|&id| run(id, &before, &after).len()).sum();
        assert!(found > 0, "{}: its doc example is not flagged", rule.id);
        checked += 1;
    }
    assert!(checked >= 17, "only {checked} FIELD_* doc examples found");
}
