//! Pairing and the one-sided lists on small schemas.

use super::Diff;
use crate::link::{build_schema, NoImports, SourceFile};
use crate::model::Schema;

fn schema(files: &[(&str, &str)]) -> Schema {
    let sources = files
        .iter()
        .map(|(path, text)| SourceFile {
            path: path.to_string(),
            display_name: path.to_string(),
            text: (*text).into(),
        })
        .collect();
    build_schema(sources, &NoImports)
        .unwrap_or_else(|e| panic!("test schema does not build: {:?}", e.diagnostics))
        .schema
}

const OLD: &str = "syntax = \"proto3\";\npackage p;\n\
    message M { int32 a = 1; int32 b = 2; oneof o { int32 c = 3; } }\n\
    message Gone { int32 x = 1; }\n\
    enum E { E_ZERO = 0; E_ONE = 1; }\n\
    service S { rpc Get(M) returns (M); rpc Old(M) returns (M); }\n";
const NEW: &str = "syntax = \"proto3\";\npackage p;\n\
    message M { int32 a = 1; int32 d = 4; oneof q { int32 c = 3; } }\n\
    message Fresh { int32 y = 1; }\n\
    enum E { E_ZERO = 0; E_TWO = 2; }\n\
    service S { rpc Get(M) returns (M); rpc New(M) returns (M); }\n";

#[test]
fn pairs_and_one_sided_elements() {
    let old = schema(&[
        ("a.proto", OLD),
        ("old_only.proto", "syntax = \"proto3\";\n"),
    ]);
    let new = schema(&[
        ("a.proto", NEW),
        ("new_only.proto", "syntax = \"proto3\";\n"),
    ]);
    let diff = Diff::new(&old, &new);

    let paired_fields: Vec<&str> = diff
        .field_pairs()
        .iter()
        .map(|p| p.new.field.name.as_str())
        .collect();
    assert_eq!(paired_fields, ["a", "c"]);
    assert!(diff.oneof_pairs().is_empty());

    let added = diff.added();
    assert_eq!(
        added
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect::<Vec<_>>(),
        ["new_only.proto"]
    );
    assert_eq!(
        added
            .messages
            .iter()
            .map(|m| m.item.full_name.as_str())
            .collect::<Vec<_>>(),
        ["p.Fresh"]
    );
    assert_eq!(
        added
            .fields
            .iter()
            .map(|f| f.field.name.as_str())
            .collect::<Vec<_>>(),
        ["d"]
    );
    assert_eq!(
        added
            .oneofs
            .iter()
            .map(|o| o.oneof.name.as_str())
            .collect::<Vec<_>>(),
        ["q"]
    );
    assert_eq!(
        added
            .enum_values
            .iter()
            .map(|v| v.value.name.as_str())
            .collect::<Vec<_>>(),
        ["E_TWO"]
    );
    assert_eq!(
        added
            .methods
            .iter()
            .map(|m| m.method.name.as_str())
            .collect::<Vec<_>>(),
        ["New"]
    );

    let removed = diff.removed();
    assert_eq!(
        removed
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect::<Vec<_>>(),
        ["old_only.proto"]
    );
    assert_eq!(
        removed
            .messages
            .iter()
            .map(|m| m.item.full_name.as_str())
            .collect::<Vec<_>>(),
        ["p.Gone"]
    );
    assert_eq!(
        removed
            .fields
            .iter()
            .map(|f| f.field.name.as_str())
            .collect::<Vec<_>>(),
        ["b"]
    );
    assert_eq!(
        removed
            .oneofs
            .iter()
            .map(|o| o.oneof.name.as_str())
            .collect::<Vec<_>>(),
        ["o"]
    );
    assert_eq!(
        removed
            .enum_values
            .iter()
            .map(|v| v.value.name.as_str())
            .collect::<Vec<_>>(),
        ["E_ONE"]
    );
    assert_eq!(
        removed
            .methods
            .iter()
            .map(|m| m.method.name.as_str())
            .collect::<Vec<_>>(),
        ["Old"]
    );
    assert!(added.enums.is_empty() && removed.services.is_empty());
}

#[test]
fn extensions_pair_by_extendee_and_number() {
    let base = "syntax = \"proto2\";\npackage p;\nmessage T { extensions 10 to 20; }\n";
    let old = schema(&[(
        "a.proto",
        &format!("{base}extend T {{ optional int32 e1 = 10; optional int32 e2 = 11; }}\n"),
    )]);
    let new = schema(&[(
        "a.proto",
        &format!("{base}extend T {{ optional int32 e1 = 10; optional int32 e3 = 12; }}\n"),
    )]);
    let diff = Diff::new(&old, &new);
    assert_eq!(diff.field_pairs().len(), 1);
    assert_eq!(
        diff.added()
            .fields
            .iter()
            .map(|f| f.field.name.as_str())
            .collect::<Vec<_>>(),
        ["e3"]
    );
    assert_eq!(
        diff.removed()
            .fields
            .iter()
            .map(|f| f.field.name.as_str())
            .collect::<Vec<_>>(),
        ["e2"]
    );
}
