//! Files of the build that are not compared: a vendored copy replaced by a bundled
//! well-known type, a file moved to an `-I` root or into another module of a v2 workspace.
//! buf compares every file of the two builds, imports included, and `--exclude-imports`
//! only drops findings located in imports: a file that left the compared set but is still
//! imported is not deleted (issue 15; buf 1.75.0's verdict on each pair is in the comment).
//! Also: `-I` directories anywhere on disk with `--git-dir`.

use std::path::Path;

use crate::support::{brief, check_json, git_in, tempdir, Repo};

const BUF_YAML: &str = "version: v2\nbreaking:\n  use: [FILE, PACKAGE, WIRE_JSON, WIRE]\n";

const VENDORED_EMPTY: &str = "syntax = \"proto3\";

package google.protobuf;

message Empty {}
";

const USES_EMPTY: &str = "syntax = \"proto3\";

package acme;

import \"google/protobuf/empty.proto\";

message A {
  google.protobuf.Empty e = 1;
}
";

/// Old: a vendored `google/protobuf/empty.proto` that `a.proto` imports; new: the copy is
/// gone and the same import resolves to the bundled well-known type. buf: no finding
/// (milvus-proto d8cfcb4d86 "remove descriptor.proto" is the real case).
#[test]
fn a_vendored_file_replaced_by_the_bundled_well_known_type_is_not_deleted() {
    let repo = Repo::new();
    repo.write("buf.yaml", BUF_YAML);
    repo.write("google/protobuf/empty.proto", VENDORED_EMPTY);
    repo.write("a.proto", USES_EMPTY);
    repo.commit("vendored empty.proto");
    repo.remove("google/protobuf/empty.proto");
    repo.commit("the bundled empty.proto instead");

    let (code, findings, _) = check_json(repo.path(), &["--rev", "HEAD", "--against", "HEAD~1"]);
    assert_eq!(brief(&findings), Vec::<String>::new());
    assert_eq!(code, 0);
}

const DEP: &str = "syntax = \"proto3\";

package dep;

message Dep {
  string id = 1;
}
";

const OTHER_DEP: &str = "syntax = \"proto3\";

package dep;

message Other {
  string id = 1;
}
";

const USES_DEP: &str = "syntax = \"proto3\";

package acme;

import \"dep.proto\";

message A {
  dep.Dep d = 1;
}
";

const A_ALONE: &str = "syntax = \"proto3\";

package acme;

message A {
  string id = 1;
}
";

/// A history where `proto/dep.proto` (compared) moves, unchanged, to the include root
/// `deps/`, with `proto/a.proto` as given on both sides; the findings of the move.
fn move_to_include_root(a: &str) -> (i32, Vec<String>) {
    let repo = Repo::new();
    repo.write("proto/buf.yaml", BUF_YAML);
    repo.write("proto/a.proto", a);
    repo.write("proto/dep.proto", DEP);
    repo.write("deps/other.proto", OTHER_DEP);
    repo.commit("dep.proto compared");
    repo.git(&["mv", "proto/dep.proto", "deps/dep.proto"]);
    repo.commit("dep.proto moves to the include root");
    let (code, findings, _) = check_json(
        repo.path(),
        &[
            "proto",
            "-I",
            "deps",
            "--rev",
            "HEAD",
            "--against",
            "HEAD~1",
        ],
    );
    (code, brief(&findings))
}

/// buf 1.75.0 (deps/ as a second module): no finding while `a.proto` imports the moved
/// file; FILE_NO_DELETE and PACKAGE_NO_DELETE when nothing does (the file and its package
/// are then in neither build).
#[test]
fn a_file_moved_to_an_include_root_is_not_deleted_while_imported() {
    assert_eq!(move_to_include_root(USES_DEP), (0, vec![]));
    assert_eq!(
        move_to_include_root(A_ALONE),
        (
            1,
            vec![
                "FILE_NO_DELETE <deleted>:1:1-1:1".to_string(),
                "PACKAGE_NO_DELETE <deleted>:1:1-1:1".to_string(),
            ]
        )
    );
}

const D: &str = "syntax = \"proto3\";

package acme;

message D {
  string id = 1;
}
";

const X_IMPORTS_D: &str = "syntax = \"proto3\";

package acme;

import \"d.proto\";

message X {
  string id = 1;
}
";

const X_ALONE: &str = "syntax = \"proto3\";

package acme;

message X {
  string id = 1;
}
";

const ONE_MODULE: &str =
    "version: v2\nmodules:\n  - path: a\nbreaking:\n  use: [FILE, PACKAGE, WIRE_JSON, WIRE]\n";
const TWO_MODULES: &str = "version: v2\nmodules:\n  - path: a\n  - path: b\nbreaking:\n  use: [FILE, PACKAGE, WIRE_JSON, WIRE]\n";

/// The old side of the workspace pair: module `a/` with `d.proto` and `x.proto` importing it.
fn one_module(dir: &Path) {
    write(dir, "buf.yaml", ONE_MODULE);
    write(dir, "a/d.proto", D);
    write(dir, "a/x.proto", X_IMPORTS_D);
}

/// The new side: `d.proto` moved, unchanged, into a new module `b/`; `x.proto` as given.
fn two_modules(dir: &Path, x: &str) {
    write(dir, "buf.yaml", TWO_MODULES);
    write(dir, "b/d.proto", D);
    write(dir, "a/x.proto", x);
}

fn write(dir: &Path, path: &str, text: &str) {
    let full = dir.join(path);
    std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
    std::fs::write(full, text).expect("write");
}

/// buf 1.75.0: no finding while `x.proto` still imports `d.proto` (module `a`'s new build
/// holds it as an import from `b`); FILE_NO_DELETE and PACKAGE_MESSAGE_NO_DELETE once
/// nothing imports it.
#[test]
fn a_file_moved_unchanged_into_a_new_workspace_module_is_not_deleted() {
    let root = tempdir();
    let old = root.path().join("old");
    one_module(&old);
    for (x, expected, exit) in [
        (X_IMPORTS_D, vec![], 0),
        (
            X_ALONE,
            vec![
                "FILE_NO_DELETE <deleted>:1:1-1:1",
                "PACKAGE_MESSAGE_NO_DELETE <deleted>:1:1-1:1",
            ],
            1,
        ),
    ] {
        let new = root
            .path()
            .join(if exit == 0 { "imported" } else { "alone" });
        two_modules(&new, x);
        let (code, findings, _) = check_json(
            root.path(),
            &[new.to_str().expect("utf-8"), "--against", "old"],
        );
        assert_eq!(brief(&findings), expected, "x.proto:\n{x}");
        assert_eq!(code, exit);
    }
}

const A_V1: &str = "syntax = \"proto3\";

package acme;

import \"dep.proto\";

message A {
  dep.Dep d = 1;
  string note = 2;
}
";

const A_V2: &str = "syntax = \"proto3\";

package acme;

import \"dep.proto\";

message A {
  dep.Dep d = 1;
  int64 note = 2;
}
";

/// A repository whose schema imports `dep.proto` from a dependency directory kept outside
/// it; `note` changes type between the two commits.
fn repo_with_outside_deps() -> (Repo, tempfile::TempDir) {
    let deps = tempdir();
    write(deps.path(), "dep.proto", DEP);
    let repo = Repo::new();
    repo.write("buf.yaml", BUF_YAML);
    repo.write("a.proto", A_V1);
    repo.commit("c1");
    repo.write("a.proto", A_V2);
    repo.commit("c2: note becomes int64");
    (repo, deps)
}

const NOTE_CHANGED: [&str; 3] = [
    "FIELD_SAME_TYPE a.proto:9:3-9:8",
    "FIELD_WIRE_COMPATIBLE_TYPE a.proto:9:3-9:8",
    "FIELD_WIRE_JSON_COMPATIBLE_TYPE a.proto:9:3-9:8",
];

/// An `-I` directory anywhere on disk is read from disk for both revisions: from inside the
/// working tree, and with `--git-dir` (a bare clone) run from a third directory, given as an
/// absolute path and as a relative one.
#[test]
fn an_include_root_outside_the_repository_is_read_from_disk() {
    let (repo, deps) = repo_with_outside_deps();
    let deps_abs = deps.path().to_str().expect("utf-8").to_string();

    let (code, findings, _) = check_json(
        repo.path(),
        &["-I", &deps_abs, "--rev", "HEAD", "--against", "HEAD~1"],
    );
    assert_eq!(brief(&findings), NOTE_CHANGED);
    assert_eq!(code, 1);

    let elsewhere = tempdir();
    let bare = elsewhere.path().join("bare.git");
    git_in(
        elsewhere.path(),
        &[
            "clone",
            "-q",
            "--bare",
            repo.path().to_str().expect("utf-8"),
            "bare.git",
        ],
    );
    let cwd = elsewhere.path().join("cwd");
    std::fs::create_dir(&cwd).expect("mkdir");
    let relative = pathdiff(deps.path(), &cwd);
    for include in [deps_abs.as_str(), relative.as_str()] {
        let (code, findings, _) = check_json(
            &cwd,
            &[
                ".",
                "--git-dir",
                bare.to_str().expect("utf-8"),
                "-I",
                include,
                "--rev",
                "HEAD",
                "--against",
                "HEAD~1",
            ],
        );
        assert_eq!(brief(&findings), NOTE_CHANGED, "-I {include}");
        assert_eq!(code, 1);
    }
}

/// `to` relative to `from` (both absolute, on the same filesystem).
fn pathdiff(to: &Path, from: &Path) -> String {
    let to = to.canonicalize().expect("canonical");
    let from = from.canonicalize().expect("canonical");
    let common = to
        .components()
        .zip(from.components())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from.components().count() - common;
    let mut out = std::path::PathBuf::new();
    for _ in 0..ups {
        out.push("..");
    }
    for c in to.components().skip(common) {
        out.push(c);
    }
    out.to_str().expect("utf-8").to_string()
}
