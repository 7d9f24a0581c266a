//! The loader's parse cache on a real git repository; the rules' skip of unchanged files.

use std::path::Path;
use std::sync::Arc;

use git2::{Oid, Repository, Signature};

use super::{load, run_rules, Loader, PathFilter};
use crate::config::{Layout, Module};
use crate::diff::Diff;
use crate::source::{GitTree, Repo, Snapshot, Tree};
use crate::test_support::build_test_schema as schema;

/// Commits `files` (path, text) as the whole tree of a new commit; returns its tree id.
fn commit(repo: &Repository, files: &[(&str, &str)]) -> Oid {
    let workdir = repo.workdir().unwrap();
    let mut index = repo.index().unwrap();
    index.clear().unwrap();
    for (path, text) in files {
        let full = workdir.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(&full, text).unwrap();
        index.add_path(Path::new(path)).unwrap();
    }
    let tree = index.write_tree().unwrap();
    let signature = Signature::now("t", "t@example.com").unwrap();
    let parents: Vec<_> = repo
        .head()
        .ok()
        .and_then(|h| h.peel_to_commit().ok())
        .into_iter()
        .collect();
    let parents: Vec<_> = parents.iter().collect();
    let tree_object = repo.find_tree(tree).unwrap();
    repo.commit(
        Some("HEAD"),
        &signature,
        &signature,
        "c",
        &tree_object,
        &parents,
    )
    .unwrap();
    tree
}

/// The module root `proto/`, with `deps/` (when the tree has it) as an `-I` root.
fn snapshot(repo: &Repo, tree: Oid, label: &str) -> Snapshot {
    let open = |dir: &str| -> Option<Arc<dyn Tree>> {
        let tree = GitTree::new(repo, tree, dir, label).unwrap()?;
        Some(Arc::new(tree))
    };
    Snapshot {
        root: open("").unwrap(),
        includes: open("deps").into_iter().collect(),
    }
}

fn layout() -> Layout {
    Layout {
        modules: vec![Module {
            roots: vec!["proto".to_string()],
            ..Layout::default().modules.remove(0)
        }],
    }
}

const A: &str = "syntax = \"proto3\";\npackage a;\nmessage A { int32 x = 1; }\n";
const B: &str = "syntax = \"proto3\";\npackage b;\nimport \"a.proto\";\nimport \"d.proto\";\nimport \"google/protobuf/empty.proto\";\nmessage B { a.A a = 1; d.D d = 2; google.protobuf.Empty e = 3; }\n";
const C1: &str = "syntax = \"proto3\";\npackage c;\nmessage C { string s = 1; }\n";
const C2: &str = "syntax = \"proto3\";\npackage c;\nmessage C { string s = 1; bytes t = 2; }\n";
const D: &str = "syntax = \"proto3\";\npackage d;\nmessage D {}\n";

#[test]
fn a_loader_reads_and_parses_each_blob_once_and_builds_what_load_builds() {
    let dir = tempfile::tempdir().unwrap();
    let git = Repository::init(dir.path()).unwrap();
    let files = |c: &'static str| {
        [
            ("proto/a.proto", A),
            ("proto/b.proto", B),
            ("proto/c.proto", c),
            ("deps/d.proto", D),
        ]
    };
    let first = commit(&git, &files(C1));
    let second = commit(&git, &files(C2));
    let repo = Repo::discover(dir.path()).unwrap();
    let (layout, filter) = (layout(), PathFilter::default());

    let loader = Loader::new();
    for (n, tree) in [first, second].into_iter().enumerate() {
        let side = snapshot(&repo, tree, &format!("rev{n}"));
        let cached = loader.load(&side, &layout, 0, &filter).unwrap();
        let plain = load(
            &snapshot(&repo, tree, &format!("rev{n}")),
            &layout,
            0,
            &filter,
        )
        .unwrap();
        assert_eq!(
            format!("{:?}", cached.built.schema),
            format!("{:?}", plain.built.schema)
        );
        assert_eq!(
            format!("{:?}", cached.built.imports),
            format!("{:?}", plain.built.imports)
        );
        let d = &cached.built.imports.files["d.proto"];
        assert_eq!(&*d.text, D);
    }
    // First load: a, b, c and the -I file d read and parsed; second: only the new c.
    let stats = loader.stats();
    assert_eq!((stats.misses, stats.hits), (5, 3), "{stats:?}");
    assert_eq!(stats.entries, 5);
}

#[test]
fn a_loader_forgets_files_the_recent_loads_did_not_use() {
    let dir = tempfile::tempdir().unwrap();
    let git = Repository::init(dir.path()).unwrap();
    let first = commit(&git, &[("proto/c.proto", C1)]);
    let second = commit(&git, &[("proto/c.proto", C2)]);
    let repo = Repo::discover(dir.path()).unwrap();
    let (layout, filter) = (layout(), PathFilter::default());
    let loader = Loader::keeping(1);
    for tree in [first, second, first] {
        loader
            .load(&snapshot(&repo, tree, "r"), &layout, 0, &filter)
            .unwrap();
    }
    // Each load only kept its own c: the third load read the first c again.
    let stats = loader.stats();
    assert_eq!((stats.misses, stats.hits, stats.entries), (3, 0, 1));
}

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
    let findings = run_rules(&Diff::new(&old, &new), &[RuleId::FieldSameType.meta()]);
    let at: Vec<_> = findings
        .iter()
        .map(|f| f.location.as_ref().map(|l| l.path.as_str()))
        .collect();
    assert_eq!(at, [Some("user.proto")], "{findings:?}");

    let as_enum = "syntax = \"proto3\";\npackage a;\nenum Thing { THING_ZERO = 0; }\n";
    let new = schema(&[("user.proto", user), ("types.proto", as_enum)]);
    let findings = run_rules(&Diff::new(&old, &new), &[RuleId::FieldSameType.meta()]);
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
        if new.files.keys().any(|p| skipping.is_unchanged(p)) {
            with_unchanged += 1;
        }
        let everything = Diff::judging_everything(&old, &new);
        assert_eq!(
            render(run_rules(&skipping, &rules)),
            render(run_rules(&everything, &rules)),
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
