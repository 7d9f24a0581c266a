//! Built-in options typed by the lowered descriptor.proto (`custom_options` with
//! `wkt::descriptor_model`): message literals of `features` and `declaration`, names with an
//! extension part (`features.(pb.cpp).x`), each on its smallest input with the exact message
//! and the text its span covers. protoc's verdict (`python3 -m grpc_tools.protoc`, libprotoc
//! 35.1) is in each test's comment.

use super::tests::{error, errors, one_file};

const EDITION: &str = "edition = \"2023\";\n";
const CPP: &str = "edition = \"2023\";\nimport \"google/protobuf/cpp_features.proto\";\n";

/// protoc: `Error while parsing option value for "features": Message type
/// "google.protobuf.FeatureSet" has no field named "bogus".`
#[test]
fn an_unknown_field_in_a_features_literal() {
    assert_eq!(
        one_file(&format!("{EDITION}option features = {{ bogus: 1 }};\n")),
        error(
            "message literal: `google.protobuf.FeatureSet` has no field named `bogus`",
            "bogus"
        )
    );
    // The same on a field, and a feature written as an identifier.
    assert_eq!(
        one_file(&format!(
            "{EDITION}message M {{ int32 a = 1 [features = {{ bogus: X }}]; }}\n"
        )),
        error(
            "message literal: `google.protobuf.FeatureSet` has no field named `bogus`",
            "bogus"
        )
    );
}

/// protoc: `... for "features": Unknown enumeration value of "BOGUS" for field
/// "enum_type".`; an enum number is accepted in a literal.
#[test]
fn feature_values_in_a_literal() {
    assert_eq!(
        one_file(&format!("{EDITION}option features = {{ enum_type: BOGUS }};\n")),
        error(
            "message literal: field `enum_type`: enum `google.protobuf.FeatureSet.EnumType` has no value named `BOGUS`",
            "BOGUS"
        )
    );
    assert_eq!(
        one_file(&format!("{EDITION}option features = {{ enum_type: 1 }};\n")),
        []
    );
}

/// protoc: `... for "declaration": Message type
/// "google.protobuf.ExtensionRangeOptions.Declaration" has no field named "wat".` and
/// `Expected integer, got: "x"` (reported once, not also as a declaration without a number).
#[test]
fn a_declaration_literal_is_typed() {
    let range = |literal: &str| {
        one_file(&format!(
            "syntax = \"proto2\";\nmessage M {{ extensions 1 to 10 [declaration = {literal}]; }}\n"
        ))
    };
    assert_eq!(
        range("{ number: 1, full_name: \".M.x\", type: \"int32\", wat: 3 }"),
        error(
            "message literal: `google.protobuf.ExtensionRangeOptions.Declaration` has no field named `wat`",
            "wat"
        )
    );
    assert_eq!(
        range("{ number: \"x\" }"),
        error(
            "message literal: field `number` is an int32: its value must be an integer",
            "\"x\""
        )
    );
    assert_eq!(
        range("{ number: 1 full_name: \".M.x\" type: \"int32\" }"),
        []
    );
}

/// protoc: `Value must be identifier for boolean option
/// "pb.CppFeatures.legacy_closed_enum".` and `Option "features.(pb.cpp).bogus" unknown.`
#[test]
fn a_language_feature_by_name() {
    assert_eq!(
        one_file(&format!(
            "{CPP}option features.(pb.cpp).legacy_closed_enum = 3;\n"
        )),
        error(
            "option `features.(pb.cpp).legacy_closed_enum` is a bool: its value must be `true` or `false`",
            "3"
        )
    );
    assert_eq!(
        one_file(&format!("{CPP}option features.(pb.cpp).bogus = true;\n")),
        error(
            "option `features.(pb.cpp).bogus` is unknown: `pb.CppFeatures` has no field `bogus`",
            "bogus"
        )
    );
    assert_eq!(
        one_file(&format!(
            "{CPP}option features.(pb.cpp).string_type = VIEW;\n"
        )),
        []
    );
}

/// protoc: `... for "features": Message type "pb.CppFeatures" has no field named "bogus".`;
/// the valid literal with a language feature passes.
#[test]
fn a_language_feature_in_a_literal() {
    assert_eq!(
        one_file(&format!(
            "{CPP}option features = {{ [pb.cpp] {{ bogus: 1 }} }};\n"
        )),
        error(
            "message literal: `pb.CppFeatures` has no field named `bogus`",
            "bogus"
        )
    );
    assert_eq!(
        one_file(&format!(
            "{CPP}option features = {{ enum_type: OPEN field_presence: IMPLICIT [pb.cpp] {{ string_type: VIEW }} }};\n"
        )),
        []
    );
}

/// A feature extension of the build's own (`extend google.protobuf.FeatureSet`), used from
/// another file. protoc: `Value must be identifier for boolean option "p.MyFeatures.x".`
#[test]
fn a_custom_feature_of_the_build() {
    let features =
        "edition = \"2023\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\n\
         message MyFeatures { bool x = 1; }\n\
         extend google.protobuf.FeatureSet { MyFeatures my = 9995; }\n";
    let user = |option: &str| {
        errors(&[
            ("my.proto", features),
            (
                "a.proto",
                &format!("edition = \"2023\";\npackage p;\nimport \"my.proto\";\n{option}\n"),
            ),
        ])
    };
    assert_eq!(
        user("option features.(my).x = 3;"),
        error(
            "option `features.(my).x` is a bool: its value must be `true` or `false`",
            "3"
        )
    );
    assert_eq!(
        user("option features = { [p.my] { y: true } };"),
        error(
            "message literal: `p.MyFeatures` has no field named `y`",
            "y"
        )
    );
    assert_eq!(user("option features.(my).x = true;"), []);
}

/// protoc: `Option "features" was already set.` (a field of it was set before), and
/// `Option "features.(pb.cpp).string_type" was already set.`
#[test]
fn a_feature_set_twice_by_name_and_literal() {
    assert_eq!(
        one_file(&format!(
            "{EDITION}option features.enum_type = OPEN;\noption features = {{ field_presence: IMPLICIT }};\n"
        )),
        error("option `features` is already set", "features")
    );
    assert_eq!(
        one_file(&format!(
            "{CPP}option features.(pb.cpp).string_type = VIEW;\noption features.(pb.cpp).string_type = CORD;\n"
        )),
        error(
            "option `features.(pb.cpp).string_type` is already set",
            "features.(pb.cpp).string_type"
        )
    );
    // Two plain names: reported once (by `options_twice`).
    assert_eq!(
        one_file(&format!(
            "{EDITION}option features.enum_type = OPEN;\noption features.enum_type = CLOSED;\n"
        )),
        error(
            "option `features.enum_type` is already set",
            "features.enum_type"
        )
    );
}

/// protobuf's text format reads `#` to the end of the line as a comment; protoc accepts
/// both of these.
#[test]
fn comments_in_a_literal() {
    assert_eq!(
        one_file(&format!(
            "{EDITION}message M {{ int32 a = 1 [features = {{ # why\n  field_presence: EXPLICIT }}]; }}\n"
        )),
        []
    );
    assert_eq!(
        one_file(&format!(
            "{EDITION}option features = {{ # comment with \"a quote\"\n  enum_type: OPEN # and after\n}};\n"
        )),
        []
    );
}

/// A feature extension whose fields and enum values declare lifetimes.
const LIFETIMES: &str = "edition = \"2023\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\n\
     enum Mode {\n  MODE_UNKNOWN = 0;\n\
       OLD = 1 [feature_support = { edition_introduced: EDITION_2023 edition_removed: EDITION_2024 removal_error: \"gone\" }];\n\
       NEW = 2 [feature_support.edition_introduced = EDITION_2024];\n  FINE = 3;\n}\n\
     message MyFeatures {\n\
       Mode mode = 1 [targets = TARGET_TYPE_FILE, feature_support.edition_introduced = EDITION_2023, edition_defaults = { edition: EDITION_LEGACY, value: \"FINE\" }];\n\
       bool later = 2 [targets = TARGET_TYPE_FILE, feature_support.edition_introduced = EDITION_2024, edition_defaults = { edition: EDITION_LEGACY, value: \"false\" }];\n\
       bool gone = 3 [targets = TARGET_TYPE_FILE, feature_support = { edition_introduced: EDITION_2023 edition_removed: EDITION_2024 removal_error: \"use x\" }, edition_defaults = { edition: EDITION_LEGACY, value: \"false\" }];\n\
     }\n\
     extend google.protobuf.FeatureSet { MyFeatures my = 9995; }\n";

fn with_lifetimes(edition: &str, option: &str) -> Vec<(String, String)> {
    errors(&[
        ("feat.proto", LIFETIMES),
        (
            "u.proto",
            &format!("edition = \"{edition}\";\nimport \"feat.proto\";\n{option}\n"),
        ),
    ])
}

/// protoc: `p.MyFeatures.later wasn't introduced until edition 2024 and can't be used in
/// edition 2023` (by name and in a literal alike) and `p.MyFeatures.gone has been removed in
/// edition 2024: use x`.
#[test]
fn a_feature_outside_its_lifetime() {
    let later = "feature `p.MyFeatures.later` was introduced in edition 2024 and cannot be used in edition 2023";
    assert_eq!(
        with_lifetimes("2023", "option features.(p.my).later = true;"),
        error(later, "later")
    );
    assert_eq!(
        with_lifetimes("2023", "option features = { [p.my] { later: true } };"),
        error(later, "later")
    );
    assert_eq!(
        with_lifetimes("2024", "option features.(p.my).gone = true;"),
        error(
            "feature `p.MyFeatures.gone` was removed in edition 2024: use x",
            "gone"
        )
    );
    assert_eq!(
        with_lifetimes("2023", "option features.(p.my).gone = true;"),
        []
    );
}

/// protoc: `p.NEW wasn't introduced until edition 2024 and can't be used in edition 2023`
/// (by name, or by number in a literal) and `p.OLD has been removed in edition 2024: gone`.
#[test]
fn a_feature_value_outside_its_lifetime() {
    let new =
        "feature value `p.NEW` was introduced in edition 2024 and cannot be used in edition 2023";
    assert_eq!(
        with_lifetimes("2023", "option features.(p.my).mode = NEW;"),
        error(new, "NEW")
    );
    assert_eq!(
        with_lifetimes("2023", "option features = { [p.my] { mode: 2 } };"),
        error(new, "2")
    );
    assert_eq!(
        with_lifetimes("2024", "option features.(p.my).mode = OLD;"),
        error(
            "feature value `p.OLD` was removed in edition 2024: gone",
            "OLD"
        )
    );
    assert_eq!(
        with_lifetimes("2023", "option features.(p.my).mode = OLD;"),
        []
    );
    assert_eq!(
        with_lifetimes("2023", "option features.(p.my).mode = FINE;"),
        []
    );
}

/// Edition 2024's `default_symbol_visibility = STRICT` (by name or number). protoc:
/// `"Outer.Inner" is a nested message and cannot be `export` with STRICT
/// default_symbol_visibility. ...`, the same for an enum, and none for an enum in a message
/// that reserves every number (or under the default, `EXPORT_TOP_LEVEL`).
#[test]
fn strict_visibility_refuses_nested_exports() {
    let strict = |body: &str| {
        one_file(&format!(
            "edition = \"2024\";\npackage p;\noption features.default_symbol_visibility = STRICT;\n{body}\n"
        ))
    };
    assert_eq!(
        strict("message Outer { export message Inner {} }"),
        error(
            "nested message `p.Outer.Inner` cannot be `export` under `default_symbol_visibility = STRICT`: move it to the top level (ideally to a file of its own) to export it",
            "Inner"
        )
    );
    let enum_error = error(
        "nested enum `p.Outer.Inner` cannot be `export` under `default_symbol_visibility = STRICT`: move it to the top level, or into a message that only namespaces it (`local message Outer { export enum Inner { ... } reserved 1 to max; }`)",
        "Inner",
    );
    assert_eq!(
        strict("message Outer { export enum Inner { A = 0; } }"),
        enum_error
    );
    assert_eq!(
        strict("message Outer { export enum Inner { A = 0; } reserved 1 to 5; }"),
        enum_error
    );
    assert_eq!(
        strict("local message Outer { export enum Inner { A = 0; } reserved 1 to max; }"),
        []
    );
    assert_eq!(
        strict("export message Outer { local message Inner {} }"),
        []
    );
    assert_eq!(
        one_file(
            "edition = \"2024\";\noption features = { default_symbol_visibility: 4 };\nmessage Outer { export message Inner {} }\n"
        ),
        error(
            "nested message `Outer.Inner` cannot be `export` under `default_symbol_visibility = STRICT`: move it to the top level (ideally to a file of its own) to export it",
            "Inner"
        )
    );
    assert_eq!(
        one_file("edition = \"2024\";\nmessage Outer { export message Inner {} }\n"),
        []
    );
}

/// The spellings of a message literal protoc accepts (each checked with protoc): extension
/// names in brackets, qualified or not, with spaces; an Any expanded with or without `:`;
/// lists of messages without `:`, `<>` delimiters, `;` and `,` separators (a trailing one
/// too), hex and octal integers, `-inf`, a float beyond its range, `#` comments.
#[test]
fn literal_spellings_protoc_accepts() {
    let prelude = "syntax = \"proto2\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\nimport \"google/protobuf/any.proto\";\n\
         message Foo { optional int32 a = 1; optional float f = 2; repeated Foo r = 3; optional google.protobuf.Any any = 4; extensions 100 to 200; }\n\
         extend Foo { optional int32 ext = 100; }\n\
         extend google.protobuf.FileOptions { optional Foo opt = 20000; }\n";
    for option in [
        "option (opt) = { [p.ext]: 3 };",
        "option (opt) = { [ext]: 3 };",
        "option (opt) = { [ p . ext ]: 3 };",
        "option (opt) = { any { [type.googleapis.com/p.Foo] { a: 1 } } };",
        "option (opt) = { any { [type.googleapis.com/p.Foo]: { a: 1 } } };",
        "option (opt) = { r [ { a: 1 }, < a: 2 > ] };",
        "option (opt) = { r: { a: 1 }; r: { a: 2 }, };",
        "option (opt) = { a: -0x10 };",
        "option (opt) = { f: -inf, a: 010 };",
        "option (opt) = { f: 1e400 };",
        "option (opt) = { a: 1 # c\n };",
        "option (opt).(p.ext) = 3;",
    ] {
        assert_eq!(one_file(&format!("{prelude}{option}\n")), [], "{option}");
    }
}
