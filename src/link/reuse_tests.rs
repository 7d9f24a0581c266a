//! The new side takes the old side's model exactly when nothing its lowering reads changed.

use std::sync::Arc;

use super::Reuse;
use crate::link::{build_parsed_reusing, BuildError, BuildOutput, NoImports, SourceFile};
use crate::test_support::parsed_files;

fn build(files: &[(&str, &str)], old: Option<&Reuse>) -> Result<BuildOutput, BuildError> {
    crate::test_support::build_reusing_texts(files, old)
}

fn shared(old: &BuildOutput, new: &BuildOutput, path: &str) -> bool {
    Arc::ptr_eq(&old.schema.files[path], &new.schema.files[path])
}

const USER: &str = "syntax = \"proto3\";\npackage a.b;\nimport \"types.proto\";\n\
                    message User { Thing t = 1; }\n";
const TYPES: &str = "syntax = \"proto3\";\npackage a;\nmessage Thing {}\n";

#[test]
fn a_file_unchanged_with_all_it_imports_is_shared_and_equals_a_fresh_lowering() {
    let files = [("user.proto", USER), ("types.proto", TYPES)];
    let old = build(&files, None).unwrap();
    let new = build(&files, Some(&old.reuse)).unwrap();
    assert!(shared(&old, &new, "user.proto"));
    assert!(shared(&old, &new, "types.proto"));
    let fresh = build(&files, None).unwrap();
    assert_eq!(format!("{:?}", new.schema), format!("{:?}", fresh.schema));
}

/// The import closure changed: a type nearer in scope now shadows the one the unchanged file
/// used, or the type became an enum. The file is lowered again and names the new type.
#[test]
fn an_unchanged_file_whose_import_changed_how_it_resolves_is_lowered_again() {
    let old = build(&[("user.proto", USER), ("types.proto", TYPES)], None).unwrap();
    let shadowing = "syntax = \"proto3\";\npackage a.b;\nmessage Thing {}\n";
    let new = build(
        &[("user.proto", USER), ("types.proto", shadowing)],
        Some(&old.reuse),
    )
    .unwrap();
    assert!(!shared(&old, &new, "user.proto"));
    let field = |b: &BuildOutput| b.schema.files["user.proto"].messages[0].fields[0].clone();
    assert_eq!(field(&old).type_name.as_deref(), Some("a.Thing"));
    assert_eq!(field(&new).type_name.as_deref(), Some("a.b.Thing"));

    let as_enum = "syntax = \"proto3\";\npackage a;\nenum Thing { THING_ZERO = 0; }\n";
    let new = build(
        &[("user.proto", USER), ("types.proto", as_enum)],
        Some(&old.reuse),
    )
    .unwrap();
    assert_eq!(field(&new).ty, crate::model::FieldType::Enum);
}

/// An import that no longer declares the type makes the unchanged file fail to compile on the
/// new side, with the error at its reference.
#[test]
fn an_unchanged_file_broken_by_its_import_is_a_compile_error() {
    let old = build(&[("user.proto", USER), ("types.proto", TYPES)], None).unwrap();
    let emptied = "syntax = \"proto3\";\npackage a;\n";
    let Err(error) = build(
        &[("user.proto", USER), ("types.proto", emptied)],
        Some(&old.reuse),
    ) else {
        panic!("the new side must not build");
    };
    let shown: Vec<String> = error.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(shown, ["cannot resolve type `Thing`"]);
}

/// The type of a custom option changed in the file declaring it: the unchanged file that sets
/// the option is checked again, and its value no longer fits.
#[test]
fn an_unchanged_file_whose_option_type_changed_is_checked_again() {
    let options = |ty: &str| {
        format!(
            "syntax = \"proto3\";\npackage o;\nimport \"google/protobuf/descriptor.proto\";\n\
             extend google.protobuf.MessageOptions {{ {ty} label = 50001; }}\n"
        )
    };
    let user = "syntax = \"proto3\";\npackage u;\nimport \"opts.proto\";\n\
                message M { option (o.label) = \"x\"; }\n";
    let (as_string, as_int) = (options("string"), options("int32"));
    let old = build(&[("user.proto", user), ("opts.proto", &as_string)], None).unwrap();
    let again = build(
        &[("user.proto", user), ("opts.proto", &as_string)],
        Some(&old.reuse),
    )
    .unwrap();
    assert!(shared(&old, &again, "user.proto"));
    let Err(error) = build(
        &[("user.proto", user), ("opts.proto", &as_int)],
        Some(&old.reuse),
    ) else {
        panic!("a string for an int32 option must not build");
    };
    let fresh = build(&[("user.proto", user), ("opts.proto", &as_int)], None)
        .err()
        .unwrap();
    let shown =
        |e: &BuildError| -> Vec<String> { e.diagnostics.iter().map(|d| d.to_string()).collect() };
    assert_eq!(shown(&error), shown(&fresh));
    assert_eq!(shown(&error).len(), 1, "{:?}", shown(&error));
}

/// Finds imports among the given files.
struct Files(&'static [(&'static str, &'static str)]);

impl crate::link::ImportResolver for Files {
    fn open(&self, import_path: &str) -> Result<Option<SourceFile>, miette::Report> {
        let found = self.0.iter().find(|(path, _)| *path == import_path);
        Ok(found.map(|(path, text)| SourceFile {
            path: path.to_string(),
            display_name: path.to_string(),
            text: Arc::from(*text),
        }))
    }
}

/// A file the old side only imported was lowered there but not validated: the new side,
/// which compares it, validates it itself and reports its error.
#[test]
fn a_file_the_old_side_only_imported_is_validated_again() {
    const TWICE: &str = "syntax = \"proto3\";\npackage a;\n\
                         message Thing { int32 x = 1; int32 y = 1; }\n";
    let imports = Files(&[("types.proto", TWICE)]);
    let old = build_parsed_reusing(parsed_files(&[("user.proto", USER)]), &imports, None).unwrap();
    assert!(old.imports.files.contains_key("types.proto"));
    let Err(error) = build_parsed_reusing(
        parsed_files(&[("user.proto", USER), ("types.proto", TWICE)]),
        &NoImports,
        Some(&old.reuse),
    ) else {
        panic!("the new side compares types.proto, whose field number is used twice");
    };
    assert_eq!(error.diagnostics.len(), 1);
    assert!(
        error.diagnostics[0]
            .to_string()
            .contains("already used by field `x`"),
        "{}",
        error.diagnostics[0]
    );
}

/// `check` prepares the new side (imports, symbols) while the old side builds, then finishes
/// it with the old side's reuse: the same build as [`build_parsed_reusing`] after the old
/// side, sharing the same files.
#[test]
fn a_side_prepared_before_the_old_build_finishes_as_a_build_after_it() {
    let changed = "syntax = \"proto3\";\npackage a.b;\nimport \"types.proto\";\n\
                   message User { Thing t = 1; string name = 2; }\n";
    let new_files = || parsed_files(&[("user.proto", changed), ("types.proto", TYPES)]);
    let prepared = crate::link::prepare_parsed(new_files(), &NoImports).unwrap();
    let old = build(&[("user.proto", USER), ("types.proto", TYPES)], None).unwrap();
    let new = prepared.finish(Some(&old.reuse)).unwrap();
    assert!(shared(&old, &new, "types.proto"));
    assert!(!shared(&old, &new, "user.proto"));
    let after = build_parsed_reusing(new_files(), &NoImports, Some(&old.reuse)).unwrap();
    assert_eq!(format!("{:?}", new.schema), format!("{:?}", after.schema));
    assert_eq!(new.reuse.len(), after.reuse.len());
}

/// The last build of a series (the new side of a check) gives the same schema, taking the
/// same files from the old side, but keeps nothing for a later build.
#[test]
fn a_last_build_gives_the_same_schema_and_keeps_nothing_for_later() {
    let changed = "syntax = \"proto3\";\npackage a.b;\nimport \"types.proto\";\n\
                   message User { Thing t = 1; map<string, Thing> m = 2; optional int32 n = 3; }\n";
    let new_files = || parsed_files(&[("user.proto", changed), ("types.proto", TYPES)]);
    let old = build(&[("user.proto", USER), ("types.proto", TYPES)], None).unwrap();
    let prepared = crate::link::prepare_parsed(new_files(), &NoImports).unwrap();
    let last = prepared.finish_last(Some(&old.reuse)).unwrap();
    let kept = build_parsed_reusing(new_files(), &NoImports, Some(&old.reuse)).unwrap();
    assert_eq!(format!("{:?}", last.schema), format!("{:?}", kept.schema));
    assert!(shared(&old, &last, "types.proto"));
    assert!(last.reuse.is_empty());
    assert_eq!(kept.reuse.len(), 2);
}

// ---- replay: the closure changed, the file's own lookups did not ----

/// The new side built with the old one's reuse, and alone: equal models, and whether the new
/// side shares `path`'s model with the old one.
fn replayed(old: &[(&str, &str)], new: &[(&str, &str)], path: &str) -> bool {
    let old = build(old, None).unwrap();
    let reusing = build(new, Some(&old.reuse)).unwrap();
    let fresh = build(new, None).unwrap();
    assert_eq!(
        format!("{:?}", reusing.schema),
        format!("{:?}", fresh.schema)
    );
    shared(&old, &reusing, path)
}

const NEAR: &str = "syntax = \"proto3\";\npackage a.b;\nmessage Other {}\n";
const USER_NEAR: &str = "syntax = \"proto3\";\npackage a.b;\nimport \"types.proto\";\n\
                         import \"near.proto\";\nmessage User { Thing t = 1; Other o = 2; }\n";

/// A file of the closure changed without changing any lookup of the unchanged file (a new
/// message nobody names): the model is taken. A new `a.b.Thing` nearer in scope than the
/// `a.Thing` it used breaks the reuse, and the file names the new type.
#[test]
fn a_new_nearer_type_in_another_import_breaks_replay_and_anything_else_keeps_it() {
    let old = [
        ("user.proto", USER_NEAR),
        ("types.proto", TYPES),
        ("near.proto", NEAR),
    ];
    let unrelated = "syntax = \"proto3\";\npackage a.b;\nmessage Other {}\nmessage Unrelated {}\n";
    let mut new = old;
    new[2].1 = unrelated;
    assert!(replayed(&old, &new, "user.proto"));

    let shadowing = "syntax = \"proto3\";\npackage a.b;\nmessage Other {}\nmessage Thing {}\n";
    new[2].1 = shadowing;
    assert!(!replayed(&old, &new, "user.proto"));
    let built = build(&new, Some(&build(&old, None).unwrap().reuse)).unwrap();
    let field = &built.schema.files["user.proto"].messages[0].fields[0];
    assert_eq!(field.type_name.as_deref(), Some("a.b.Thing"));
}

/// The referenced message became an enum: the probe's answer changed kind.
#[test]
fn a_referenced_message_turned_into_an_enum_breaks_replay() {
    let old = [("user.proto", USER), ("types.proto", TYPES)];
    let more = "syntax = \"proto3\";\npackage a;\nmessage Thing {}\nmessage Extra {}\n";
    assert!(replayed(
        &old,
        &[("user.proto", USER), ("types.proto", more)],
        "user.proto"
    ));
    let as_enum = "syntax = \"proto3\";\npackage a;\nenum Thing { THING_ZERO = 0; }\n";
    let new = [("user.proto", USER), ("types.proto", as_enum)];
    assert!(!replayed(&old, &new, "user.proto"));
}

/// Only comments changed in the import: every lookup answers alike.
#[test]
fn a_comment_only_change_in_an_import_keeps_the_model() {
    let commented =
        "// The types.\nsyntax = \"proto3\";\npackage a;\n// A thing.\nmessage Thing {}\n";
    let old = [("user.proto", USER), ("types.proto", TYPES)];
    let new = [("user.proto", USER), ("types.proto", commented)];
    assert!(replayed(&old, &new, "user.proto"));
}

const BASE: &str = "syntax = \"proto2\";\npackage a;\nmessage Base { extensions 100 to 199; }\n";
const EXTENDING: &str = "syntax = \"proto2\";\npackage u;\nimport \"base.proto\";\n\
                         extend a.Base { optional int32 x = 150; }\n";

/// The extension ranges of the extendee are a fact the extension's check read: changed, the
/// file is lowered again (and fails when its number left the ranges).
#[test]
fn an_extendee_whose_extension_ranges_changed_breaks_replay() {
    let old = [("user.proto", EXTENDING), ("base.proto", BASE)];
    let named = "syntax = \"proto2\";\npackage a;\nmessage Base { extensions 100 to 199; }\n\
                 message Named {}\n";
    assert!(replayed(
        &old,
        &[("user.proto", EXTENDING), ("base.proto", named)],
        "user.proto"
    ));
    let wider = "syntax = \"proto2\";\npackage a;\nmessage Base { extensions 100 to 299; }\n";
    let new = [("user.proto", EXTENDING), ("base.proto", wider)];
    assert!(!replayed(&old, &new, "user.proto"));

    let narrower = "syntax = \"proto2\";\npackage a;\nmessage Base { extensions 100 to 120; }\n";
    let new = [("user.proto", EXTENDING), ("base.proto", narrower)];
    let Err(error) = build(&new, Some(&build(&old, None).unwrap().reuse)) else {
        panic!("150 is outside the new ranges");
    };
    let fresh = build(&new, None).err().unwrap();
    let shown =
        |e: &BuildError| -> Vec<String> { e.diagnostics.iter().map(|d| d.to_string()).collect() };
    assert_eq!(shown(&error), shown(&fresh));
    assert_eq!(shown(&error).len(), 1, "{:?}", shown(&error));
}

/// The custom option's message type: `label` fields as written, `level` an enum.
fn option_types(label_fields: &str, high: i32) -> String {
    format!(
        "syntax = \"proto3\";\npackage o;\nimport \"google/protobuf/descriptor.proto\";\n\
         message Label {{ {label_fields} }}\nenum Level {{ LOW = 0; HIGH = {high}; }}\n\
         extend google.protobuf.MessageOptions {{ Label label = 50001; Level level = 50002; }}\n"
    )
}

const LITERAL_USER: &str = "syntax = \"proto3\";\npackage u;\nimport \"opts.proto\";\n\
                            message M {\n  option (o.label) = { text: \"x\" };\n  \
                            option (o.level) = HIGH;\n}\n";

/// The type of a custom option's literal gained a field: the file is taken and its option
/// values, typed again, are the same. Lost the field the literal sets: the error a fresh
/// build gives. The enum value's number changed: the file gets this build's values.
#[test]
fn an_option_type_that_gains_or_loses_a_literal_field_is_typed_again() {
    let both = "string text = 1; int32 size = 2;";
    let old_opts = option_types(both, 1);
    let old = [
        ("user.proto", LITERAL_USER),
        ("opts.proto", old_opts.as_str()),
    ];

    let gained = option_types("string text = 1; int32 size = 2; bool bold = 3;", 1);
    let new = [
        ("user.proto", LITERAL_USER),
        ("opts.proto", gained.as_str()),
    ];
    assert!(replayed(&old, &new, "user.proto"));

    let lost = option_types("int32 size = 2;", 1);
    let new = [("user.proto", LITERAL_USER), ("opts.proto", lost.as_str())];
    let Err(error) = build(&new, Some(&build(&old, None).unwrap().reuse)) else {
        panic!("the literal sets a field `o.Label` no longer has");
    };
    let fresh = build(&new, None).err().unwrap();
    let shown =
        |e: &BuildError| -> Vec<String> { e.diagnostics.iter().map(|d| d.to_string()).collect() };
    assert_eq!(shown(&error), shown(&fresh));
    assert_eq!(shown(&error).len(), 1, "{:?}", shown(&error));

    let renumbered = option_types(both, 2);
    let new = [
        ("user.proto", LITERAL_USER),
        ("opts.proto", renumbered.as_str()),
    ];
    assert!(!replayed(&old, &new, "user.proto"));
    let built = build(&new, Some(&build(&old, None).unwrap().reuse)).unwrap();
    let level = &built.schema.files["user.proto"].messages[0].options.entries[1];
    let value = &level.resolved.get().expect("typed").value;
    assert!(
        matches!(value, crate::model::TypedValue::Enum { number: 2, .. }),
        "{value:?}"
    );
}
