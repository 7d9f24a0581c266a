//! Extension declarations (`extension_declarations`), each rule on its smallest input with
//! the exact message and the text its span covers.

use super::tests::{error, one_file};

/// A proto2 file declaring message `A` with one extension range and these range options.
fn range(options: &str) -> String {
    format!(
        "syntax = \"proto2\";\npackage foo;\nmessage A {{\n  extensions 1 to 3 [{options}];\n}}\n"
    )
}

const DECLARED: &str = "declaration = { number: 1 full_name: \".foo.bar\" type: \"string\" }";

#[test]
fn valid_declarations_pass() {
    let text = range(
        "declaration = { number: 1, full_name: \".foo.bar\", type: \".foo.A\" },\n\
         declaration = { number: 2 reserved: true },\n\
         declaration = { number: 3 full_name: \".foo.baz\" type: \"int32\" repeated: true reserved: true },\n\
         verification = DECLARATION",
    );
    assert_eq!(one_file(&text), []);
    let with_extensions = format!(
        "{}extend A {{ optional A bar = 1; }}\n",
        range(DECLARED).replace("\"string\"", "\".foo.A\"")
    );
    assert_eq!(one_file(&with_extensions), []);
}

/// protoc: `Extension declaration number 5 is not in the extension range.`
#[test]
fn a_declaration_outside_its_range() {
    let option = "declaration = { number: 5 full_name: \".foo.bar\" type: \"int32\" }";
    assert_eq!(
        one_file(&range(option)),
        error(
            "extension declaration number 5 is not in the extension range 1 to 3",
            option
        )
    );
}

/// protoc: `Extension declaration number 1 is declared multiple times.` and `Extension field
/// name ".foo.bar" is declared multiple times.`
#[test]
fn a_number_or_name_declared_twice() {
    let second = "declaration = { number: 1 full_name: \".foo.baz\" type: \"int32\" }";
    assert_eq!(
        one_file(&range(&format!("{DECLARED}, {second}"))),
        error(
            "extension declaration number 1 is declared more than once",
            second
        )
    );
    let second = "declaration = { number: 2 full_name: \".foo.bar\" type: \"int32\" }";
    assert_eq!(
        one_file(&range(&format!("{DECLARED}, {second}"))),
        error("extension `.foo.bar` is declared more than once", second)
    );
}

/// protoc: `Extension declaration #1 should have both "full_name" and "type" set.`
#[test]
fn a_declaration_without_name_or_type() {
    let option = "declaration = { number: 1 type: \"int32\" }";
    assert_eq!(
        one_file(&range(option)),
        error(
            "extension declaration #1 (number 1) must set both `full_name` and `type` (a `reserved` one may set neither)",
            option
        )
    );
}

/// protoc: `"foo.bar" must have a leading dot to indicate the fully-qualified scope.` and
/// `".123.5-7.Foobar" contains invalid identifiers.`
#[test]
fn names_and_types_are_fully_qualified() {
    let option = "declaration = { number: 1 full_name: \"foo.bar\" type: \"int32\" }";
    assert_eq!(
        one_file(&range(option)),
        error(
            "extension declaration: full name \"foo.bar\" must start with a dot (it is fully qualified)",
            option
        )
    );
    let option = "declaration = { number: 1 full_name: \".foo.bar\" type: \".5-7.X\" }";
    assert_eq!(
        one_file(&range(option)),
        error(
            "extension declaration: type \".5-7.X\" is not a dotted name of identifiers",
            option
        )
    );
}

/// protoc: `Cannot mark the extension range as UNVERIFIED when it has extension(s) declared.`
#[test]
fn declarations_in_an_unverified_range() {
    assert_eq!(
        one_file(&range(&format!("{DECLARED}, verification = UNVERIFIED"))),
        error(
            "an extension range with declarations cannot be `verification = UNVERIFIED`",
            "verification = UNVERIFIED"
        )
    );
}

/// protoc: `"foo.A" extension field 1 is expected to have field name ".foo.bar", not
/// ".foo.s".`, `... is expected to be repeated.`, `... is expected to be type "string", not
/// "uint32".`
#[test]
fn an_extension_must_match_its_declaration() {
    let with =
        |extension: &str| one_file(&format!("{}extend A {{ {extension} }}\n", range(DECLARED)));
    assert_eq!(with("optional string bar = 1;"), []);
    assert_eq!(
        with("optional string s = 1;"),
        error(
            "extension 1 of `foo.A` is declared as \".foo.bar\", not \".foo.s\"",
            "s"
        )
    );
    assert_eq!(
        with("repeated string bar = 1;"),
        error("extension 1 of `foo.A` is declared optional", "repeated")
    );
    assert_eq!(
        with("optional uint32 bar = 1;"),
        error(
            "extension 1 of `foo.A` is declared of type \"string\", not \"uint32\"",
            "uint32"
        )
    );
}

/// protoc: `Cannot use number 2 for extension field foo.s, as it is reserved in the extension
/// declarations for message foo.A.` and `Missing extension declaration for field foo.s with
/// number 3 in extendee message foo.A. ...`
#[test]
fn reserved_and_undeclared_numbers() {
    let options = format!("{DECLARED}, declaration = {{ number: 2 reserved: true }}");
    let with =
        |extension: &str| one_file(&format!("{}extend A {{ {extension} }}\n", range(&options)));
    assert_eq!(
        with("optional string s = 2;"),
        error(
            "extension `foo.s` cannot use number 2: it is reserved in the extension declarations of `foo.A`",
            "s"
        )
    );
    assert_eq!(
        with("optional string s = 3;"),
        error(
            "extension `foo.s` (number 3) is not declared: the extension range of `foo.A` it is in requires a declaration for each extension",
            "s"
        )
    );
    let verified = format!(
        "{}extend A {{ optional string s = 3; }}\n",
        range("verification = DECLARATION")
    );
    assert_eq!(
        one_file(&verified),
        error(
            "extension `foo.s` (number 3) is not declared: the extension range of `foo.A` it is in requires a declaration for each extension",
            "s"
        )
    );
}

/// In a message set, `max` is the int32 maximum: a declaration may use a number up there.
#[test]
fn a_message_set_range_goes_to_the_int32_maximum() {
    let text = "syntax = \"proto2\";\npackage foo;\nmessage A {\n  option message_set_wire_format = true;\n\
         extensions 4 to max [declaration = { number: 1952731290 full_name: \".foo.x\" type: \".foo.A\" }];\n}\n";
    assert_eq!(one_file(text), []);
}
