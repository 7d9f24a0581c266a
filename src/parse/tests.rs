//! Parser tests: the grammar pieces, spans, and exact error messages and spans.

use super::ast::*;
use super::*;

fn parse_ok(text: &str) -> FileAst {
    let parsed = parse(text);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    parsed.ast
}

/// The errors as `line:col-line:col message`, for compact exact assertions.
fn errors(text: &str) -> Vec<String> {
    parse(text)
        .errors
        .iter()
        .map(|(span, message)| {
            let (l1, c1) = crate::syntax::line_col(text, span.start);
            let (l2, c2) = crate::syntax::line_col(text, span.end);
            format!("{l1}:{c1}-{l2}:{c2} {message}")
        })
        .collect()
}

fn first_message(ast: &FileAst) -> &MessageDecl {
    ast.items
        .iter()
        .find_map(|i| match i {
            TopItem::Message(m) => Some(m),
            _ => None,
        })
        .expect("a message")
}

#[test]
fn full_grammar_parses() {
    let text = r#"
syntax = "proto2";
package a.b;
import public "x.proto";
import weak "y.proto";
option java_package = "com" ".x";
option (my.ext).inner.(other.x) = { a: 1 b: [1, 2] c { d: "e" } };
message M {
  option (x) = -inf;
  ;
  required int32 a = 1 [default = -5, json_name = "A"];
  repeated .a.b.M m = 2 [packed = true];
  map<string, M> by_name = 3;
  optional group G = 4 [deprecated = true] { optional int32 x = 1; }
  oneof choice {
    option (o) = 1;
    string s = 5;
    group H = 6 { }
  }
  extensions 100 to 199, 300 to max [(decl) = 1];
  reserved 7, 8 to 10, 20 to max;
  reserved "foo", "bar";
  extend M { optional int32 ext = 101; }
  message N { enum E { X = 0; } }
}
enum E {
  option allow_alias = true;
  A = 0;
  B = -1 [deprecated = true];
  reserved -5 to -3, 100 to max;
  reserved "C";
}
service S {
  option deprecated = true;
  rpc A (M) returns (stream .a.b.M);
  rpc B (stream M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; }
}
extend M { optional string top = 102; }
"#;
    let ast = parse_ok(text);
    let message = first_message(&ast);
    assert_eq!(message.name.text, "M");
    assert_eq!(message.body.len(), 11);
    let option = ast.items.iter().find_map(|i| match i {
        TopItem::Option(o) if o.name.len() > 1 => Some(o),
        _ => None,
    });
    let option = option.expect("extension option");
    assert_eq!(option.canonical_name(), "(my.ext).inner.(other.x)");
    assert_eq!(
        option.value,
        crate::syntax::OptionValue::Aggregate(r#"{ a: 1 b: [1, 2] c { d: "e" } }"#.into())
    );
}

#[test]
fn editions_syntax() {
    let text = r#"edition = "2024";
package p;
import option "opt.proto";
export message M {
  int32 a = 1 [features.field_presence = LEGACY_REQUIRED];
  reserved foo, bar;
}
local enum E { A = 0; }
"#;
    let ast = parse_ok(text);
    assert_eq!(ast.syntax.as_ref().map(|s| s.value.as_str()), Some("2024"));
    let message = first_message(&ast);
    let MessageItem::Reserved(reserved) = &message.body[1] else {
        panic!("reserved expected");
    };
    assert_eq!(reserved.names[0].text, "foo");
}

#[test]
fn field_spans() {
    let text =
        "syntax = \"proto3\";\nmessage M {\n  optional foo.Bar name = 12 [json_name = \"x\"];\n}\n";
    let ast = parse_ok(text);
    let MessageItem::Field(field) = &first_message(&ast).body[0] else {
        panic!("field expected");
    };
    let slice = |s: crate::syntax::Span| &text[s.range()];
    assert_eq!(
        slice(field.span),
        "optional foo.Bar name = 12 [json_name = \"x\"];"
    );
    assert_eq!(slice(field.label.unwrap().1), "optional");
    assert_eq!(slice(field.type_span), "foo.Bar");
    assert_eq!(slice(field.name.span), "name");
    assert_eq!(slice(field.number_span), "12");
    assert_eq!(slice(field.options[0].span), "json_name = \"x\"");
    assert_eq!(slice(ast.syntax.unwrap().span), "syntax = \"proto3\";");
}

#[test]
fn missing_semicolon_after_field_number() {
    assert_eq!(
        errors("syntax = \"proto3\";\nmessage M {\n  int32 a = 1\n}\n"),
        vec!["3:14-3:14 expected `;` after field number, found `}`"]
    );
}

#[test]
fn group_name_in_lower_case() {
    assert_eq!(
        errors("syntax = \"proto2\";\nmessage M {\n  optional group foo = 1 {}\n}\n"),
        vec!["3:18-3:21 group names must start with a capital letter"]
    );
}

#[test]
fn missing_semicolon_after_options() {
    assert_eq!(
        errors("syntax = \"proto3\";\nmessage M {\n  int32 a = 1 [deprecated = true]\n}\n"),
        vec!["3:34-3:34 expected `;` after field options, found `}`"]
    );
}

#[test]
fn a_forgotten_semicolon_does_not_hide_the_next_line() {
    assert_eq!(
        errors("syntax = \"proto3\";\nmessage M {\n  int32 a = 1\n  strin b = \n}\n"),
        vec![
            "3:14-3:14 expected `;` after field number, found `strin`",
            "4:12-4:12 expected field number, found `}`",
        ]
    );
}

#[test]
fn several_errors_are_recovered() {
    assert_eq!(
        errors(
            "syntax = \"proto3\";\nmessage M {\n  int32 = 1;\n  string b = ;\n  bool c = 3;\n}\nenum E { A 0; }\n"
        ),
        vec![
            "3:9-3:10 expected field name, found `=`",
            "4:14-4:15 expected field number, found `;`",
            "7:12-7:13 expected `=` after enum value name `A`, found number",
        ]
    );
}

#[test]
fn bad_syntax_and_eof() {
    assert_eq!(
        errors("syntax = \"proto4\";\nmessage M {"),
        vec![
            "1:10-1:18 unknown syntax \"proto4\": expected \"proto2\" or \"proto3\"",
            "2:12-2:12 expected `}` to close the message, found end of file",
        ]
    );
}

#[test]
fn editions_reject_labels() {
    assert_eq!(
        errors("edition = \"2023\";\nmessage M { optional int32 a = 1; }\n"),
        vec![
            "2:13-2:21 label `optional` is not allowed in editions; use `features.field_presence`"
        ]
    );
}

/// As in protoc (buf accepts each of these as a field of a type named like the keyword),
/// the first word of a statement decides what it is.
#[test]
fn a_statement_keyword_never_starts_a_field() {
    let proto3 = |body: &str| errors(&format!("syntax = \"proto3\";\nmessage Foo {{ {body} }}\n"));
    // protoc: `Expected "{".`
    assert_eq!(
        proto3("message bar = 1;"),
        vec!["2:27-2:28 expected `{` after message name `bar`, found `=`"]
    );
    assert_eq!(
        proto3("enum bar = 1;"),
        vec!["2:24-2:25 expected `{` after enum name `bar`, found `=`"]
    );
    // protoc: `Expected field name.`: the label is a label, `bar` the type.
    assert_eq!(
        proto3("optional bar = 1;"),
        vec!["2:28-2:29 expected field name, found `=`"]
    );
    assert_eq!(
        proto3("repeated bar = 1;"),
        vec!["2:28-2:29 expected field name, found `=`"]
    );
    // protoc: `Reserved names must be string literals. (Only editions supports identifiers.)`
    assert_eq!(
        proto3("reserved bar = 1;"),
        vec!["2:24-2:27 reserved names must be string literals before editions (write `\"name\"`)"]
    );
}

#[test]
fn an_enum_has_no_value_named_option_or_reserved() {
    // protoc: `Expected identifier.` and `Expected enum value or number range.`
    assert_eq!(
        errors("enum Foo { option = 1; }\n"),
        vec!["1:19-1:20 expected option name, found `=`"]
    );
    assert_eq!(
        errors("enum Foo { reserved = 1; }\n"),
        vec!["1:21-1:22 expected a number in the range, found `=`"]
    );
}

/// protoc's type-name table (scalars and `group`) and `map` make a whole field type.
#[test]
fn a_type_keyword_is_a_whole_type() {
    // protoc: `Expected field name.`
    assert_eq!(
        errors("syntax = \"proto2\";\nmessage Foo { optional group.Bar foo = 1; }\n"),
        vec!["2:29-2:30 expected field name, found `.`"]
    );
    assert_eq!(
        errors("syntax = \"proto3\";\nmessage Foo { string.Bar foo = 1; }\n"),
        vec!["2:21-2:22 expected field name, found `.`"]
    );
    assert_eq!(
        errors("syntax = \"proto3\";\nmessage Foo { map.Bar foo = 1; }\n"),
        vec!["2:18-2:19 expected field name, found `.`"]
    );
    // A message named `map`, and fully-qualified names, are fine.
    parse_ok("syntax = \"proto3\";\nmessage Foo { map foo = 1; .string.Bar bar = 2; }\n");
}

#[test]
fn visibility_words_start_only_messages_and_enums_from_edition_2024() {
    // protoc: `'local' and 'export' visibility modifiers are valid only on 'message' and 'enum'`
    let text = "edition = \"2024\";\npackage export;\nmessage M {\n  export.M field = 1;\n}\n";
    assert_eq!(
        errors(text),
        vec!["4:9-4:10 `export` may only come before `message` or `enum`"]
    );
    assert_eq!(
        errors("edition = \"2024\";\nlocal service S {}\n"),
        vec!["2:7-2:14 `local` may only come before `message` or `enum`"]
    );
    // Before 2024 they are plain names; in a oneof or `extend` block, always.
    parse_ok("edition = \"2023\";\npackage export;\nmessage M {\n  export.M field = 1;\n}\n");
    parse_ok(
        "edition = \"2024\";\npackage export;\nmessage M {\n  oneof o { export.M field = 1; }\n}\n",
    );
}

#[test]
fn oneof_and_extend_blocks_have_no_empty_statements() {
    // protoc: `Expected type name.` at the `;`.
    assert_eq!(
        errors("syntax = \"proto3\";\nmessage M {\n  oneof o {\n    string a = 1;\n    ;\n  }\n}\n"),
        vec!["5:5-5:6 expected a field, found `;` (a oneof or `extend` block has no empty statements)"]
    );
    assert_eq!(
        errors("syntax = \"proto2\";\nextend M {\n  optional string a = 1;\n  ;\n}\n"),
        vec!["4:3-4:4 expected a field, found `;` (a oneof or `extend` block has no empty statements)"]
    );
    // Messages, enums and services do.
    parse_ok("syntax = \"proto3\";\nmessage M { ; }\nenum E { ; A = 0; }\nservice S { ; }\n");
}

#[test]
fn only_a_message_type_where_protoc_wants_one() {
    // protoc: `Expected message type.`
    assert_eq!(
        errors("syntax = \"proto3\";\nservice S { rpc Foo(string) returns (M); }\n"),
        vec!["2:21-2:27 expected a message type for the method input type, found `string`"]
    );
    assert_eq!(
        errors("syntax = \"proto2\";\nextend string.Foo { optional int32 a = 1; }\n"),
        vec!["2:8-2:14 expected a message type for the extended message name, found `string`"]
    );
    // protoc: `Expected type name.`: `stream` is always the keyword.
    assert_eq!(
        errors("syntax = \"proto3\";\nservice S { rpc Foo(stream) returns (M); }\n"),
        vec!["2:27-2:28 expected method input type, found `)`"]
    );
    // protoc: `Field with message or enum type missing type_name.`
    assert_eq!(
        errors("syntax = \"proto2\";\nmessage M { map<string, group> m = 1; }\n"),
        vec!["2:25-2:30 a map value cannot be a group"]
    );
    parse_ok("syntax = \"proto3\";\nservice S { rpc Foo(stream .M) returns (stream M); }\n");
}

#[test]
fn the_unstable_edition_parses() {
    // Refused outside protobuf's own files by the link stage (`declarations::unstable_edition`).
    parse_ok("edition = \"UNSTABLE\";\nmessage M { int32 a = 1; }\n");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let depth = 10_000;
    let text = format!("{}{}", "message M {".repeat(depth), "}".repeat(depth));
    let parsed = parse(&text);
    assert_eq!(parsed.errors.len(), 1);
    assert!(parsed.errors[0].1.starts_with("nesting is too deep"));
    let aggregate = format!("option (x) = {}{};", "{a ".repeat(depth), "}".repeat(depth));
    assert!(!parse(&aggregate).errors.is_empty());
}

#[test]
fn arbitrary_bytes_never_panic() {
    let samples = [
        "",
        "}",
        "{{{{",
        "message",
        "message M {",
        "syntax",
        "syntax = ",
        "enum E { A = - }",
        "option = ;",
        "rpc",
        "service S { rpc A( returns ( ; }",
        "map<",
        "message M { map<int32,",
        "extend",
        "message M { oneof o { optional int32 a = 1; } }",
        "reserved 1 to",
        "\"\\",
        "import",
        "package ;",
        "message M { int32 a = 99999999999999999999; }",
        "enum E { A = 99999999999; }",
        "message M { extensions 1 to max [; }",
    ];
    for text in samples {
        let _ = parse(text);
    }
    // Every prefix of a real file.
    let text = "syntax = \"proto2\";\npackage a;\nmessage M { optional group G = 1 { required int32 x = 1 [default = 5]; } map<string, int32> m = 2; }\nservice S { rpc R (M) returns (stream M) { option deprecated = true; } }\n";
    for end in 0..text.len() {
        let _ = parse(&text[..end]);
    }
}
