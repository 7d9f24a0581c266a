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
    use crate::link::{build_schema, NoImports, SourceFile};
    let read_side = |dir: &std::path::Path| -> Option<crate::model::Schema> {
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
                files.push(SourceFile {
                    display_name: path.clone(),
                    path,
                    text: text.into(),
                });
            }
        }
        let built = build_schema(files, &NoImports).ok()?;
        let mut schema = built.schema;
        schema.files.extend(built.imports.files);
        Some(schema)
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
    let (mut compared, mut with_unchanged) = (0, 0);
    for (old_dir, new_dir) in sides {
        let (Some(old), Some(new)) = (read_side(&old_dir), read_side(&new_dir)) else {
            continue;
        };
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
}
