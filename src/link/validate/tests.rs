//! The rules of this stage, each on its smallest input: the exact message and the text its
//! span covers.

use std::sync::Arc;

use crate::link::{build_schema, NoImports, SourceFile};

/// (message, spanned text) of every error building `files`; empty when the build succeeds.
pub(super) fn errors(files: &[(&str, &str)]) -> Vec<(String, String)> {
    let sources = files
        .iter()
        .map(|(path, text)| SourceFile {
            path: (*path).into(),
            display_name: (*path).into(),
            text: Arc::from(*text),
        })
        .collect();
    let Err(error) = build_schema(sources, &NoImports) else {
        return Vec::new();
    };
    error
        .diagnostics
        .iter()
        .map(|d| {
            let label = d.labels().and_then(|mut l| l.next());
            let text = label.map_or(String::new(), |label| {
                let name = d
                    .source_code()
                    .and_then(|source| source.read_span(label.inner(), 0, 0).ok())
                    .and_then(|contents| contents.name().map(str::to_string));
                let file = files
                    .iter()
                    .find(|(path, _)| name.as_deref() == Some(*path))
                    .map_or("", |(_, text)| text);
                file.get(label.offset()..label.offset() + label.len())
                    .unwrap_or("")
                    .to_string()
            });
            (d.to_string(), text)
        })
        .collect()
}

pub(super) fn one_file(text: &str) -> Vec<(String, String)> {
    errors(&[("a.proto", text)])
}

pub(super) fn error(message: &str, spanned: &str) -> Vec<(String, String)> {
    vec![(message.to_string(), spanned.to_string())]
}

#[test]
fn a_builtin_option_set_twice() {
    assert_eq!(
        one_file("syntax = \"proto3\";\noption go_package = \"b\";\noption go_package = \"a\";\n"),
        error("option `go_package` is already set", "go_package")
    );
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M { optional int32 a = 1 [default = 1, default = 2]; }\n"),
        error("option `default` is already set", "default")
    );
    assert_eq!(
        one_file("edition = \"2023\";\noption features.field_presence = IMPLICIT;\noption features.field_presence = EXPLICIT;\n"),
        error("option `features.field_presence` is already set", "features.field_presence")
    );
}

#[test]
fn repeated_builtin_options_may_be_set_twice() {
    let text = "syntax = \"proto2\";\nmessage M {\n  extensions 4 to 5 [\n    declaration = { number: 4, full_name: \".x\", type: \"int32\" },\n    declaration = { number: 5, full_name: \".y\", type: \"int32\" }\n  ];\n}\n";
    assert_eq!(one_file(text), Vec::new());
}

#[test]
fn proto3_restrictions() {
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage M { required int32 a = 1; }\n"),
        error(
            "field `a`: required fields are not allowed in proto3",
            "required"
        )
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage M { optional group G = 1 {} }\n"),
        error("groups are not supported in proto3", "group")
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage M { extensions 1 to 10; }\n"),
        error(
            "extension ranges are not allowed in proto3",
            "extensions 1 to 10;"
        )
    );
    assert_eq!(
        errors(&[
            ("a.proto", "syntax = \"proto2\";\nmessage M { extensions 1 to 10; }\n"),
            ("b.proto", "syntax = \"proto3\";\nimport \"a.proto\";\nextend M { int32 b = 1; }\n"),
        ]),
        error(
            "`M` cannot be extended in proto3: extensions in proto3 are only allowed for defining options",
            "M"
        )
    );
}

#[test]
fn proto3_may_extend_the_options_messages() {
    let text = "syntax = \"proto3\";\nimport \"google/protobuf/descriptor.proto\";\nextend google.protobuf.FieldOptions { int32 my_option = 50000; }\n";
    assert_eq!(one_file(text), Vec::new());
}

#[test]
fn range_bounds_order_and_overlaps() {
    let message = |body: &str| one_file(&format!("syntax = \"proto2\";\nmessage M {{ {body} }}\n"));
    assert_eq!(
        message("reserved 10 to 1;"),
        error(
            "reserved range 10 to 1: the end must not be less than the start",
            "10 to 1"
        )
    );
    assert_eq!(
        message("extensions 0 to 10;"),
        error(
            "extension range 0 to 10: numbers must be positive",
            "0 to 10"
        )
    );
    assert_eq!(
        message("extensions 5 to 536870912;"),
        error(
            "extension range 5 to 536870912: extension numbers cannot be greater than 536870911",
            "5 to 536870912"
        )
    );
    assert_eq!(
        message("reserved 1 to 10; reserved 5;"),
        error(
            "reserved range 5 to 5 overlaps with an earlier range 1 to 10",
            "5"
        )
    );
    assert_eq!(
        message("reserved 1 to 10; extensions 10 to 12;"),
        error(
            "extension range 10 to 12 overlaps with reserved range 1 to 10",
            "10 to 12"
        )
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nenum E { E_ZERO = 0; reserved 2147483648; }\n"),
        error("range bound is out of range for int32", "2147483648")
    );
}

#[test]
fn message_sets_and_negative_enum_ranges_are_valid() {
    let text = "syntax = \"proto2\";\nmessage S { option message_set_wire_format = true; extensions 4 to 2147483646; }\nenum E { E_ZERO = 0; reserved -5 to -1, 5 to max; }\nmessage M { reserved 1 to 5, 7; extensions 100 to max; }\n";
    assert_eq!(one_file(text), Vec::new());
}

#[test]
fn empty_declarations() {
    assert_eq!(
        one_file("syntax = \"proto3\";\nenum E {}\n"),
        error("enum `E` must contain at least one value", "E")
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage M { oneof o {} }\n"),
        error("oneof `o` must contain at least one field", "o")
    );
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M { extensions 1 to 10; }\nextend M {}\n"),
        error("`extend M` must declare at least one field", "M")
    );
}

#[test]
fn maps_where_protoc_refuses_them() {
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage M { oneof o { map<string, int32> m = 1; } }\n"),
        error("map field `m` cannot be in a oneof", "map<string, int32>")
    );
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M { extensions 1 to 10; }\nextend M { map<string, int32> m = 1; }\n"),
        error("extension `m` cannot be a map", "map<string, int32>")
    );
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M { option map_entry = true; }\n"),
        error(
            "`map_entry` cannot be set explicitly; write a `map<KeyType, ValueType>` field instead",
            "option map_entry = true;"
        )
    );
}

#[test]
fn extension_field_rules() {
    let extend = |field: &str| {
        one_file(&format!(
            "syntax = \"proto2\";\nmessage M {{ extensions 1 to 10; }}\nextend M {{ {field} }}\n"
        ))
    };
    assert_eq!(
        extend("required int32 x = 1;"),
        error("extension `x` cannot be required", "required")
    );
    assert_eq!(
        extend("optional int32 x = 1 [json_name = \"y\"];"),
        error(
            "extension `x`: option `json_name` is not allowed on extensions",
            "json_name = \"y\""
        )
    );
    assert_eq!(
        extend("optional int32 foo_bar = 1 [json_name = \"fooBar\"];"),
        Vec::new()
    );
}

#[test]
fn names_reserved_twice_and_files_imported_twice() {
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage M { reserved \"a\", \"b\"; reserved \"a\"; }\n"),
        error("name `a` is reserved more than once", "\"a\"")
    );
    assert_eq!(
        errors(&[
            ("a.proto", "syntax = \"proto3\";\n"),
            (
                "b.proto",
                "syntax = \"proto3\";\nimport \"a.proto\";\nimport \"a.proto\";\n"
            ),
        ]),
        error("\"a.proto\" is imported more than once", "\"a.proto\"")
    );
}

#[test]
fn defaults_where_protoc_refuses_them() {
    let message = |body: &str| {
        one_file(&format!(
            "syntax = \"proto2\";\nenum E {{ A = 0; B = 1; }}\nmessage N {{}}\nmessage M {{ {body} }}\n"
        ))
    };
    assert_eq!(
        message("repeated int32 a = 1 [default = 1];"),
        error(
            "repeated field `a` cannot have a default value",
            "default = 1"
        )
    );
    assert_eq!(
        message("optional N n = 1 [default = 1];"),
        error(
            "message field `n` cannot have a default value",
            "default = 1"
        )
    );
    assert_eq!(
        message("optional int32 a = 1 [default = +5];"),
        error(
            "default value +5: an integer default cannot have a `+` sign",
            "default = +5"
        )
    );
    assert_eq!(
        message("optional uint32 a = 1 [default = -0];"),
        error(
            "default value -0: an unsigned field cannot have a negative default",
            "default = -0"
        )
    );
    assert_eq!(
        message("optional E e = 1 [default = C];"),
        error("enum `E` has no value named `C`", "default = C")
    );
    assert_eq!(
        message("optional double d = 1 [default = infinity];"),
        error(
            "default value infinity does not match the type of `double` field `d`",
            "default = infinity"
        )
    );
    assert_eq!(
        message("optional double d = 1 [default = -inf]; optional float f = 2 [default = nan]; optional E e = 3 [default = B];"),
        Vec::new()
    );
}

#[test]
fn allow_alias_without_aliases() {
    assert_eq!(
        one_file("syntax = \"proto3\";\nenum E { option allow_alias = true; A = 0; B = 1; }\n"),
        error(
            "enum `E` allows aliases but no two of its values share a number; remove `allow_alias`",
            "option allow_alias = true;"
        )
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nenum E { option allow_alias = true; A = 0; B = 0; }\n"),
        Vec::new()
    );
}

#[test]
fn an_unknown_builtin_option() {
    assert_eq!(
        one_file("syntax = \"proto3\";\noption java_pakage = \"x\";\n"),
        error(
            "option `java_pakage` is unknown: `google.protobuf.FileOptions` has no field of that name (a custom option is written in parentheses: `(java_pakage)`)",
            "java_pakage"
        )
    );
    // OneofOptions has no `deprecated`.
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M { oneof o { option deprecated = true; int32 a = 1; } }\n"),
        error(
            "option `deprecated` is unknown: `google.protobuf.OneofOptions` has no field of that name (a custom option is written in parentheses: `(deprecated)`)",
            "deprecated"
        )
    );
    assert_eq!(
        one_file("syntax = \"proto2\";\noption uninterpreted_option = 1;\n"),
        error(
            "option `uninterpreted_option` is reserved: no option may set it",
            "uninterpreted_option"
        )
    );
}

/// Every built-in option of each options message resolves (`default` and `json_name` on
/// fields too).
#[test]
fn builtin_options_resolve() {
    assert_eq!(
        one_file(
            "syntax = \"proto2\";\noption java_package = \"x\";\noption optimize_for = SPEED;\n\
             message M {\n  option deprecated = true;\n  extensions 10 to 20 [verification = UNVERIFIED];\n\
             optional int32 a = 1 [default = 1, json_name = \"b\", deprecated = true];\n\
             oneof o { int32 c = 2; }\n}\n\
             enum E { option allow_alias = true; A = 0 [deprecated = true]; B = 0; }\n\
             service S { option deprecated = true; rpc R(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; } }\n"
        ),
        []
    );
}

const CUSTOM: &str =
    "syntax = \"proto2\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\n\
     message Foo { optional string a = 1; extensions 10 to 20; }\n\
     extend Foo { optional int32 b = 10; }\n\
     extend google.protobuf.FileOptions { optional int32 f = 20000; }\n\
     message Holder { extend google.protobuf.MessageOptions { optional int32 m = 20000; } }\n";

#[test]
fn custom_options_resolve_from_the_scope_of_the_element() {
    // A repeated option, which may be set three times (a non-repeated one may not: see
    // `a_custom_option_set_twice_under_two_names`).
    let text = format!(
        "{CUSTOM}extend google.protobuf.FileOptions {{ repeated int32 r = 20001; }}\n\
         option (r) = 1;\noption (p.r) = 1;\noption (.p.r) = 1;\n\
         message Other {{ option (Holder.m) = 1; }}\n"
    );
    assert_eq!(one_file(&text), []);
}

#[test]
fn a_custom_option_that_does_not_resolve() {
    assert_eq!(
        one_file(&format!("{CUSTOM}option (g) = 1;\n")),
        error(
            "option `(g)` is unknown: no extension of that name is visible here (declare it, or import the file that declares it)",
            "(g)"
        )
    );
    // A message is not an option; neither is a method, even one named like an extension:
    // protoc's lookup stops at the innermost symbol of any kind.
    assert_eq!(
        one_file(&format!("{CUSTOM}option (Foo) = 1;\n")),
        error(
            "option `(Foo)` is unknown: no extension of that name is visible here (declare it, or import the file that declares it)",
            "(Foo)"
        )
    );
    assert_eq!(
        one_file(&format!(
            "{CUSTOM}extend google.protobuf.MethodOptions {{ optional string R = 20000; }}\n\
             service S {{ rpc R(Foo) returns (Foo) {{ option (R) = \"x\"; }} }}\n"
        )),
        error(
            "option `(R)` is unknown: no extension of that name is visible here (declare it, or import the file that declares it)",
            "(R)"
        )
    );
}

#[test]
fn a_custom_option_of_another_message() {
    assert_eq!(
        one_file(&format!("{CUSTOM}option (b) = 1;\n")),
        error(
            "option `(b)`: `p.b` is not an extension of `google.protobuf.FileOptions` (it extends `p.Foo`)",
            "(b)"
        )
    );
    assert_eq!(
        one_file(&format!("{CUSTOM}option (Foo.a) = \"x\";\n")),
        error(
            "option `(Foo.a)`: `p.Foo.a` is not an extension of `google.protobuf.FileOptions` (it is a field, not an extension)",
            "(Foo.a)"
        )
    );
    // A message option used on a field.
    assert_eq!(
        one_file(&format!("{CUSTOM}message N {{ optional int32 x = 1 [(Holder.m) = 1]; }}\n")),
        error(
            "option `(Holder.m)`: `p.Holder.m` is not an extension of `google.protobuf.FieldOptions` (it extends `google.protobuf.MessageOptions`)",
            "(Holder.m)"
        )
    );
}

#[test]
fn builtin_option_values_are_type_checked() {
    assert_eq!(
        one_file("syntax = \"proto3\";\noption java_multiple_files = \"yes\";\n"),
        error(
            "option `java_multiple_files` is a bool: its value must be `true` or `false`",
            "\"yes\""
        )
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\noption java_package = true;\n"),
        error(
            "option `java_package` is a string: its value must be a quoted string",
            "true"
        )
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\noption optimize_for = FAST;\n"),
        error(
            "option `optimize_for`: enum `google.protobuf.FileOptions.OptimizeMode` has no value named `FAST` (its values: SPEED, CODE_SIZE, LITE_RUNTIME)",
            "FAST"
        )
    );
    // features.* fields are typed by FeatureSet.
    assert_eq!(
        one_file("edition = \"2023\";\noption features.field_presence = SOMETIMES;\n"),
        error(
            "option `features.field_presence`: enum `google.protobuf.FeatureSet.FieldPresence` has no value named `SOMETIMES` (its values: FIELD_PRESENCE_UNKNOWN, EXPLICIT, IMPLICIT, LEGACY_REQUIRED)",
            "SOMETIMES"
        )
    );
    assert_eq!(
        one_file("edition = \"2023\";\noption features = 1;\n"),
        error(
            "option `features` is a message: set it whole with `features = { ... }`, or one field with `features.field = value`",
            "1"
        )
    );
}

#[test]
fn custom_scalar_option_values_are_type_checked() {
    let declared = "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\n\
         extend google.protobuf.FileOptions {\n  optional int32 small = 20000;\n  optional string s = 20001;\n  optional double d = 20002;\n  optional float f = 20003;\n}\n";
    assert_eq!(
        one_file(&format!(
            "{declared}option (small) = -2147483648;\noption (s) = \"x\";\noption (d) = inf;\noption (f) = -5;\n"
        )),
        []
    );
    assert_eq!(
        one_file(&format!("{declared}option (small) = 2147483648;\n")),
        error(
            "option `(small)`: value 2147483648 is out of range for int32 (-2147483648 to 2147483647)",
            "2147483648"
        )
    );
    assert_eq!(
        one_file(&format!("{declared}option (s) = 123;\n")),
        error(
            "option `(s)` is a string: its value must be a quoted string",
            "123"
        )
    );
}

#[test]
fn edition_2024_syntax_before_edition_2024() {
    assert_eq!(
        one_file("edition = \"2023\";\npackage p;\nlocal message M {}\n"),
        error("`local` is only allowed from edition 2024 on", "local")
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage C {\n  export enum E { A = 0; }\n}\n"),
        error("`export` is only allowed from edition 2024 on", "export")
    );
    assert_eq!(
        errors(&[
            ("a.proto", "edition = \"2023\";\npackage p;\n"),
            (
                "b.proto",
                "edition = \"2023\";\nimport option \"a.proto\";\n"
            ),
        ]),
        error(
            "`import option` is only allowed from edition 2024 on",
            "option"
        )
    );
    assert_eq!(
        errors(&[
            ("a.proto", "edition = \"2024\";\npackage p;\n"),
            ("b.proto", "edition = \"2024\";\nimport weak \"a.proto\";\n"),
        ]),
        error(
            "`import weak` is not allowed from edition 2024 on; use `import option`",
            "weak"
        )
    );
    // All of them are edition 2024's own.
    assert_eq!(
        errors(&[
            (
                "a.proto",
                "edition = \"2024\";\npackage p;\nlocal message M {}\nexport enum E { A = 0; }\n"
            ),
            (
                "b.proto",
                "edition = \"2024\";\nimport option \"a.proto\";\n"
            ),
        ]),
        []
    );
}

#[test]
fn options_edition_2024_removed() {
    assert_eq!(
        one_file("edition = \"2024\";\noption java_multiple_files = true;\n"),
        error(
            "option `java_multiple_files` was removed in edition 2024: use the feature `features.(pb.java).nest_in_file_class`",
            "java_multiple_files"
        )
    );
    assert_eq!(
        one_file("edition = \"2024\";\nmessage M {\n  string s = 1 [ctype = CORD];\n}\n"),
        error(
            "option `ctype` was removed in edition 2024: use the feature `features.(pb.cpp).string_type`",
            "ctype"
        )
    );
    assert_eq!(
        one_file("edition = \"2023\";\nmessage M {\n  string s = 1 [ctype = CORD];\n}\n"),
        []
    );
}

#[test]
fn signs_and_infinities_as_protoc_spells_them() {
    let with_option = |value: &str| {
        one_file(&format!(
            "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\nextend google.protobuf.FileOptions {{ optional double d = 10101; }}\noption (d) = {value};\n"
        ))
    };
    // protoc: `Identifier after '-' symbol must be inf or nan.`
    assert_eq!(
        with_option("-Inf"),
        error("only `inf` or `nan` may follow a sign", "Inf")
    );
    assert_eq!(
        with_option("-infinity"),
        error("only `inf` or `nan` may follow a sign", "infinity")
    );
    // protoc: `Expected option value.`
    assert_eq!(
        with_option("+5"),
        error("expected an option value, found `+`", "+")
    );
    assert_eq!(with_option("-inf"), []);
    assert_eq!(with_option("-nan"), []);
    // protoc: `Expected number.`
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M { optional double d = 1 [default = -NaN]; }\n"),
        error("only `inf` or `nan` may follow a sign", "NaN")
    );
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M { optional double d = 1 [default = +1.5]; }\n"),
        error(
            "default value +1.5: a floating-point default cannot have a `+` sign",
            "default = +1.5"
        )
    );
}

#[test]
fn a_map_entry_type_is_only_the_map_field_s() {
    // protoc: `map_entry should not be set explicitly. Use map<KeyType, ValueType> instead.`
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage M {\n  map<string, int32> m = 1;\n  MEntry e = 2;\n}\n"),
        error(
            "`M.MEntry` is the entry message of a map field; write a `map<KeyType, ValueType>` field instead",
            "MEntry"
        )
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nimport \"google/protobuf/struct.proto\";\nmessage M {\n  map<string, google.protobuf.Struct.FieldsEntry> m = 1;\n}\n"),
        error(
            "`google.protobuf.Struct.FieldsEntry` is the entry message of a map field; write a `map<KeyType, ValueType>` field instead",
            "google.protobuf.Struct.FieldsEntry"
        )
    );
}

#[test]
fn extendees_and_method_types_see_symbols_of_every_kind() {
    // protoc: `"Foo" is not a message type.`: the method's own name is found first.
    assert_eq!(
        one_file("syntax = \"proto3\";\npackage p;\nmessage Foo {}\nservice S {\n  rpc Foo(Foo) returns (Foo);\n}\n"),
        vec![
            (
                "`Foo` resolves to `p.S.Foo`, which is not a message type".to_string(),
                "Foo".to_string()
            );
            2
        ]
    );
    // A field named like the extendee hides it.
    assert_eq!(
        one_file("syntax = \"proto2\";\npackage p;\nmessage Ext { extensions 1 to 10; }\nmessage M {\n  optional int32 Ext = 1;\n  extend Ext { optional int32 x = 2; }\n}\n"),
        error(
            "`Ext` resolves to `p.M.Ext`, which is not a message type",
            "Ext"
        )
    );
    // An enum value is a sibling of its enum.
    assert_eq!(
        one_file("package foo;\nmessage M {\n  enum E { M = 0; }\n  optional M f = 1;\n  extensions 2 to 2;\n  extend M { optional string g = 2; }\n}\n"),
        error("`M` resolves to `foo.M.M`, which is not a message type", "M")
    );
    // Field types are looked up among types only, as protoc does.
    assert_eq!(
        one_file("syntax = \"proto2\";\npackage p;\nmessage Foo { optional int32 Foo2 = 1; }\nmessage M {\n  optional int32 Foo = 1;\n  optional Foo f = 2;\n}\nservice S { rpc Get(Foo) returns (M); }\n"),
        []
    );
}

#[test]
fn lazy_only_on_submessages() {
    // protoc: `[lazy = true] can only be specified for submessage fields.`
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M {\n  optional int32 a = 1 [lazy = true];\n}\n"),
        error(
            "field `a`: `lazy` is only allowed on message fields",
            "lazy = true"
        )
    );
    assert_eq!(
        one_file(
            "syntax = \"proto3\";\nmessage M {\n  string s = 1 [unverified_lazy = true];\n}\n"
        ),
        error(
            "field `s`: `unverified_lazy` is only allowed on message fields",
            "unverified_lazy = true"
        )
    );
    assert_eq!(
        one_file("edition = \"2023\";\nmessage M {\n  M m = 1 [lazy = true, features.message_encoding = DELIMITED];\n}\n"),
        error(
            "field `m`: `lazy` is only allowed on message fields",
            "lazy = true"
        )
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage M {\n  M m = 1 [lazy = true];\n  map<string, M> n = 2 [lazy = true];\n  int32 i = 3 [lazy = false];\n}\n"),
        []
    );
}

#[test]
fn message_set_extensions_are_optional_messages() {
    // protoc: `Extensions of MessageSets must be optional messages.`
    let with = |field: &str| {
        one_file(&format!(
            "syntax = \"proto2\";\nmessage Foo {{ option message_set_wire_format = true; extensions 1 to 100; }}\nextend Foo {{ {field} }}\n"
        ))
    };
    assert_eq!(
        with("repeated Foo bar = 1;"),
        error(
            "extension `bar`: `Foo` is a message set, whose extensions must be optional messages",
            "Foo"
        )
    );
    assert_eq!(
        with("optional int32 bar = 1;"),
        error(
            "extension `bar`: `Foo` is a message set, whose extensions must be optional messages",
            "int32"
        )
    );
    assert_eq!(with("optional Foo bar = 1;"), []);
}

#[test]
fn a_full_runtime_file_cannot_import_a_lite_one() {
    // protoc: `Files that do not use optimize_for = LITE_RUNTIME cannot import files which do
    // use this option.`
    let lite = (
        "lite.proto",
        "syntax = \"proto3\";\noption optimize_for = LITE_RUNTIME;\n",
    );
    assert_eq!(
        errors(&[lite, ("b.proto", "syntax = \"proto3\";\nimport \"lite.proto\";\n")]),
        error(
            "\"lite.proto\" uses `optimize_for = LITE_RUNTIME`: only a file that uses it too can import it",
            "import \"lite.proto\";"
        )
    );
    assert_eq!(
        errors(&[
            lite,
            (
                "b.proto",
                "syntax = \"proto3\";\nimport \"lite.proto\";\noption optimize_for = LITE_RUNTIME;\n"
            )
        ]),
        []
    );
}

#[test]
fn package_names_have_at_most_101_components() {
    // protoc: `Exceeds Maximum Package Depth`.
    let package = |n: usize| vec!["a"; n].join(".");
    assert_eq!(
        one_file(&format!(
            "syntax = \"proto3\";\npackage {};\n",
            package(101)
        )),
        []
    );
    assert_eq!(
        one_file(&format!(
            "syntax = \"proto3\";\npackage {};\n",
            package(102)
        )),
        error(
            "the package name has 102 components; at most 101 are allowed",
            &package(102)
        )
    );
}

#[test]
fn features_in_a_message_literal_follow_the_same_rules() {
    // protoc: `Option google.protobuf.FeatureSet.enum_type cannot be set on an entity of
    // type `field`.`
    assert_eq!(
        one_file("edition = \"2023\";\nmessage Foo {\n  int32 i = 1 [features = { enum_type: OPEN }];\n}\n"),
        error(
            "feature `enum_type` cannot be set on a field",
            "features = { enum_type: OPEN }"
        )
    );
    // protoc: `Only message fields can specify message encoding.`
    assert_eq!(
        one_file("edition = \"2023\";\nmessage A {\n  map<string, string> m = 1 [features = { message_encoding: LENGTH_PREFIXED }];\n}\n"),
        error(
            "field `m`: only message fields may specify message encoding",
            "features = { message_encoding: LENGTH_PREFIXED }"
        )
    );
    // protoc: `Extensions can't be required.`
    assert_eq!(
        one_file("edition = \"2023\";\nmessage A { extensions 1 to 100; }\nextend A {\n  string s = 1 [features = { field_presence: LEGACY_REQUIRED }];\n}\n"),
        error(
            "field `s`: extension fields may not specify field presence",
            "features = { field_presence: LEGACY_REQUIRED }"
        )
    );
}

#[test]
fn a_file_cannot_default_to_required_presence() {
    // protoc: `Required presence can't be specified by default.`
    let message = "a file cannot make `LEGACY_REQUIRED` the default presence; set it on each field";
    assert_eq!(
        one_file("edition = \"2023\";\noption features.field_presence = LEGACY_REQUIRED;\n"),
        error(message, "option features.field_presence = LEGACY_REQUIRED;")
    );
    assert_eq!(
        one_file("edition = \"2023\";\noption features = { field_presence: LEGACY_REQUIRED };\n"),
        error(
            message,
            "option features = { field_presence: LEGACY_REQUIRED };"
        )
    );
    assert_eq!(
        one_file("edition = \"2023\";\nmessage M {\n  int32 a = 1 [features.field_presence = LEGACY_REQUIRED];\n}\n"),
        []
    );
}

#[test]
fn java_string_check_utf8_is_not_an_editions_option() {
    // protoc: `File option java_string_check_utf8 is not allowed under editions. Use the
    // (pb.java).utf8_validation feature to control this behavior.`
    assert_eq!(
        one_file("edition = \"2023\";\noption java_string_check_utf8 = true;\n"),
        error(
            "option `java_string_check_utf8` is not allowed under editions: use the feature `features.(pb.java).utf8_validation`",
            "option java_string_check_utf8 = true;"
        )
    );
    assert_eq!(
        one_file("syntax = \"proto2\";\noption java_string_check_utf8 = true;\n"),
        []
    );
}

#[test]
fn feature_lifetimes_say_why_they_end() {
    let feature = |support: &str| {
        one_file(&format!(
            "edition = \"2023\";\npackage foo;\nimport \"google/protobuf/descriptor.proto\";\nmessage F {{\n  bool flag = 1 [feature_support = {{ {support} }}];\n}}\nextend google.protobuf.FeatureSet {{ F f = 9995; }}\n"
        ))
    };
    // protoc: `foo.F.flag is deprecated but does not specify a deprecation warning.`
    assert_eq!(
        feature("edition_introduced: EDITION_2023 edition_deprecated: EDITION_2023"),
        error(
            "`foo.F.flag`: `edition_deprecated` needs a `deprecation_warning`",
            "edition_deprecated"
        )
    );
    // protoc: `foo.F.flag has been removed but does not specify a removal error.`
    assert_eq!(
        feature("edition_introduced: EDITION_PROTO2 edition_removed: EDITION_2023"),
        error(
            "`foo.F.flag`: `edition_removed` needs a `removal_error`",
            "edition_removed"
        )
    );
    // protoc: `... specifies a removal error but is not marked removed in any edition.`
    assert_eq!(
        feature("edition_introduced: EDITION_2023 removal_error: \"gone\""),
        error(
            "`foo.F.flag`: `removal_error` is set but no `edition_removed`",
            "removal_error"
        )
    );
    // protoc: `... was deprecated before it was introduced.`
    assert_eq!(
        feature("edition_introduced: EDITION_2024 edition_deprecated: EDITION_2023 deprecation_warning: \"old\""),
        error(
            "`foo.F.flag`: it is deprecated before it is introduced",
            "edition_deprecated"
        )
    );
    // Introduced and removed in one edition: no removal error is needed.
    assert_eq!(
        feature("edition_introduced: EDITION_2023 edition_removed: EDITION_2023"),
        []
    );
    assert_eq!(
        feature("edition_introduced: EDITION_2023 edition_deprecated: EDITION_2023 deprecation_warning: \"old\" edition_removed: EDITION_2024 removal_error: \"gone\""),
        []
    );
}

#[test]
fn an_extension_number_is_used_once_per_extendee_in_a_file() {
    // protoc: `Extension number 1 has already been used in "M" by extension "a".`
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage M { extensions 1 to 10; }\nextend M { optional int32 a = 1; }\nmessage N {\n  extend M { optional int32 b = 1; }\n}\n"),
        error(
            "extension `b`: number 1 of `M` is already used by extension `a`",
            "1"
        )
    );
    // Across files that do not import each other, protoc accepts it.
    let a = (
        "a.proto",
        "syntax = \"proto2\";\nmessage M { extensions 1 to 10; }\n",
    );
    assert_eq!(
        errors(&[
            a,
            (
                "b.proto",
                "syntax = \"proto2\";\nimport \"a.proto\";\nextend M { optional int32 b = 1; }\n"
            ),
            (
                "c.proto",
                "syntax = \"proto2\";\nimport \"a.proto\";\nextend M { optional int32 c = 1; }\n"
            ),
        ]),
        []
    );
}

#[test]
fn edition_2024_enforces_the_naming_style() {
    let opt_out =
        "(edition 2024's naming style; `features.enforce_naming_style = STYLE_LEGACY` opts out)";
    // protoc: `Message name foo_bar should be TitleCase (features.enforce_naming_style =
    // STYLE_LEGACY can be used to opt out of this check)`
    assert_eq!(
        one_file("edition = \"2024\";\npackage p;\nmessage foo_bar {}\n"),
        error(
            &format!("message name `foo_bar` should be TitleCase {opt_out}"),
            "foo_bar"
        )
    );
    assert_eq!(
        one_file("edition = \"2024\";\npackage my_pkg.v1;\nmessage M {\n  int32 foo_2 = 1;\n  oneof Choice { int32 x = 2; }\n  enum Kind { KIND_UNSPECIFIED = 0; kind_two = 1; }\n}\nservice S { rpc get_thing(M) returns (M); }\n"),
        vec![
            (format!("field name `foo_2` contains style violating underscores {opt_out}"), "foo_2".to_string()),
            (format!("oneof name `Choice` should be lower_snake_case {opt_out}"), "Choice".to_string()),
            (format!("enum value name `kind_two` should be UPPER_SNAKE_CASE {opt_out}"), "kind_two".to_string()),
            (format!("method name `get_thing` should be TitleCase {opt_out}"), "get_thing".to_string()),
        ]
    );
    // STYLE_LEGACY opts an element and what it contains out; edition 2023 does not check.
    assert_eq!(
        one_file("edition = \"2024\";\nmessage M {\n  message inner {\n    option features.enforce_naming_style = STYLE_LEGACY;\n    int32 Bad = 1;\n  }\n}\n"),
        []
    );
    assert_eq!(
        one_file("edition = \"2023\";\nmessage foo_bar { int32 Bad = 1; }\n"),
        []
    );
}

#[test]
fn local_types_stay_in_their_file() {
    // protoc: `Symbol "p.Hidden", defined in "a.proto"  is not visible from "b.proto". It is
    // explicitly marked 'local' and cannot be accessed outside its own file`
    let user = (
        "b.proto",
        "edition = \"2024\";\npackage p;\nimport \"a.proto\";\nmessage User {\n  Hidden h = 1;\n  Outer.Inner i = 2;\n}\n",
    );
    assert_eq!(
        errors(&[
            (
                "a.proto",
                "edition = \"2024\";\npackage p;\nlocal message Hidden {}\nmessage Outer { message Inner {} }\n"
            ),
            user,
        ]),
        vec![
            (
                "`p.Hidden`, defined in \"a.proto\", cannot be used outside its file: it is marked `local`".to_string(),
                "Hidden".to_string()
            ),
            // protoc: `... It defaulted to local from file-level 'option
            // features.default_symbol_visibility = 'EXPORT_TOP_LEVEL'; ...`
            (
                "`p.Outer.Inner`, defined in \"a.proto\", cannot be used outside its file: it is nested, and nested types are local under `default_symbol_visibility = EXPORT_TOP_LEVEL` (edition 2024's default); mark it `export`".to_string(),
                "Outer.Inner".to_string()
            ),
        ]
    );
    // `export`, EXPORT_ALL, the own file and edition 2023 all let them through.
    assert_eq!(
        errors(&[
            (
                "a.proto",
                "edition = \"2024\";\npackage p;\nexport message Hidden {}\nmessage Outer { export message Inner {} }\n"
            ),
            user,
        ]),
        []
    );
    assert_eq!(
        errors(&[
            (
                "a.proto",
                "edition = \"2024\";\npackage p;\noption features.default_symbol_visibility = EXPORT_ALL;\nmessage Hidden {}\nmessage Outer { message Inner {} }\n"
            ),
            user,
        ]),
        []
    );
    assert_eq!(
        one_file("edition = \"2024\";\npackage p;\nlocal message Hidden {}\nmessage Outer { message Inner {} }\nmessage User { Hidden h = 1; Outer.Inner i = 2; }\n"),
        []
    );
}

#[test]
fn an_option_import_gives_options_only() {
    // protoc: `"p.Opt" seems to be defined in "a.proto", which is not imported by "b.proto".
    // To use it here, please add the necessary import.`
    let a = (
        "a.proto",
        "edition = \"2024\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\nmessage Opt {}\nextend google.protobuf.MessageOptions { bool flag = 5000; }\n",
    );
    assert_eq!(
        errors(&[
            a,
            ("b.proto", "edition = \"2024\";\npackage p;\nimport option \"a.proto\";\nmessage User {\n  Opt o = 1;\n}\n"),
        ]),
        error(
            "cannot resolve type `Opt`: `p.Opt` is defined in \"a.proto\", which this file imports with `import option`, for its options only; import it plainly to use its types",
            "Opt"
        )
    );
    assert_eq!(
        errors(&[
            a,
            ("b.proto", "edition = \"2024\";\npackage p;\nimport option \"a.proto\";\nmessage User {\n  option (flag) = true;\n}\n"),
        ]),
        []
    );
}

// Where protoc and buf disagree, protoc's verdict (issue 10): buf accepts the first five,
// refuses the rest.

#[test]
fn allow_alias_false_has_no_effect() {
    // protoc: `"Foo" declares 'option allow_alias = false;' which has no effect. Please
    // remove the declaration.`
    assert_eq!(
        one_file("enum Foo { option allow_alias = false; V1 = 1; V2 = 2; }\n"),
        error(
            "enum `Foo` sets `allow_alias = false`, which has no effect; remove it",
            "option allow_alias = false;"
        )
    );
}

#[test]
fn a_json_name_cannot_look_like_an_extension() {
    // protoc: `The custom JSON name of field "foobar" ("[FooBar]") is invalid: JSON names may
    // not start with '[' and end with ']'.`, in proto2 too.
    let message = "field `foobar`: JSON name \"[FooBar]\" is invalid: a JSON name cannot start with `[` and end with `]` (that is how extensions are written)";
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage Foo {\n  string foobar = 1 [json_name = \"[FooBar]\"];\n}\n"),
        error(message, "foobar")
    );
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage Foo {\n  optional string foobar = 1 [json_name = \"[FooBar]\"];\n}\n"),
        error(message, "foobar")
    );
    assert_eq!(
        one_file("syntax = \"proto3\";\nmessage Foo {\n  string foobar = 1 [json_name = \"[FooBar\"];\n}\n"),
        []
    );
}

#[test]
fn a_default_needs_presence_in_editions() {
    // protoc: `Implicit presence fields can't specify defaults.` at the field's name.
    assert_eq!(
        one_file("edition = \"2023\";\nmessage Foo {\n  string s = 1 [default = \"abc\", features.field_presence = IMPLICIT];\n}\n"),
        error(
            "field `s`: a field with implicit presence cannot have a default value",
            "s"
        )
    );
}

#[test]
fn features_in_an_extension_range_need_editions() {
    // protoc: `Features are only valid under editions.` (once per statement here).
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage Foo {\n  extensions 1 to 10, 20 to 30 [features = {}];\n}\n"),
        error("features are only valid under editions", "features = {}")
    );
}

#[test]
fn a_lite_file_extends_only_lite_types() {
    // protoc: `Extensions to non-lite types can only be declared in non-lite files.  Note that
    // you cannot extend a non-lite type to contain a lite type, but the reverse is allowed.`
    let baz = (
        "b.proto",
        "syntax = \"proto2\";\nmessage Baz { extensions 1 to 100; }\n",
    );
    let extend = "syntax = \"proto2\";\nimport \"b.proto\";\noption optimize_for = LITE_RUNTIME;\nextend Baz { optional string s = 1; }\n";
    assert_eq!(
        errors(&[baz, ("a.proto", extend)]),
        error(
            "`Baz` is not declared in a file with `optimize_for = LITE_RUNTIME`: a lite file can only extend lite types",
            "Baz"
        )
    );
    // Custom options too: descriptor.proto is not lite.
    let option = "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\noption optimize_for = LITE_RUNTIME;\nextend google.protobuf.FieldOptions { optional string s = 50000; }\n";
    assert_eq!(
        one_file(option),
        error(
            "`google.protobuf.FieldOptions` is not declared in a file with `optimize_for = LITE_RUNTIME`: a lite file can only extend lite types",
            "google.protobuf.FieldOptions"
        )
    );
    let lite_baz = ("b.proto", "syntax = \"proto2\";\noption optimize_for = LITE_RUNTIME;\nmessage Baz { extensions 1 to 100; }\n");
    assert_eq!(errors(&[lite_baz, ("a.proto", extend)]), []);
}

#[test]
fn package_names_have_at_most_511_characters() {
    // protoc: `Package name is too long`.
    let file = |n: usize| format!("syntax = \"proto3\";\npackage {};\n", "a".repeat(n));
    assert_eq!(one_file(&file(511)), []);
    assert_eq!(
        one_file(&file(512)),
        error(
            "the package name is 512 characters long; at most 511 are allowed",
            &"a".repeat(512)
        )
    );
}

#[test]
fn the_unstable_edition_only_in_protobufs_own_files() {
    // protoc: `is a file using edition UNSTABLE, which is later than the protoc maximum
    // supported edition 2024.` outside `google/protobuf/` and `upb/`.
    let text = "edition = \"UNSTABLE\";\nmessage M { int32 x = 1; }\n";
    assert_eq!(
        errors(&[("a.proto", text)]),
        error(
            "edition \"UNSTABLE\" is only allowed in protobuf's own files (under `google/protobuf/` or `upb/`); use \"2023\" or \"2024\"",
            "\"UNSTABLE\""
        )
    );
    assert_eq!(errors(&[("google/protobuf/u.proto", text)]), []);
    assert_eq!(errors(&[("upb/u.proto", text)]), []);
}

#[test]
fn proto2_json_name_conflicts_with_a_default_name_are_allowed() {
    // protoc only warns (`The custom JSON name of field "foo_bar" ("fooBar") conflicts with
    // the default JSON name of field "foo".`); buf refuses.
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage Foo {\n  optional string foo = 1 [json_name = \"fooBar\"];\n  optional string foo_bar = 2;\n}\n"),
        []
    );
    // A json_name equal to the default is no custom name.
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage Foo {\n  optional string fooBar = 1 [json_name = \"fooBar\"];\n  optional string foo_bar = 2 [json_name = \"fooBar\"];\n}\n"),
        []
    );
    // Two custom names are an error in proto2 too.
    assert_eq!(
        one_file("syntax = \"proto2\";\nmessage Foo {\n  optional string a = 1 [json_name = \"x\"];\n  optional string b = 2 [json_name = \"x\"];\n}\n"),
        error(
            "field `b`: JSON name \"x\" conflicts with the JSON name of field `a`",
            "b"
        )
    );
}

#[test]
fn extensions_have_presence_whatever_the_file_says() {
    // protoc accepts (extensions always have presence); buf refuses the closed enum.
    let text = "edition = \"2023\";\noption features.field_presence = IMPLICIT;\nmessage Foo { extensions 1 to 100; }\nenum Enum {\n  option features.enum_type = CLOSED;\n  ZERO = 0;\n}\nextend Foo {\n  string s = 1 [default = \"abc\"];\n  Enum en = 2;\n}\n";
    assert_eq!(one_file(text), []);
}

#[test]
fn a_map_is_a_repeated_field_for_its_encoding() {
    // protoc accepts EXPANDED on a map (buf: "expected repeated field, found singular field");
    // PACKED is refused: `Only repeated primitive fields can specify PACKED repeated field
    // encoding.`
    let map = |encoding: &str| {
        one_file(&format!(
            "edition = \"2023\";\nmessage A {{\n  map<string, string> m = 1 [features.repeated_field_encoding = {encoding}];\n}}\n"
        ))
    };
    assert_eq!(map("EXPANDED"), []);
    assert_eq!(
        map("PACKED"),
        error(
            "field `m`: only repeated primitive fields may specify packed encoding",
            "features.repeated_field_encoding = PACKED"
        )
    );
}
