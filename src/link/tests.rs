//! Builder tests: name resolution, synthesized messages and oneofs, labels, JSON names,
//! defaults, features, imports.

use std::sync::Arc;

use super::*;
use crate::model::*;

fn source(path: &str, text: &str) -> SourceFile {
    SourceFile {
        path: path.into(),
        display_name: path.into(),
        text: Arc::from(text),
    }
}

fn build(files: &[(&str, &str)]) -> Schema {
    let sources = files.iter().map(|(p, t)| source(p, t)).collect();
    match build_schema(sources, &NoImports) {
        Ok(out) => out.schema,
        Err(e) => panic!("{:?}", e.diagnostics),
    }
}

fn build_errors(files: &[(&str, &str)]) -> Vec<String> {
    let sources = files.iter().map(|(p, t)| source(p, t)).collect();
    match build_schema(sources, &NoImports) {
        Ok(_) => Vec::new(),
        Err(e) => e.diagnostics.iter().map(|d| d.to_string()).collect(),
    }
}

fn message<'a>(file: &'a File, full_name: &str) -> &'a Message {
    file.all_messages()
        .into_iter()
        .find(|m| m.full_name == full_name)
        .unwrap_or_else(|| panic!("no message {full_name}"))
}

#[test]
fn scoping_follows_protobuf() {
    let schema = build(&[
        (
            "a.proto",
            r#"syntax = "proto3";
package foo.bar;
import "b.proto";
message Outer {
  message Inner {}
  Inner a = 1;          // Outer.Inner
  bar.Other b = 2;      // foo.bar.Other via the `bar` package component
  .baz.Top c = 3;       // fully qualified
  Top d = 4;            // baz.Top is not in scope: resolves to foo.bar.Top
  E e = 5;
}
message Other {}
message Top {}
enum E { E_ZERO = 0; }
"#,
        ),
        (
            "b.proto",
            "syntax = \"proto3\";\npackage baz;\nmessage Top {}\n",
        ),
    ]);
    let file = &schema.files["a.proto"];
    let outer = message(file, "foo.bar.Outer");
    let types: Vec<_> = outer
        .fields
        .iter()
        .map(|f| (f.ty, f.type_name.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        types,
        vec![
            (FieldType::Message, "foo.bar.Outer.Inner"),
            (FieldType::Message, "foo.bar.Other"),
            (FieldType::Message, "baz.Top"),
            (FieldType::Message, "foo.bar.Top"),
            (FieldType::Enum, "foo.bar.E"),
        ]
    );
}

#[test]
fn only_imported_symbols_are_visible() {
    let errors = build_errors(&[
        ("a.proto", "syntax = \"proto3\";\nmessage A { B b = 1; }\n"),
        ("b.proto", "syntax = \"proto3\";\nmessage B {}\n"),
    ]);
    assert_eq!(
        errors,
        vec!["cannot resolve type `B`: `B` is defined in \"b.proto\", which this file does not import"]
    );
    // Public imports are transitive.
    build(&[
        (
            "a.proto",
            "syntax = \"proto3\";\nimport \"p.proto\";\nmessage A { B b = 1; }\n",
        ),
        (
            "p.proto",
            "syntax = \"proto3\";\nimport public \"b.proto\";\n",
        ),
        ("b.proto", "syntax = \"proto3\";\nmessage B {}\n"),
    ]);
}

#[test]
fn missing_import_is_reported_and_keeps_names() {
    let sources = vec![source(
        "a.proto",
        "syntax = \"proto3\";\nimport \"nowhere.proto\";\nmessage A { x.Y y = 1; }\n",
    )];
    let out = build_schema(sources, &NoImports).expect("builds");
    assert_eq!(out.unresolved_imports.len(), 1);
    let field = &out.schema.files["a.proto"].messages[0].fields[0];
    assert_eq!(field.type_name.as_deref(), Some("x.Y"));
}

#[test]
fn well_known_types_are_bundled() {
    let schema = build(&[(
        "a.proto",
        "syntax = \"proto3\";\nimport \"google/protobuf/timestamp.proto\";\nmessage A { google.protobuf.Timestamp t = 1; }\n",
    )]);
    let field = &schema.files["a.proto"].messages[0].fields[0];
    assert_eq!(
        field.type_name.as_deref(),
        Some("google.protobuf.Timestamp")
    );
}

#[test]
fn maps_groups_and_oneofs_as_protoc() {
    let schema = build(&[(
        "a.proto",
        r#"syntax = "proto2";
package p;
message M {
  map<string, M> by_name = 1;
  optional group My_Group = 2 { optional int32 x = 1; }
  oneof choice { int32 c = 3; }
  message After {}
  optional int32 some_field_name = 4 [default = -7, json_name = "custom"];
  optional string s = 5 [default = "a\"b"];
  optional bytes b = 6 [default = "\001x"];
  optional double d = 7 [default = -inf];
  required float f = 8 [default = 1e3];
}
"#,
    )]);
    let m = message(&schema.files["a.proto"], "p.M");
    let nested: Vec<_> = m.messages.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(nested, vec!["ByNameEntry", "My_Group", "After"]);
    let entry = &m.messages[0];
    assert!(entry.is_map_entry);
    assert_eq!(entry.fields[1].type_name.as_deref(), Some("p.M"));
    let map_field = &m.fields[0];
    assert_eq!(
        (
            map_field.label,
            map_field.ty,
            map_field.type_name.as_deref()
        ),
        (Label::Repeated, FieldType::Message, Some("p.M.ByNameEntry"))
    );
    let group = &m.fields[1];
    assert_eq!(
        (group.name.as_str(), group.ty, group.type_name.as_deref()),
        ("my_group", FieldType::Group, Some("p.M.My_Group"))
    );
    assert!(m.messages[1].is_group);
    assert_eq!(m.fields[2].oneof_index, Some(0));
    assert_eq!(&*m.fields[3].json_name, "custom");
    assert!(m.fields[3].json_name_explicit);
    let defaults: Vec<_> = m.fields[3..]
        .iter()
        .map(|f| f.default_value().unwrap())
        .collect();
    assert_eq!(defaults, vec!["-7", "a\"b", "\\001x", "-inf", "1000"]);
    assert_eq!(m.fields[7].label, Label::Required);
    assert_eq!(
        m.fields[7].features.field_presence.value,
        FieldPresence::LegacyRequired
    );
    assert_eq!(&*m.fields[2].json_name, "c");
    assert_eq!(default_json_name("foo_bar_baz"), "fooBarBaz");
}

#[test]
fn proto3_optional_gets_synthetic_oneofs() {
    let schema = build(&[(
        "a.proto",
        r#"syntax = "proto3";
message M {
  optional int32 a = 1;
  oneof real { int32 b = 2; }
  int32 _a = 3;
  optional int32 c = 4;
  int32 plain = 5;
  M msg = 6;
  optional int32 e = 7;
  enum _e { Z = 0; }
}
"#,
    )]);
    let m = &schema.files["a.proto"].messages[0];
    let oneofs: Vec<_> = m
        .oneofs
        .iter()
        .map(|o| (o.name.as_str(), o.synthetic))
        .collect();
    // `_e` is taken by a nested enum: buf (protocompile) counts it, protoc would not.
    assert_eq!(
        oneofs,
        vec![("real", false), ("X_a", true), ("_c", true), ("X_e", true)]
    );
    assert_eq!(m.fields[0].oneof_index, Some(1));
    assert!(m.fields[0].proto3_optional);
    assert_eq!(m.fields[3].oneof_index, Some(2));
    assert_eq!(m.fields[4].label, Label::Optional);
    let presence: Vec<_> = m
        .fields
        .iter()
        .map(|f| f.features.field_presence.value)
        .collect();
    use FieldPresence::*;
    assert_eq!(
        presence,
        vec![Explicit, Explicit, Implicit, Explicit, Implicit, Explicit, Explicit]
    );
}

#[test]
fn editions_features_inherit_and_carry_spans() {
    let text = r#"edition = "2023";
package p;
option features.field_presence = IMPLICIT;
option features.utf8_validation = NONE;
message M {
  option features.json_format = LEGACY_BEST_EFFORT;
  string a = 1;
  string b = 2 [features.utf8_validation = VERIFY];
  int32 req = 3 [features.field_presence = LEGACY_REQUIRED];
  M delimited = 4 [features.message_encoding = DELIMITED];
  repeated int32 r = 5;
}
enum E { option features.enum_type = CLOSED; A = 1; }
"#;
    let schema = build(&[("a.proto", text)]);
    let file = &schema.files["a.proto"];
    let slice = |s: Option<Span>| s.map(|s| &text[s.range()]);
    assert_eq!(file.features.field_presence.value, FieldPresence::Implicit);
    assert_eq!(
        slice(file.features.field_presence.span),
        Some("option features.field_presence = IMPLICIT;")
    );
    let m = &file.messages[0];
    assert_eq!(m.features.field_presence.span, None);
    assert_eq!(m.features.utf8_validation.value, Utf8Validation::None);
    assert_eq!(m.features.json_format.value, JsonFormat::LegacyBestEffort);
    assert_eq!(
        slice(m.features.json_format.span),
        Some("option features.json_format = LEGACY_BEST_EFFORT;")
    );
    assert_eq!(m.fields[0].features.json_format.span, None);
    let a = &m.fields[0];
    assert_eq!(a.features.utf8_validation.value, Utf8Validation::None);
    assert_eq!(a.features.utf8_validation.span, None);
    let b = &m.fields[1];
    assert_eq!(b.features.utf8_validation.value, Utf8Validation::Verify);
    assert_eq!(
        slice(b.features.utf8_validation.span),
        Some("features.utf8_validation = VERIFY")
    );
    assert_eq!(m.fields[2].label, Label::Required);
    assert_eq!(m.fields[3].ty, FieldType::Group);
    assert_eq!(
        m.fields[4].features.repeated_field_encoding.value,
        RepeatedFieldEncoding::Packed
    );
    assert_eq!(file.enums[0].features.enum_type.value, EnumType::Closed);
}

#[test]
fn legacy_features() {
    let schema = build(&[(
        "a.proto",
        r#"syntax = "proto2";
option java_string_check_utf8 = true;
message M {
  repeated int32 a = 1 [packed = true];
  repeated int32 b = 2;
  optional string c = 3 [ctype = CORD];
}
enum E { A = 0; }
"#,
    )]);
    let file = &schema.files["a.proto"];
    let m = &file.messages[0];
    use RepeatedFieldEncoding::*;
    assert_eq!(m.fields[0].features.repeated_field_encoding.value, Packed);
    assert_eq!(m.fields[1].features.repeated_field_encoding.value, Expanded);
    assert_eq!(
        m.fields[2].features.cpp_string_type.value,
        CppStringType::Cord
    );
    assert_eq!(
        m.fields[2].features.java_utf8_validation.value,
        JavaUtf8Validation::Verify
    );
    assert_eq!(
        m.fields[2].features.utf8_validation.value,
        Utf8Validation::None
    );
    assert_eq!(file.enums[0].features.enum_type.value, EnumType::Closed);
}

#[test]
fn invalid_schemas_are_errors() {
    let errors = build_errors(&[(
        "a.proto",
        r#"syntax = "proto3";
message M {
  reserved 5;
  reserved "old";
  int32 a = 1;
  int32 b = 1;
  int32 a = 2;
  int32 c = 5;
  int32 old = 6;
  int32 d = 19001;
  int32 e = 0;
}
enum E { ONE = 1; }
enum F { A = 0; B = 0; }
"#,
    )]);
    assert_eq!(
        errors,
        vec![
            "`M.a` is already defined (fields, oneofs, nested types and enum values share their scope; enum values are siblings of their enum)",
            "field `b` of `M` uses number 1, already used by field `a`",
            "field `c` uses number 5, which is reserved (5 to 5)",
            "field name `old` is reserved",
            "field `d`: numbers 19000 to 19999 are reserved for the protobuf implementation",
            "field `e`: number 0 is out of range (1 to 536870911)",
            "the first value of open enum `E` must be zero",
            "enum value `B` uses number 0, already used by `A` (set `option allow_alias = true;` to allow aliases)",
        ]
    );
}

#[test]
fn packed_and_map_helpers() {
    let schema = build(&[(
        "a.proto",
        "syntax = \"proto3\";\nmessage M {\n  repeated int32 a = 1;\n  repeated int32 b = 2 [packed = false];\n  repeated string c = 3;\n  map<int32, int32> d = 4;\n}\n",
    )]);
    let m = &schema.files["a.proto"].messages[0];
    let packed: Vec<_> = m.fields.iter().map(|f| f.is_packed()).collect();
    assert_eq!(packed, vec![true, false, false, false]);
    let maps: Vec<_> = m.fields.iter().map(|f| f.is_map(m)).collect();
    assert_eq!(maps, vec![false, false, false, true]);
}

#[test]
fn features_are_checked_like_protoc() {
    let errors = build_errors(&[(
        "a.proto",
        r#"edition = "2023";
message M {
  option features.utf8_validation = NONE;
  option features.json_format = ALLOW;
  repeated int32 a = 1 [packed = true];
  int32 b = 2 [features.enum_type = OPEN];
  int32 c = 3 [features.no_such = X];
}
"#,
    )]);
    assert_eq!(
        errors,
        vec![
            "feature `utf8_validation` cannot be set on a message",
            "the `packed` option is not allowed under editions; use `features.repeated_field_encoding`",
            "feature `enum_type` cannot be set on a field",
            "unknown feature `no_such`",
        ]
    );
    let errors = build_errors(&[(
        "b.proto",
        "syntax = \"proto3\";\noption features.field_presence = IMPLICIT;\n",
    )]);
    assert_eq!(errors, vec!["features are only valid under editions"]);
}

#[test]
fn deepest_accepted_nesting_builds_on_worker_threads() {
    // The deepest message holds a group: one more level.
    let depth = crate::parse::parser::MAX_DEPTH - 1;
    let mut text = String::from("syntax = \"proto2\";\n");
    for i in 0..depth {
        text.push_str(&format!(
            "message M{i} {{ optional group G{i} = 1 {{ }} map<string, M{i}> m = 2;\n"
        ));
    }
    text.push_str(&"}".repeat(depth));
    let files: Vec<(String, String)> = (0..6)
        .map(|i| (format!("f{i}.proto"), text.replace("M", &format!("F{i}M"))))
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    // Lowering and validation walk all 128 levels on worker threads without overflowing
    // their stacks; past buf's 31 levels of messages the build then refuses the depth.
    let errors = build_errors(&refs);
    assert!(!errors.is_empty());
    assert!(
        errors.iter().all(|e| e.contains("at most 31 are allowed")),
        "{errors:?}"
    );
}

#[test]
fn field_options_and_json_names_are_checked_like_buf() {
    let errors = build_errors(&[(
        "a.proto",
        r#"edition = "2023";
message M {
  int32 a = 1 [features.repeated_field_encoding = EXPANDED];
  repeated string b = 2 [features.repeated_field_encoding = PACKED];
  int32 c = 3 [features.utf8_validation = NONE];
  int32 d = 4 [features.message_encoding = DELIMITED];
  M e = 5 [features.field_presence = IMPLICIT];
  int32 f = 6 [jstype = JS_STRING];
  int32 foo_bar = 7;
  int32 fooBar = 8;
  int32 g = 9 [json_name = "fooBar"];
  extensions 100 to 200;
  int32 h = 150;
  map<string, int32> m = 10 [features.utf8_validation = NONE];
}
enum E { E_FOO_BAR = 0; FOO_BAR = 1; }
"#,
    )]);
    assert_eq!(
        errors,
        vec![
            "field `h` uses number 150, which is in an extension range",
            "field `fooBar`: JSON name \"fooBar\" conflicts with the JSON name of field `foo_bar`",
            "field `g`: JSON name \"fooBar\" conflicts with the JSON name of field `foo_bar`",
            "field `a`: only repeated fields may specify repeated field encoding",
            "field `b`: only repeated primitive fields may specify packed encoding",
            "field `c`: only string fields may specify UTF-8 validation",
            "field `d`: only message fields may specify message encoding",
            "field `e`: message fields may not specify implicit presence",
            "field `f`: only 64-bit integer fields can set a `jstype` other than JS_NORMAL",
            "enum value `FOO_BAR`: its JSON-style name \"FooBar\" conflicts with enum value `E_FOO_BAR`",
        ]
    );
    let errors = build_errors(&[(
        "c.proto",
        "syntax = \"proto3\";\nmessage M { optional int32 a = 1 [default = 5]; }\n",
    )]);
    assert_eq!(
        errors,
        vec!["field `a`: default values are not allowed in proto3"]
    );
    // proto2 only warns about default-name conflicts (buf too): no error.
    build(&[(
        "b.proto",
        "syntax = \"proto2\";\nmessage M { optional int32 foo_bar = 1; optional int32 fooBar = 2; }\n",
    )]);
}

#[test]
fn closed_enums_are_refused_where_buf_refuses_them() {
    let errors = build_errors(&[
        ("e.proto", "syntax = \"proto2\";\nenum E { A = 0; }\n"),
        (
            "a.proto",
            "syntax = \"proto3\";\nimport \"e.proto\";\nmessage M { E e = 1; repeated E f = 2; map<int32, E> g = 3; }\n",
        ),
        (
            "b.proto",
            "edition = \"2023\";\npackage b;\noption features.field_presence = IMPLICIT;\nenum C { option features.enum_type = CLOSED; A = 0; }\nmessage N { C c = 1; repeated C d = 2; C e = 3 [features.field_presence = EXPLICIT]; }\n",
        ),
    ]);
    assert_eq!(
        errors,
        vec![
            "closed enum `E` cannot be used in a proto3 message",
            "closed enum `E` cannot be used in a proto3 message",
            "closed enum `E` cannot be used in a proto3 message",
            "closed enum `b.C` cannot be used in a field with implicit presence",
        ]
    );
}

#[test]
fn features_as_a_message_literal() {
    let schema = build(&[(
        "a.proto",
        "edition = \"2023\";\noption features = { field_presence: IMPLICIT enum_type: CLOSED };\nmessage M { int32 a = 1; }\nenum E { A = 1; }\n",
    )]);
    let file = &schema.files["a.proto"];
    assert_eq!(file.features.field_presence.value, FieldPresence::Implicit);
    assert_eq!(
        file.messages[0].fields[0].features.field_presence.value,
        FieldPresence::Implicit
    );
    assert_eq!(file.enums[0].features.enum_type.value, EnumType::Closed);
}

/// A literal may give a feature's value by its enum number (protoc accepts `enum_type: 2`
/// for `CLOSED`) and a language feature in brackets: both apply, as written by name.
#[test]
fn features_literal_by_number_and_language_features() {
    let schema = build(&[(
        "a.proto",
        "edition = \"2023\";\nimport \"google/protobuf/cpp_features.proto\";\noption features = { field_presence: 2 enum_type: 2 };\nmessage M { string a = 1 [features = { [pb.cpp] { string_type: CORD } }]; string b = 2 [features = { [pb.cpp] { string_type: 1 } }]; }\nenum E { A = 1; }\n",
    )]);
    let file = &schema.files["a.proto"];
    assert_eq!(file.features.field_presence.value, FieldPresence::Implicit);
    assert_eq!(file.enums[0].features.enum_type.value, EnumType::Closed);
    let fields = &file.messages[0].fields;
    assert_eq!(
        fields[0].features.cpp_string_type.value,
        CppStringType::Cord
    );
    assert_eq!(
        fields[1].features.cpp_string_type.value,
        CppStringType::View
    );
}

#[test]
fn import_cycles_are_errors() {
    let errors = build_errors(&[
        ("a.proto", "syntax = \"proto3\";\nimport \"b.proto\";\n"),
        ("b.proto", "syntax = \"proto3\";\nimport \"c.proto\";\n"),
        ("c.proto", "syntax = \"proto3\";\nimport \"a.proto\";\n"),
        ("d.proto", "syntax = \"proto3\";\nimport \"a.proto\";\n"),
    ]);
    assert_eq!(
        errors,
        vec!["import cycle: a.proto -> b.proto -> c.proto -> a.proto"]
    );
}

#[test]
fn names_sharing_a_scope_clash_as_in_buf() {
    let hint = " (fields, oneofs, nested types and enum values share their scope; enum values are siblings of their enum)";
    let cases = [
        (
            "enum A { UNKNOWN = 0; }\nenum B { UNKNOWN = 0; }\n",
            "UNKNOWN",
        ),
        ("message M { message foo {} int32 foo = 1; }\n", "M.foo"),
        (
            "message M { oneof foo { int32 a = 1; } int32 foo = 2; }\n",
            "M.foo",
        ),
        ("enum A { M = 0; }\nmessage M {}\n", "M"),
        ("message M { enum E { X = 0; } message X {} }\n", "M.X"),
    ];
    for (body, name) in cases {
        let text = format!("syntax = \"proto3\";\n{body}");
        let errors = build_errors(&[("a.proto", &text)]);
        assert_eq!(
            errors,
            vec![format!("`{name}` is already defined{hint}")],
            "{body}"
        );
    }
    // A field named like a type elsewhere does not hide that type from resolution.
    build(&[(
        "b.proto",
        "syntax = \"proto3\";\nmessage T {}\nmessage M { int32 T = 1; T t = 2; }\n",
    )]);
}

#[test]
fn extension_numbers_must_be_in_the_extendee_ranges() {
    let errors = build_errors(&[(
        "a.proto",
        r#"syntax = "proto2";
import "google/protobuf/descriptor.proto";
message M { extensions 100 to 200; }
message S { option message_set_wire_format = true; extensions 4 to max; }
message N {}
extend M { optional int32 ok = 150; optional int32 out = 300; }
extend N { optional int32 none = 1; }
extend S { optional M big = 2147483646; }
extend google.protobuf.FieldOptions { optional int32 opt = 50000; optional int32 low = 1; }
"#,
    )]);
    assert_eq!(
        errors,
        vec![
            "extension `out`: number 300 is not in an extension range of `M`",
            "extension `none`: number 1 is not in an extension range of `N`",
            "extension `low`: number 1 is not in an extension range of `google.protobuf.FieldOptions`",
        ]
    );
}

#[test]
fn diagnostics_name_the_source_and_label_the_span() {
    let sources = vec![SourceFile {
        path: "a.proto".into(),
        display_name: "acme/a.proto @ main".into(),
        text: Arc::from("syntax = \"proto3\";\nmessage M {\n  int32 a = 1\n}\n"),
    }];
    let error = build_schema(sources, &NoImports)
        .err()
        .expect("a syntax error");
    assert_eq!(error.diagnostics.len(), 1);
    let diagnostic = &error.diagnostics[0];
    let source = diagnostic.source_code().expect("source attached");
    let labels: Vec<_> = diagnostic.labels().expect("labels").collect();
    assert_eq!(labels.len(), 1);
    assert_eq!(labels[0].label(), Some("expected `;` after field number"));
    // Right after `1` (19 + 12 + 13 bytes).
    assert_eq!(labels[0].offset(), 44);
    let contents = source
        .read_span(labels[0].inner(), 0, 0)
        .expect("span readable");
    assert_eq!(contents.name(), Some("acme/a.proto @ main"));
}

/// Random token soup (deterministic LCG) through the parser and the whole builder: no input
/// may panic.
#[test]
fn random_token_soup_never_panics() {
    const PIECES: &[&str] = &[
        "syntax = \"proto2\";",
        "syntax = \"proto3\";",
        "edition = \"2023\";",
        "message",
        "M",
        "N",
        "{",
        "}",
        "=",
        ";",
        "1",
        "-",
        "max",
        "to",
        "optional",
        "repeated",
        "required",
        "group",
        "G",
        "map",
        "<",
        ">",
        ",",
        "string",
        "int32",
        "oneof",
        "enum",
        "E",
        "A",
        "extend",
        "extensions",
        "reserved",
        "\"x\"",
        "option",
        "(",
        ")",
        ".",
        "[",
        "]",
        "service",
        "rpc",
        "returns",
        "stream",
        "import",
        "package",
        "p",
        "0x1",
        "1.5",
        "é",
        "/*",
        "*/",
        "//",
        "\n",
        "'\\",
        "features.field_presence",
        "IMPLICIT",
        "json_name",
        "default",
        "inf",
        "public",
        "weak",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    for _ in 0..3000 {
        let len = next() % 40;
        let text: Vec<&str> = (0..len).map(|_| PIECES[next() % PIECES.len()]).collect();
        let text = text.join(" ");
        let _ = crate::parse::parse(&text);
        let file = SourceFile {
            path: "r.proto".into(),
            display_name: "r.proto".into(),
            text: std::sync::Arc::from(text.as_str()),
        };
        let _ = build_schema(vec![file], &NoImports);
    }
}

/// protoc's `FindSymbol`: a package is seen only through the files that declare it (or a
/// package nested in it), so `config` from `package a.b;` skips `a.b.config`, declared only
/// in a file this one does not import, and finds `a.config` (issue 10).
#[test]
fn packages_declared_only_in_files_not_imported_are_skipped() {
    let core = (
        "core.proto",
        "syntax = \"proto3\";\npackage a.config;\nmessage T {}\n",
    );
    let main = (
        "main.proto",
        "syntax = \"proto3\";\npackage a.b;\nimport \"core.proto\";\nmessage M {\n  config.T t = 1;\n}\n",
    );
    for other in [
        "syntax = \"proto3\";\npackage a.b.config;\nmessage U {}\n",
        // Before the fix, this one also advised importing other.proto for `a.b.config.T`.
        "syntax = \"proto3\";\npackage a.b.config;\nmessage T {}\n",
    ] {
        let schema = build(&[main, core, ("other.proto", other)]);
        let field = &message(&schema.files["main.proto"], "a.b.M").fields[0];
        assert_eq!(field.type_name.as_deref(), Some("a.config.T"), "{other}");
    }
    // envoyproxy/data-plane-api's shape: `envoy.extensions.config.v3alpha` exists elsewhere.
    let schema = build(&[
        (
            "main.proto",
            "syntax = \"proto3\";\npackage envoy.extensions.filters.v3;\nimport \"core.proto\";\nmessage M {\n  config.core.v3.Address a = 1;\n}\n",
        ),
        ("core.proto", "syntax = \"proto3\";\npackage envoy.config.core.v3;\nmessage Address {}\n"),
        ("alpha.proto", "syntax = \"proto3\";\npackage envoy.extensions.config.v3alpha;\nmessage Other {}\n"),
    ]);
    let field = &message(&schema.files["main.proto"], "envoy.extensions.filters.v3.M").fields[0];
    assert_eq!(
        field.type_name.as_deref(),
        Some("envoy.config.core.v3.Address")
    );
    // A package seen through an import still captures the name, as in protoc: `a.b.config.T`
    // is then looked for, and missing.
    let errors = build_errors(&[
        (
            "main.proto",
            "syntax = \"proto3\";\npackage a.b;\nimport \"other.proto\";\nimport \"core.proto\";\nmessage M {\n  config.T t = 1;\n}\n",
        ),
        core,
        ("other.proto", "syntax = \"proto3\";\npackage a.b.config;\nmessage U {}\n"),
    ]);
    assert_eq!(
        errors,
        vec!["cannot resolve type `config.T`: it resolves to `a.b.config.T`, which is not defined (the innermost scope is searched first; `.config.T` starts from the outermost)"]
    );
}

/// "Add an import" is advised only when importing that one file resolves the name to a type
/// declared there.
#[test]
fn the_import_advice_names_the_file_that_resolves_the_name() {
    // `a.b.config` (g.proto) and `a.config` (f.proto) are both invisible: importing f.proto
    // resolves `config.T` to `a.config.T`.
    let files = [
        (
            "main.proto",
            "syntax = \"proto3\";\npackage a.b;\nmessage M {\n  config.T t = 1;\n}\n",
        ),
        (
            "g.proto",
            "syntax = \"proto3\";\npackage a.b.config;\nmessage U {}\n",
        ),
        (
            "f.proto",
            "syntax = \"proto3\";\npackage a.config;\nmessage T {}\n",
        ),
    ];
    assert_eq!(
        build_errors(&files),
        vec!["cannot resolve type `config.T`: `a.config.T` is defined in \"f.proto\", which this file does not import"]
    );
    // No file would resolve it: no advice.
    assert_eq!(
        build_errors(&files[..2]),
        vec!["cannot resolve type `config.T`"]
    );
}

/// Edition 2024's features of descriptor.proto (protobuf v36.0), with their targets and the
/// edition that introduced them (protoc 35.1 and buf 1.75.0 give the same verdicts).
#[test]
fn edition_2024_features_are_known_from_their_edition_on() {
    build(&[(
        "a.proto",
        "edition = \"2024\";\noption features.enforce_naming_style = STYLE_LEGACY;\noption features.default_symbol_visibility = EXPORT_ALL;\nmessage foo_bar {\n  option features.enforce_naming_style = STYLE_LEGACY;\n  int32 x = 1 [features.enforce_naming_style = STYLE_LEGACY];\n}\nenum E {\n  option features.enforce_naming_style = STYLE_LEGACY;\n  E_A = 0 [features.enforce_naming_style = STYLE_LEGACY];\n}\n",
    )]);
    let errors = |text: &str| build_errors(&[("a.proto", text)]);
    assert_eq!(
        errors("edition = \"2023\";\noption features.enforce_naming_style = STYLE_LEGACY;\n"),
        vec!["feature `enforce_naming_style` was introduced in edition 2024 and cannot be used in edition 2023"]
    );
    assert_eq!(
        errors("edition = \"2023\";\noption features.default_symbol_visibility = EXPORT_ALL;\n"),
        vec!["feature `default_symbol_visibility` was introduced in edition 2024 and cannot be used in edition 2023"]
    );
    assert_eq!(
        errors("edition = \"2024\";\nmessage M {\n  option features.default_symbol_visibility = EXPORT_ALL;\n}\n"),
        vec!["feature `default_symbol_visibility` cannot be set on a message"]
    );
    assert_eq!(
        errors("edition = \"2024\";\nmessage M {\n  option features.enforce_proto_limits = LEGACY_NO_EXPLICIT_LIMITS;\n}\n"),
        vec!["feature `enforce_proto_limits` was introduced in edition 2026 and cannot be used in edition 2024"]
    );
}

/// The bundled descriptor.proto (v36.0) declares `extensions 990 to 998` on the options
/// messages, and `google/protobuf/compiler/plugin.proto` is bundled. (MessageOptions: on
/// FileOptions, 990 is declared for `pb.file.cpp`: buf enforces it, protoc and we do not.)
#[test]
fn current_well_known_types_resolve() {
    let schema = build(&[(
        "a.proto",
        "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\nimport \"google/protobuf/compiler/plugin.proto\";\nextend google.protobuf.MessageOptions {\n  optional int32 lang = 990;\n}\nmessage M {\n  optional google.protobuf.compiler.CodeGeneratorRequest request = 1;\n}\n",
    )]);
    let file = &schema.files["a.proto"];
    assert_eq!(
        file.extensions[0].extendee(),
        Some("google.protobuf.MessageOptions")
    );
    assert_eq!(
        message(file, "M").fields[0].type_name.as_deref(),
        Some("google.protobuf.compiler.CodeGeneratorRequest")
    );
}

/// protoc's compiled-in descriptor.proto has no extension declarations (they are
/// source-retention options): protoc 35.1 accepts 991 on FileOptions (undeclared, in the
/// declared range 990 to 998) and 990 under another name than the declared `.pb.file.cpp`.
/// buf refuses the second; we follow protoc.
#[test]
fn the_bundled_options_messages_check_no_extension_declarations() {
    let schema = build(&[(
        "a.proto",
        "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\nextend google.protobuf.FileOptions {\n  optional int32 mine = 990;\n  optional int32 other = 991;\n}\n",
    )]);
    let numbers: Vec<i64> = schema.files["a.proto"]
        .extensions
        .iter()
        .map(|e| e.number)
        .collect();
    assert_eq!(numbers, vec![990, 991]);
}

/// protoc reads an integer literal beyond 64 bits in a `default` as a double: valid for
/// double and float fields, out of range for integer fields (protoc 35.1 and buf 1.75.0
/// agree on each verdict).
#[test]
fn an_integer_beyond_u64_is_a_floating_point_default() {
    let schema = build(&[(
        "a.proto",
        "syntax = \"proto2\";\nmessage M {\n  optional double d = 1 [default = 18446744073709551616];\n  optional float f = 2 [default = -99999999999999999999999];\n}\n",
    )]);
    let fields = &message(&schema.files["a.proto"], "M").fields;
    let defaults: Vec<_> = fields.iter().map(|f| f.default_value()).collect();
    assert_eq!(defaults, [Some("1.8446744073709552e+19"), Some("-1e+23")]);
    for ty in ["int64", "uint64"] {
        let text = format!(
            "syntax = \"proto2\";\nmessage M {{\n  optional {ty} x = 1 [default = 18446744073709551616];\n}}\n"
        );
        assert_eq!(
            build_errors(&[("a.proto", &text)]),
            vec![format!(
                "default value 18446744073709551616 is out of range for `{ty}`"
            )]
        );
    }
    // In any option value protoc reads it as a double too (valid for a custom `double`
    // option): a bool option refuses it as a bool would refuse any number.
    assert_eq!(
        build_errors(&[(
            "a.proto",
            "syntax = \"proto2\";\nmessage M {\n  optional int64 x = 1 [deprecated = 18446744073709551616];\n}\n"
        )]),
        vec!["option `deprecated` is a bool: its value must be `true` or `false`"]
    );
}

/// `double` and `float` defaults read as protoc 35.1 writes them into `default_value`
/// (`%.15g`, else `%.17g`), checked against `protoc -o` on the same input.
#[test]
fn float_defaults_are_printed_as_protoc_prints_them() {
    let schema = build(&[(
        "a.proto",
        "syntax = \"proto2\";\nmessage M {\n\
         optional double c = 3 [default = 0.1];\n  optional double d = 4 [default = 1e15];\n\
         optional double e = 5 [default = 0.00001];\n  optional float f = 6 [default = 0.1];\n\
         optional double g = 7 [default = -inf];\n  optional double h = 8 [default = 123456789012345678];\n\
         optional double i = 9 [default = 5];\n  optional double j = 10 [default = -0.0];\n}\n",
    )]);
    let fields = &message(&schema.files["a.proto"], "M").fields;
    let defaults: Vec<_> = fields.iter().map(|f| f.default_value()).collect();
    let protoc = [
        "0.1",
        "1e+15",
        "1e-05",
        "0.1",
        "-inf",
        "1.2345678901234568e+17",
        "5",
        "-0",
    ];
    assert_eq!(defaults, protoc.map(Some));
}

/// protoc accepts octal escapes up to `\777` and keeps the low byte (`\400` is 0, `\501` is
/// `A`); string values keep their exact bytes (`\777` is 0xff, C-escaped in the descriptor form).
#[test]
fn octal_escapes_above_377_keep_the_low_byte() {
    let schema = build(&[(
        "a.proto",
        "syntax = \"proto2\";\nmessage M {\n  optional bytes b = 1 [default = \"\\400\\501\\777\"];\n}\n",
    )]);
    let field = &message(&schema.files["a.proto"], "M").fields[0];
    assert_eq!(field.default_value(), Some("\\000A\\377"));
}
