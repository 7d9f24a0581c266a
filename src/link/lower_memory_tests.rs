//! What lowering does to keep the model small: shared features, no spare capacity, typed
//! literal values as sorted vectors.

use std::sync::Arc;

use crate::link::{build_schema, NoImports, SourceFile};
use crate::model::*;

fn file(text: &str) -> Arc<File> {
    let source = SourceFile {
        path: "a.proto".into(),
        display_name: "a.proto".into(),
        text: Arc::from(text),
    };
    match build_schema(vec![source], &NoImports) {
        Ok(out) => out.schema.files["a.proto"].clone(),
        Err(e) => panic!("{:?}", e.diagnostics),
    }
}

#[test]
fn elements_with_equal_features_share_one_copy() {
    let file = file(
        "syntax = \"proto3\";\nmessage A { int32 a = 1; int32 b = 2; repeated int32 c = 3 [packed = false]; }\n\
         message B { int32 d = 1; }\n",
    );
    let (a, b) = (&file.messages[0], &file.messages[1]);
    assert!(Arc::ptr_eq(&a.fields[0].features, &a.fields[1].features));
    assert!(Arc::ptr_eq(&a.fields[0].features, &b.fields[0].features));
    assert!(Arc::ptr_eq(&a.features, &b.features));
    // Different features are different copies, each with its own values.
    let unpacked = &a.fields[2].features;
    assert!(!Arc::ptr_eq(&a.fields[0].features, unpacked));
    assert_eq!(
        unpacked.repeated_field_encoding.value,
        RepeatedFieldEncoding::Expanded
    );
    assert_eq!(
        a.fields[0].features.repeated_field_encoding.value,
        RepeatedFieldEncoding::Packed
    );
}

#[test]
fn model_vectors_have_no_spare_capacity() {
    let file = file(
        "syntax = \"proto3\";\noption java_package = \"p\";\n\
         message A { int32 a = 1 [deprecated = true]; message N {} enum E { E_0 = 0; } }\n\
         enum F { F_0 = 0; F_1 = 1; F_2 = 2; F_3 = 3; F_4 = 4; }\n\
         service S { rpc M(A) returns (A); }\n",
    );
    let a = &file.messages[0];
    let tight = [
        (file.messages.len(), file.messages.capacity()),
        (file.enums.len(), file.enums.capacity()),
        (file.services.len(), file.services.capacity()),
        (a.fields.len(), a.fields.capacity()),
        (a.messages.len(), a.messages.capacity()),
        (a.enums.len(), a.enums.capacity()),
        (file.enums[0].values.len(), file.enums[0].values.capacity()),
        (a.enums[0].values.len(), a.enums[0].values.capacity()),
    ];
    for (len, capacity) in tight {
        assert_eq!(len, capacity);
    }
}

#[test]
fn message_literals_are_typed_in_field_order() {
    let file = file(
        "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\n\
         message O { optional int32 a = 1; optional string b = 2; repeated int32 c = 3; }\n\
         extend google.protobuf.MessageOptions { optional O lit = 50001; }\n\
         message M1 { option (lit) = { b: \"x\" a: 1 c: [1, 2] }; }\n\
         message M2 { option (lit) = { a: 1 c: 1 b: \"x\" c: 2 }; }\n\
         message M3 { option (lit) = { a: 1 b: \"x\" c: [2, 1] }; }\n",
    );
    let typed = |name: &str| {
        let message = file.messages.iter().find(|m| m.name == name).unwrap();
        let entry = message.options.get("(lit)").unwrap();
        entry.resolved.get().expect("typed").value.clone()
    };
    let TypedValue::Message(fields) = typed("M1") else {
        panic!("a message value");
    };
    let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["O.a", "O.b", "O.c"]);
    assert_eq!(typed("M1"), typed("M2"));
    // A repeated field's values stay in the order written.
    assert_ne!(typed("M1"), typed("M3"));
}

#[test]
fn released_trees_are_freed_at_once_and_parsed_again_when_lowered() {
    let text = "syntax = \"proto3\";\npackage p;\n// Doc.\nmessage A { int32 a = 1; map<string, A> m = 2; }\n";
    let source = SourceFile {
        path: "a.proto".into(),
        display_name: "a.proto".into(),
        text: Arc::from(text),
    };
    let tree = Arc::new(crate::parse::parse(text));
    let weak = Arc::downgrade(&tree);
    let mut prepared = crate::link::prepare_parsed(vec![(source, tree)], &NoImports).unwrap();
    prepared.release_trees(|file| file.path == "a.proto");
    assert!(
        weak.upgrade().is_none(),
        "the released tree is freed before the finish"
    );
    // Nothing taken (no old build): the file is lowered from its text parsed again.
    let Ok(built) = prepared.finish(None) else {
        panic!("builds");
    };
    let lowered = format!("{:?}", built.schema.files["a.proto"]);
    assert_eq!(lowered, format!("{:?}", file(text)));
    assert!(lowered.contains("full_name: \"p.A.MEntry\""));
}

/// A large build holds millions of fields: their strings are boxed where they can be
/// (`Box<str>`, 16 bytes), the oneof index is 32 bits, options are a boxed slice, and the
/// default and extendee few fields have are boxed apart (`RareField`). Print the size with
/// `--nocapture` when changing `model::Field`.
#[test]
fn a_field_stays_small() {
    let size = std::mem::size_of::<Field>();
    println!("model::Field: {size} bytes");
    assert!(size <= 176, "model::Field grew to {size} bytes");
}
