//! A file taken by replay skips the check of its custom options only when the types they
//! read are declared, with their whole import closure, the same in both builds
//! (`options_typed_alike`): a change anywhere under the option's declaration is still caught.

use std::sync::Arc;

use crate::link::{BuildError, BuildOutput};

fn build(files: &[(&str, &str)], old: Option<&BuildOutput>) -> Result<BuildOutput, BuildError> {
    crate::test_support::build_reusing_texts(files, old.map(|o| &o.reuse))
}

fn shown(error: &BuildError) -> Vec<String> {
    error.diagnostics.iter().map(|d| d.to_string()).collect()
}

/// The new side built with the old one's reuse equals the new side built alone (models,
/// typed option values included); whether it shares `user.proto`'s model with the old side.
fn built_alike(old: &[(&str, &str)], new: &[(&str, &str)]) -> bool {
    let old = build(old, None).unwrap();
    let reusing = build(new, Some(&old)).unwrap();
    let fresh = build(new, None).unwrap();
    assert_eq!(
        format!("{:?}", reusing.schema),
        format!("{:?}", fresh.schema)
    );
    let path = "user.proto";
    Arc::ptr_eq(&old.schema.files[path], &reusing.schema.files[path])
}

/// The options: `label`'s message type comes from `labels.proto`, `level`'s enum is here.
const OPTS: &str =
    "syntax = \"proto3\";\npackage o;\nimport \"google/protobuf/descriptor.proto\";\n\
     import \"labels.proto\";\nenum Level { LOW = 0; HIGH = 1; }\n\
     extend google.protobuf.MessageOptions { l.Label label = 50001; Level level = 50002; }\n";

fn labels(fields: &str) -> String {
    format!("syntax = \"proto3\";\npackage l;\nmessage Label {{ {fields} }}\n")
}

const USER: &str =
    "syntax = \"proto3\";\npackage u;\nimport \"opts.proto\";\nimport \"other.proto\";\n\
     message M {\n  option (o.label) = { text: \"x\" size: 2 };\n  option (o.level) = HIGH;\n  \
     option deprecated = true;\n  Other other = 1;\n}\n";

const OTHER: &str = "syntax = \"proto3\";\npackage u;\nmessage Other {}\n";

/// Only a file the options do not read changed: the model is taken, its values the same.
#[test]
fn a_replayed_file_whose_options_read_nothing_changed_keeps_its_typed_values() {
    let labels = labels("string text = 1; int32 size = 2;");
    let old = [
        ("user.proto", USER),
        ("opts.proto", OPTS),
        ("labels.proto", labels.as_str()),
        ("other.proto", OTHER),
    ];
    let mut new = old;
    new[3].1 = "syntax = \"proto3\";\npackage u;\nmessage Other {}\nmessage Unrelated {}\n";
    assert!(built_alike(&old, &new));
}

/// The message type of the option changed in a file the options file imports (not in the
/// file declaring the option): the unchanged file is still checked, with a fresh build's
/// error when its literal sets a field that is gone, and its values typed again otherwise.
#[test]
fn an_option_type_changed_under_the_declaring_file_is_checked_again() {
    let old_labels = labels("string text = 1; int32 size = 2;");
    let old = [
        ("user.proto", USER),
        ("opts.proto", OPTS),
        ("labels.proto", old_labels.as_str()),
        ("other.proto", OTHER),
    ];
    let lost = labels("int32 size = 2;");
    let mut new = old;
    new[2].1 = lost.as_str();
    let old_build = build(&old, None).unwrap();
    let Err(error) = build(&new, Some(&old_build)) else {
        panic!("the literal sets a field `l.Label` no longer has");
    };
    let fresh = build(&new, None).err().unwrap();
    assert_eq!(shown(&error), shown(&fresh));
    assert_eq!(shown(&error).len(), 1, "{:?}", shown(&error));

    // `size` became a string: the literal's `2` no longer fits.
    let retyped = labels("string text = 1; string size = 2;");
    new[2].1 = retyped.as_str();
    let Err(error) = build(&new, Some(&old_build)) else {
        panic!("an integer for a string field must not build");
    };
    assert_eq!(shown(&error), shown(&build(&new, None).err().unwrap()));

    // `size` became an int64: it still builds, with the values a fresh build types.
    let widened = labels("string text = 1; int64 size = 2;");
    new[2].1 = widened.as_str();
    built_alike(&old, &new);
}
