//! Custom options past their first name part: name paths, message literals, values set
//! twice, required fields (`custom_options`, `message_literals`), each on its smallest
//! input with the exact message and the text its span covers.

use super::tests::{error, one_file};

/// A file option `(f)` of message type `Foo`, and extensions of `Foo`.
const DECLARED: &str = "syntax = \"proto2\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\n\
     enum E { ZERO = 0; ONE = 1; }\n\
     message Foo {\n  optional string a = 1;\n  repeated int32 r = 2;\n  optional Foo inner = 3;\n  optional E e = 4;\n  oneof o { int32 x = 5; int32 y = 6; }\n  map<string, int32> m = 7;\n  optional double d = 8;\n  optional bool b = 9;\n  extensions 100 to 200;\n}\n\
     extend Foo { optional int32 ext = 100; }\n\
     extend google.protobuf.FileOptions {\n  optional Foo f = 20000;\n  repeated Foo rf = 20001;\n  optional E en = 20002;\n  optional double dbl = 20003;\n}\n";

fn with(options: &str) -> Vec<(String, String)> {
    one_file(&format!("{DECLARED}{options}\n"))
}

#[test]
fn valid_custom_options_pass() {
    let options = "option (f).a = \"x\";\noption (f).inner.a = \"y\";\noption (f).(ext) = 1;\n\
         option (f).r = 1;\noption (f).r = 2;\noption (en) = ONE;\noption (dbl) = 5;\n\
         option (rf) = { a: \"1\" r: [1, 2] r: 3, inner < a: \"z\" >; e: ONE };\n\
         option (rf) = { m { key: \"k\" value: 1 } m: [{ key: \"l\" value: 2 }] [p.ext]: 5 x: 1 };\n\
         option (rf) = { d: 1 d: 2 } ;";
    // `d` twice in one literal is an error; the rest is valid.
    assert_eq!(
        with(options),
        error(
            "message literal: field `d` is not repeated and is set more than once",
            "d"
        )
    );
    let valid = "option (rf) = { e: 1 d: -inf b: t inner {} a: \"x\" \"y\" };\n\
         option (rf) = { d: 1e5 b: 1 inner: < e: ZERO > r: [] };\n\
         option (rf) = { inner: { } };";
    assert_eq!(with(valid), []);
}

/// protoc: `Option "(f).b" unknown. Ensure that your proto definition file imports the proto
/// which defines the option ...`
#[test]
fn an_unknown_field_after_a_custom_option() {
    assert_eq!(
        with("option (f).zz = 1;"),
        error(
            "option `(f).zz` is unknown: `p.Foo` has no field `zz`",
            "zz"
        )
    );
}

/// protoc: `Option "(f).a.b" is an atomic type, not a message.`
#[test]
fn a_field_of_a_scalar_option() {
    assert_eq!(
        with("option (f).a.b = 1;"),
        error(
            "option `(f).a.b`: `(f).a` is a string, not a message: it has no fields",
            "b"
        )
    );
}

/// protoc: `Option field "(rf)" is a repeated message. Repeated message options must be
/// initialized using an aggregate value.`
#[test]
fn a_field_of_a_repeated_message_option() {
    assert_eq!(
        with("option (rf).a = \"x\";"),
        error(
            "option `(rf).a`: `(rf)` is a repeated message: set it with a message literal, `(rf) = { ... }`",
            "a"
        )
    );
}

/// protoc: `Option "(msga).(f)" unknown.`: an extension part is looked up from the scope the
/// message is declared in, not from inside it.
#[test]
fn an_extension_part_resolves_from_the_scope_of_the_element() {
    let text = "syntax = \"proto2\";\npackage foo;\nimport \"google/protobuf/descriptor.proto\";\n\
         message A { extensions 1 to 100; }\n\
         extend google.protobuf.MessageOptions { optional A msga = 10000; }\n\
         message B {\n  message C { extend A { optional float f = 2; } }\n  option (msga).(C.f) = 5.67;\n}\n";
    assert_eq!(
        one_file(text),
        error(
            "option `(msga).(C.f)` is unknown: no extension `C.f` of `foo.A` is visible here",
            "(C.f)"
        )
    );
    assert_eq!(one_file(&text.replace("(C.f)", "(B.C.f)")), []);
}

/// protoc: `Error while parsing option value for "f": Message type "Foo" has no field named
/// "zz".`
#[test]
fn an_unknown_field_in_a_message_literal() {
    assert_eq!(
        with("option (f) = { zz: 1 };"),
        error("message literal: `p.Foo` has no field named `zz`", "zz")
    );
}

/// protoc: `Value must be quoted string for string option "foo.a".` and `Integer out of
/// range (2147483648)`.
#[test]
fn wrong_value_types() {
    assert_eq!(
        with("option (f).a = 1;"),
        error(
            "option `(f).a` is a string: its value must be a quoted string",
            "1"
        )
    );
    assert_eq!(
        with("option (f) = { a: 1 };"),
        error(
            "message literal: field `a` is a string: its value must be a quoted string",
            "1"
        )
    );
    assert_eq!(
        with("option (f) = { e: 2147483648 };"),
        error(
            "message literal: field `e`: 2147483648 is out of range for enum (-2147483648 to 2147483647)",
            "2147483648"
        )
    );
    assert_eq!(
        with("option (f) = { e: TWO };"),
        error(
            "message literal: field `e`: enum `p.E` has no value named `TWO`",
            "TWO"
        )
    );
    assert_eq!(
        with("option (en) = TWO;"),
        error(
            "option `(en)`: enum `p.E` has no value named `TWO` (its values: ZERO, ONE)",
            "TWO"
        )
    );
    // protoc: `Expected double, got: +`.
    assert_eq!(
        with("option (f) = { d: +1 };"),
        error("message literal: expected a value, found `+`", "+")
    );
}

/// protoc: `Error while parsing option value for "f": Expected string, got: [` and `Expected
/// ":", found "["`.
#[test]
fn lists_only_on_repeated_fields_and_after_a_colon() {
    assert_eq!(
        with("option (f) = { a: [\"x\"] };"),
        error(
            "message literal: field `a` is not repeated: it takes one value, not a list",
            "[\"x\"]"
        )
    );
    assert_eq!(
        with("option (f) = { r [1, 2] };"),
        error(
            "message literal: field `r` is a int32: write `r: value`",
            "[1, 2]"
        )
    );
}

/// protoc: `Field "y" is specified along with field "x", another member of oneof "o".`
#[test]
fn two_members_of_a_oneof_in_a_literal() {
    assert_eq!(
        with("option (f) = { x: 1 y: 2 };"),
        error(
            "message literal: field `y` and field `x` are both members of oneof `o`: only one may be set",
            "y"
        )
    );
}

/// protoc: `Extension "ext" is not defined or is not an extension of "p.Foo".`, and `Invalid
/// identifier in type name, got: ""` for a leading dot.
#[test]
fn extensions_in_a_literal() {
    assert_eq!(
        with("option (f) = { [ext]: 1 [p.ext]: 2 };"),
        error(
            "message literal: field `ext` is not repeated and is set more than once",
            "[p.ext]"
        )
    );
    assert_eq!(
        with("option (f) = { [a]: 1 };"),
        error(
            "message literal: `[a]` is not an extension of `p.Foo` visible here",
            "[a]"
        )
    );
    assert_eq!(
        with("option (f) = { [.p.ext]: 1 };"),
        error("message literal: expected a name, found `.`", ".")
    );
}

/// protoc: `Could not find type "type.googleapis.com/Foo" stored in google.protobuf.Any.` and
/// `Non-repeated Any specified multiple times.`
#[test]
fn any_expansion() {
    let declared = "syntax = \"proto3\";\npackage p;\nimport \"google/protobuf/any.proto\";\n\
         import \"google/protobuf/descriptor.proto\";\nmessage Foo { string a = 1; }\n\
         extend google.protobuf.FileOptions { google.protobuf.Any any = 20000; Foo f = 20001; }\n";
    let any = |option: &str| one_file(&format!("{declared}{option}\n"));
    assert_eq!(
        any("option (any) = { [type.googleapis.com/p.Foo] { a: \"x\" } };"),
        []
    );
    assert_eq!(
        any("option (any) = { [type.googleapis.com/Foo] { a: \"x\" } };"),
        error(
            "message literal: no message type `type.googleapis.com/Foo` can be stored in this google.protobuf.Any (the domain must be type.googleapis.com or type.googleprod.com, the type fully qualified and visible)",
            "[type.googleapis.com/Foo]"
        )
    );
    assert_eq!(
        any("option (any) = { [type.googleapis.com/p.Foo] {} [type.googleapis.com/p.Foo] {} };"),
        error(
            "message literal: a google.protobuf.Any holds one message: it is expanded more than once",
            "[type.googleapis.com/p.Foo]"
        )
    );
    assert_eq!(
        any("option (f) = { [type.googleapis.com/p.Foo] {} };"),
        error(
            "message literal: `[type.googleapis.com/p.Foo]` expands a google.protobuf.Any, but this is a `p.Foo`",
            "[type.googleapis.com/p.Foo]"
        )
    );
}

/// protoc: `Option "(f)" was already set.` and `Option "(f).a" was already set.`
#[test]
fn a_custom_option_set_twice() {
    assert_eq!(
        with("option (f) = { a: \"a\" };\noption (f).a = \"b\";"),
        error("option `(f).a` is already set", "(f).a")
    );
    assert_eq!(
        with("option (f).a = \"a\";\noption (f) = { r: 1 };"),
        error("option `(f)` is already set", "(f)")
    );
    assert_eq!(
        with("option (dbl) = 1;\noption (dbl) = 2;"),
        error("option `(dbl)` is already set", "(dbl)")
    );
}

#[test]
fn a_custom_option_set_twice_under_two_names() {
    assert_eq!(
        with("option (dbl) = 1;\noption (p.dbl) = 2;"),
        error("option `(p.dbl)` is already set", "(p.dbl)")
    );
}

/// buf: `required field foo.b not set`; protoc: `Message missing required fields: b`.
#[test]
fn required_fields_of_a_message_option() {
    let declared = "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\n\
         message Req { required string a = 1; required string b = 2; }\n\
         extend google.protobuf.FileOptions { optional Req req = 20000; }\n";
    assert_eq!(
        one_file(&format!("{declared}option (req).a = \"a\";\n")),
        error(
            "required field `b` of `Req` is not set",
            "option (req).a = \"a\";"
        )
    );
    assert_eq!(
        one_file(&format!(
            "{declared}option (req) = {{ a: \"a\" b: \"b\" }};\n"
        )),
        []
    );
}

/// A group is named by its field name or its type's name in a literal, and only by its
/// field name in an option name (protoc: `Option "(foo).Bar" unknown.`).
#[test]
fn groups_in_literals() {
    let declared = "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\n\
         message Foo { optional group Bar = 1 { optional string name = 1; } }\n\
         extend google.protobuf.MessageOptions { optional Foo foo = 10001; }\n";
    let message = |option: &str| one_file(&format!("{declared}message Baz {{ {option} }}\n"));
    assert_eq!(message("option (foo) = { Bar < name: \"a\" > };"), []);
    assert_eq!(message("option (foo) = { bar < name: \"a\" > };"), []);
    assert_eq!(message("option (foo).bar.name = \"a\";"), []);
    assert_eq!(
        message("option (foo).Bar.name = \"a\";"),
        error(
            "option `(foo).Bar.name` is unknown: `Foo` has no field `Bar`",
            "Bar"
        )
    );
}

/// An integer literal beyond 64 bits is a valid `double` or `float` value (protoc reads it
/// as a double), not an integer one.
#[test]
fn a_big_integer_for_a_double_option() {
    assert_eq!(with("option (dbl) = 18446744073709551616;"), []);
    assert_eq!(with("option (f) = { d: 18446744073709551616 };"), []);
    assert_eq!(
        with("option (f) = { e: 18446744073709551616 };"),
        error(
            "message literal: field `e` is an enum: its value must be a value name or number",
            "18446744073709551616"
        )
    );
}
