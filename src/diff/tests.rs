//! Pairing and the one-sided lists on small schemas.

use super::Diff;
use crate::test_support::build_test_schema as schema;

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

// ---- unchanged files: the pairs the rules skip -------------------------------------------

fn proto(package: &str, imports: &[&str], body: &str) -> String {
    let imports: String = imports
        .iter()
        .map(|i| format!("import \"{i}\";\n"))
        .collect();
    format!("syntax = \"proto3\";\npackage {package};\n{imports}{body}\n")
}

#[test]
fn a_file_is_unchanged_when_it_and_everything_it_imports_are_byte_identical() {
    let leaf = proto("p", &[], "message Leaf {}");
    let leaf_changed = proto("p", &[], "message Leaf { int32 x = 1; }");
    let same = proto("p", &[], "message Same {}");
    let uses_same = proto("p", &["same.proto"], "message UsesSame { Same s = 1; }");
    let uses_leaf = proto("p", &["leaf.proto"], "message UsesLeaf { Leaf l = 1; }");
    // `import public` of leaf.proto: what imports `reexport.proto` sees Leaf through it.
    let reexport = "syntax = \"proto3\";\npackage p;\nimport public \"leaf.proto\";\n";
    let via_public = proto(
        "p",
        &["reexport.proto"],
        "message ViaPublic { Leaf l = 1; }",
    );
    let common = [
        ("same.proto", same.as_str()),
        ("uses_same.proto", uses_same.as_str()),
        ("uses_leaf.proto", uses_leaf.as_str()),
        ("reexport.proto", reexport),
        ("via_public.proto", via_public.as_str()),
    ];
    let old_files: Vec<_> = common
        .iter()
        .copied()
        .chain([("leaf.proto", leaf.as_str())])
        .collect();
    let new_files: Vec<_> = common
        .iter()
        .copied()
        .chain([("leaf.proto", leaf_changed.as_str())])
        .collect();
    let (old, new) = (schema(&old_files), schema(&new_files));
    let unchanged = super::unchanged_files(&old, &new);
    let mut unchanged: Vec<&str> = unchanged.into_iter().collect();
    unchanged.sort();
    // leaf.proto changed, so did every file that sees it, directly or through a public
    // import; the well-known types nobody imports are not in the schemas at all.
    assert_eq!(unchanged, ["same.proto", "uses_same.proto"]);

    let diff = Diff::new(&old, &new);
    let judged: Vec<&str> = diff
        .judged()
        .message_pairs()
        .iter()
        .map(|p| p.new.item.full_name.as_str())
        .collect();
    assert_eq!(judged, ["p.Leaf", "p.UsesLeaf", "p.ViaPublic"]);
    assert_eq!(
        diff.message_pairs().len(),
        5,
        "the full lists keep every pair"
    );
    let everything = Diff::judging_everything(&old, &new);
    assert_eq!(everything.judged().message_pairs().len(), 5);
}

#[test]
fn an_import_present_at_one_side_only_makes_its_importer_changed() {
    let user = proto("p", &["dep.proto"], "message U {}");
    let dep = proto("p", &[], "message D {}");
    let old = schema(&[("user.proto", &user), ("dep.proto", &dep)]);
    // The new side lacks dep.proto (as with a missing import allowed as a warning).
    let new_text = proto("p", &[], "message U {}");
    let new = schema(&[("user.proto", &new_text)]);
    assert!(super::unchanged_files(&old, &new).is_empty());
    // Same text, but the import exists on one side only.
    let old = schema(&[
        ("dep.proto", &dep),
        ("other.proto", &proto("q", &["dep.proto"], "")),
    ]);
    let new = schema(&[
        ("dep.proto", &proto("p", &[], "message D2 {}")),
        ("other.proto", &proto("q", &["dep.proto"], "")),
    ]);
    assert!(!super::unchanged_files(&old, &new).contains("other.proto"));
}
