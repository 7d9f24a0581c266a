//! Leaving unchanged files out of the judged pairs (`Diff`) changes no finding: these run the
//! rules over such diffs, so they live here, after the rules, not in `diff`.

use crate::diff::Diff;
use crate::test_support::build_test_schema as schema;

/// An unchanged file whose reference resolves differently because an imported file changed:
/// a type added nearer in scope (shadowing), or the referenced type turned into an enum.
/// Both are still judged and reported.
#[test]
fn a_changed_import_that_changes_how_an_unchanged_file_resolves_is_still_caught() {
    use crate::rules::RuleId;
    let user = "syntax = \"proto3\";\npackage a.b;\nimport \"types.proto\";\n\
                message User { Thing t = 1; }\n";
    let old_types = "syntax = \"proto3\";\npackage a;\nmessage Thing {}\n";
    // a.b.Thing is found before a.Thing from package a.b.
    let shadowing = "syntax = \"proto3\";\npackage a.b;\nmessage Thing {}\n";
    let old = schema(&[("user.proto", user), ("types.proto", old_types)]);
    let new = schema(&[("user.proto", user), ("types.proto", shadowing)]);
    let findings =
        crate::engine::run_rules(&Diff::new(&old, &new), &[RuleId::FieldSameType.meta()]);
    let at: Vec<_> = findings
        .iter()
        .map(|f| f.location.as_ref().map(|l| l.path.as_str()))
        .collect();
    assert_eq!(at, [Some("user.proto")], "{findings:?}");

    let as_enum = "syntax = \"proto3\";\npackage a;\nenum Thing { THING_ZERO = 0; }\n";
    let new = schema(&[("user.proto", user), ("types.proto", as_enum)]);
    let findings =
        crate::engine::run_rules(&Diff::new(&old, &new), &[RuleId::FieldSameType.meta()]);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].location.as_ref().unwrap().path, "user.proto");
}

/// The skip changes no finding: every rule case under `testdata/rules/` (and `direction/`, both ways),
/// all rules on, with and without unchanged files left out of the judged pairs.
#[test]
fn skipping_unchanged_files_changes_no_finding_on_the_rule_corpora() {
    use crate::link::{build_parsed_reusing, NoImports, Reuse, SourceFile};
    // A side's schema (compared files and imports), built alone or taking from `old`'s build.
    let read_side =
        |dir: &std::path::Path, old: Option<&Reuse>| -> Option<(crate::model::Schema, Reuse)> {
            let mut files = Vec::new();
            for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
                let entry = entry.ok()?;
                if entry.path().extension().is_some_and(|e| e == "proto") {
                    let path = entry
                        .path()
                        .strip_prefix(dir)
                        .ok()?
                        .to_string_lossy()
                        .replace('\\', "/");
                    let text = std::fs::read_to_string(entry.path()).ok()?;
                    let tree = std::sync::Arc::new(crate::parse::parse(&text));
                    let source = SourceFile {
                        display_name: path.clone(),
                        path,
                        text: text.into(),
                    };
                    files.push((source, tree));
                }
            }
            let built = build_parsed_reusing(files, &NoImports, old).ok()?;
            let mut schema = built.schema;
            schema.files.extend(built.imports.files);
            Some((schema, built.reuse))
        };
    let rules: Vec<_> = crate::rules::RULES
        .iter()
        .filter(|r| r.check.is_some())
        .collect();
    let render = |findings: Vec<crate::finding::Finding>| -> Vec<String> {
        findings
            .iter()
            .map(|f| format!("{} {:?} {:?} {}", f.rule, f.location, f.previous, f.message))
            .collect()
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut sides = vec![
        (root.join("direction/a"), root.join("direction/b")),
        (root.join("direction/b"), root.join("direction/a")),
    ];
    for case in std::fs::read_dir(root.join("rules")).unwrap().flatten() {
        sides.push((case.path().join("old"), case.path().join("new")));
    }
    let (mut compared, mut with_unchanged, mut with_taken) = (0, 0, 0);
    for (old_dir, new_dir) in sides {
        let (Some((old, reuse)), Some((new, _))) =
            (read_side(&old_dir, None), read_side(&new_dir, None))
        else {
            continue;
        };
        // The new side taking the old side's models (by closure or by replay) is the
        // same schema, so finds the same.
        let (taking, _) = read_side(&new_dir, Some(&reuse)).expect("builds alone");
        assert_eq!(
            format!("{taking:?}"),
            format!("{new:?}"),
            "{}",
            new_dir.display()
        );
        let taken = Diff::new(&old, &taking);
        // (The corpora's cases are small: the files they take are all unchanged with their
        // closure; the replay cases are tested in `link::reuse`.)
        let shared = |(path, file): (&String, &std::sync::Arc<crate::model::File>)| {
            old.files
                .get(path)
                .is_some_and(|o| std::sync::Arc::ptr_eq(o, file))
        };
        if taking.files.iter().any(shared) {
            with_taken += 1;
        }
        assert_eq!(
            render(crate::engine::run_rules(&taken, &rules)),
            render(crate::engine::run_rules(
                &Diff::judging_everything(&old, &new),
                &rules
            )),
            "{}",
            new_dir.display()
        );
        let skipping = Diff::new(&old, &new);
        if new.files.keys().any(|path| skipping.is_unchanged(path)) {
            with_unchanged += 1;
        }
        let everything = Diff::judging_everything(&old, &new);
        assert_eq!(
            render(crate::engine::run_rules(&skipping, &rules)),
            render(crate::engine::run_rules(&everything, &rules)),
            "{}",
            new_dir.display()
        );
        compared += 1;
    }
    assert!(compared >= 70, "only {compared} cases built");
    assert!(
        with_unchanged >= 5,
        "only {with_unchanged} cases have an unchanged file"
    );
    assert!(with_taken >= 5, "only {with_taken} cases take a model");
}

/// Builds both sides as `check` does (the new one taking from the old one's build), and alone.
fn built_taking(
    old: &[(&str, &str)],
    new: &[(&str, &str)],
) -> (
    crate::model::Schema,
    crate::model::Schema,
    crate::model::Schema,
) {
    use crate::link::Reuse;
    let build = |files: &[(&str, &str)], reuse: Option<&Reuse>| {
        crate::test_support::build_reusing_texts(files, reuse).unwrap()
    };
    let old = build(old, None);
    let taking = build(new, Some(&old.reuse)).schema;
    (old.schema, taking, build(new, None).schema)
}

/// A type added nearer in scope in another import of an unchanged file: the file is not taken
/// by replay, and the changed type is still reported there.
#[test]
fn a_new_nearer_type_in_another_import_is_still_reported_when_the_new_side_takes_models() {
    use crate::rules::RuleId;
    let user = "syntax = \"proto3\";\npackage a.b;\nimport \"types.proto\";\n\
                import \"near.proto\";\nmessage User { Thing t = 1; }\n";
    let types = "syntax = \"proto3\";\npackage a;\nmessage Thing {}\n";
    let near = "syntax = \"proto3\";\npackage a.b;\nmessage Other {}\n";
    let shadowing = "syntax = \"proto3\";\npackage a.b;\nmessage Other {}\nmessage Thing {}\n";
    let (old, taking, fresh) = built_taking(
        &[
            ("user.proto", user),
            ("types.proto", types),
            ("near.proto", near),
        ],
        &[
            ("user.proto", user),
            ("types.proto", types),
            ("near.proto", shadowing),
        ],
    );
    let rules = [RuleId::FieldSameType.meta()];
    reported_in_user_proto_as_alone((&old, &taking, &fresh), &rules);
}

/// A file the new side takes from the old build by replay (same text, every lookup the same)
/// whose field names an enum that changed in an import: the field is one object at both
/// sides, but FIELD_SAME_DEFAULT reads the default through the enum, so the pair is still
/// judged (`Diff::same_references`) and the changed default still reported there.
#[test]
fn a_shared_field_whose_enum_changed_in_an_import_is_still_judged() {
    use crate::rules::RuleId;
    let user = "syntax = \"proto2\";\npackage a;\nimport \"types.proto\";\n\
                message User { optional E e = 1 [default = B]; }\n";
    let types = "syntax = \"proto2\";\npackage a;\nenum E { A = 0; B = 1; }\n";
    // B is renumbered; the first value (the closed enum's fact the replay checks) is kept.
    let renumbered = "syntax = \"proto2\";\npackage a;\nenum E { A = 0; C = 1; B = 2; }\n";
    let (old, taking, fresh) = built_taking(
        &[("user.proto", user), ("types.proto", types)],
        &[("user.proto", user), ("types.proto", renumbered)],
    );
    assert!(
        std::sync::Arc::ptr_eq(&old.files["user.proto"], &taking.files["user.proto"]),
        "user.proto is taken by replay"
    );
    let rules = [RuleId::FieldSameDefault.meta()];
    reported_in_user_proto_as_alone((&old, &taking, &fresh), &rules);
}

/// The pairs of a file the new side took from the old build, and of its elements, are left
/// out of the judged lists (the full lists keep them); a field naming a type that is not the
/// same object at both sides stays judged.
#[test]
fn the_judged_lists_leave_out_elements_shared_by_both_models() {
    let user = "syntax = \"proto3\";\npackage a;\nimport \"types.proto\";\n\
                message User { Thing t = 1; int32 n = 2; }\n";
    let types = "syntax = \"proto3\";\npackage a;\nmessage Thing {}\n";
    let grown = "syntax = \"proto3\";\npackage a;\nmessage Thing { int32 x = 1; }\n";
    let (old, taking, _) = built_taking(
        &[("user.proto", user), ("types.proto", types)],
        &[("user.proto", user), ("types.proto", grown)],
    );
    assert!(std::sync::Arc::ptr_eq(
        &old.files["user.proto"],
        &taking.files["user.proto"]
    ));
    let diff = Diff::new(&old, &taking);
    let judged = diff.judged();
    let files: Vec<&str> = judged.file_pairs().map(|(n, _)| n.path.as_str()).collect();
    assert_eq!(files, ["types.proto"]);
    let messages: Vec<&str> = judged
        .message_pairs()
        .iter()
        .map(|p| p.new.item.full_name.as_str())
        .collect();
    assert_eq!(messages, ["a.Thing"]);
    let fields: Vec<&str> = judged
        .field_pairs()
        .iter()
        .map(|p| p.new.field.name.as_str())
        .collect();
    assert_eq!(fields, ["t"], "t names a.Thing, changed; n is an int32");
    assert_eq!(diff.message_pairs().len(), 2);
    assert_eq!(diff.field_pairs().len(), 2);
    let everything = Diff::judging_everything(&old, &taking);
    assert_eq!(everything.judged().field_pairs().len(), 2);
}

/// `rules` report in `user.proto` between `old` and the new side that took models from it,
/// exactly as between `old` and the new side built alone.
fn reported_in_user_proto_as_alone(
    (old, taking, fresh): (
        &crate::model::Schema,
        &crate::model::Schema,
        &crate::model::Schema,
    ),
    rules: &[&'static crate::rules::RuleMeta],
) {
    let findings = crate::engine::run_rules(&Diff::new(old, taking), rules);
    let at: Vec<_> = findings
        .iter()
        .map(|f| f.location.as_ref().map(|l| l.path.as_str()))
        .collect();
    assert_eq!(at, [Some("user.proto")], "{findings:?}");
    let alone = crate::engine::run_rules(&Diff::new(old, fresh), rules);
    assert_eq!(format!("{findings:?}"), format!("{alone:?}"));
}
