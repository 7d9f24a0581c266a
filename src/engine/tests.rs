//! The loader's parse cache on a real git repository.

use std::path::Path;
use std::sync::Arc;

use git2::{Oid, Repository, Signature};

use super::{load, Loader, PathFilter};
use crate::config::{Layout, Module};
use crate::source::{GitTree, Repo, Snapshot, Tree};

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

#[test]
fn collecting_both_sides_through_one_loader_shares_identical_blobs_and_builds_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let git = Repository::init(dir.path()).unwrap();
    let files = |c: &'static str| [("proto/a.proto", A), ("proto/c.proto", c)];
    let old = commit(&git, &files(C1));
    let new = commit(&git, &files(C2));
    let repo = Repo::discover(dir.path()).unwrap();
    let (layout, filter) = (layout(), PathFilter::default());

    let loader = Loader::new();
    let mut new_files = loader
        .collect(&snapshot(&repo, new, "new"), &layout, 0, &filter)
        .unwrap();
    let mut old_files = loader
        .collect(&snapshot(&repo, old, "old"), &layout, 0, &filter)
        .unwrap();
    // a.proto is the same blob at both sides: read and parsed once, its text shared; the
    // two versions of c.proto are read apart.
    let stats = loader.stats();
    assert_eq!((stats.misses, stats.hits), (3, 1), "{stats:?}");
    drop(loader);
    let text = |files: &super::Collected, path: &str| {
        let file = files.files.iter().find(|f| f.path == path).unwrap();
        file.text.clone()
    };
    assert!(Arc::ptr_eq(
        &text(&new_files, "a.proto"),
        &text(&old_files, "a.proto")
    ));
    assert!(!Arc::ptr_eq(
        &text(&new_files, "c.proto"),
        &text(&old_files, "c.proto")
    ));

    // Each build is exactly what a build of its side alone gives.
    for (files, tree, label) in [(&mut new_files, new, "new"), (&mut old_files, old, "old")] {
        let built = super::build(files).unwrap();
        let plain = load(&snapshot(&repo, tree, label), &layout, 0, &filter).unwrap();
        assert_eq!(
            format!("{:?}", built.schema),
            format!("{:?}", plain.built.schema)
        );
    }
}

#[test]
fn two_directories_share_the_files_whose_bytes_are_equal_and_build_the_same() {
    let write = |files: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        dir
    };
    let new_dir = write(&[("proto/a.proto", A), ("proto/c.proto", C2)]);
    let old_dir = write(&[("proto/a.proto", A), ("proto/c.proto", C1)]);
    let side = |dir: &Path, label: &str| Snapshot {
        root: Arc::new(crate::source::FsTree::new(dir, label)),
        includes: vec![],
    };
    let (layout, filter) = (layout(), PathFilter::default());
    let collect =
        |dir: &Path, label: &str| super::collect(&side(dir, label), &layout, 0, &filter).unwrap();
    let mut new_files = collect(new_dir.path(), "new");
    let mut old_files = collect(old_dir.path(), "old");
    super::share_identical(&mut new_files, &mut old_files);
    let text = |files: &super::Collected, path: &str| {
        let file = files.files.iter().find(|f| f.path == path).unwrap();
        file.text.clone()
    };
    assert!(Arc::ptr_eq(
        &text(&new_files, "a.proto"),
        &text(&old_files, "a.proto")
    ));
    assert!(!Arc::ptr_eq(
        &text(&new_files, "c.proto"),
        &text(&old_files, "c.proto")
    ));
    for (files, dir, label) in [
        (&mut new_files, new_dir.path(), "new"),
        (&mut old_files, old_dir.path(), "old"),
    ] {
        let built = super::build(files).unwrap();
        let plain = load(&side(dir, label), &layout, 0, &filter).unwrap();
        assert_eq!(
            format!("{:?}", built.schema),
            format!("{:?}", plain.built.schema)
        );
    }
}
