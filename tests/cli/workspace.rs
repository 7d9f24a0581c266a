//! buf v1 workspaces (`buf.work.yaml`), buf's legacy file names (`buf.mod`, `buf.work`) and
//! `--against-config`, end to end on directories and git revisions. The expected findings are buf 1.75.0's own
//! (`buf breaking . --against ../old --error-format json` at the workspace root).

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{brief, check_fails, check_json, run, Repo};

/// testdata/workspace: modules `proto` (FILE except FIELD_NO_DELETE, `acme/legacy` ignored)
/// and `vendor` (FILE); `proto` imports `vendor`'s money.proto.
fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/workspace")
}

/// What buf reports on the fixture: the deletion in `vendor` (its rules keep
/// FIELD_NO_DELETE), not the one in `proto` (excepted there), not the change in the ignored
/// `proto/acme/legacy`; paths relative to the workspace root.
const FIXTURE_FINDINGS: [&str; 2] = [
    "FIELD_NO_DELETE vendor/common/v1/money.proto:5:1-8:2",
    "FIELD_SAME_TYPE proto/acme/v1/order.proto:10:3-10:9",
];

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

/// A copy of the fixture's two sides in a temporary directory, to vary.
fn fixture_copy() -> tempfile::TempDir {
    let dir = support::tempdir();
    copy_dir(&fixture(), dir.path());
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn check_new_against_old(dir: &Path) -> (i32, Vec<support::Finding>) {
    let (code, findings, _) = check_json(&dir.join("new"), &[".", "--against", "../old"]);
    (code, findings)
}

fn fails_new_against_old(dir: &Path) -> String {
    check_fails(&dir.join("new"), &[".", "--against", "../old"])
}

#[test]
fn each_module_uses_its_own_rules_and_imports_cross_modules() {
    let (code, findings, doc) = check_json(&fixture().join("new"), &[".", "--against", "../old"]);
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), FIXTURE_FINDINGS);
    let previous: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["previous"]["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        previous,
        // From the working directory: the old side is `../old`.
        [
            "../old/proto/acme/v1/order.proto",
            "../old/vendor/common/v1/money.proto"
        ]
    );
}

/// Files are paired by their path inside their module: moving a module directory (and its
/// entry in buf.work.yaml) is not a deletion, as in buf.
#[test]
fn each_side_reads_its_own_workspace_file() {
    let dir = fixture_copy();
    let new = dir.path().join("new");
    std::fs::rename(new.join("vendor"), new.join("third_party")).unwrap();
    write(
        &new,
        "buf.work.yaml",
        "version: v1\ndirectories:\n  - proto\n  - third_party\n",
    );
    let (code, findings) = check_new_against_old(dir.path());
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        [
            "FIELD_NO_DELETE third_party/common/v1/money.proto:5:1-8:2",
            "FIELD_SAME_TYPE proto/acme/v1/order.proto:10:3-10:9",
        ]
    );
}

/// HEAD~1 (the old fixture) against the working tree (the new one), both read from git.
#[test]
fn git_revisions_read_the_workspace_of_each_revision() {
    let repo = Repo::new();
    copy_dir(&fixture().join("old"), repo.path());
    repo.commit("old");
    write(repo.path(), "README", "unrelated\n");
    repo.commit("unrelated");
    copy_dir(&fixture().join("new"), repo.path());
    let (code, findings, _) = check_json(repo.path(), &[".", "--against", "HEAD~1"]);
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), FIXTURE_FINDINGS);

    // The working tree committed, compared as a revision too.
    repo.commit("new");
    let (code, findings, _) =
        check_json(repo.path(), &[".", "--rev", "HEAD", "--against", "HEAD~2"]);
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), FIXTURE_FINDINGS);

    // A broken workspace file in the old revision is named with that revision.
    write(
        repo.path(),
        "buf.work.yaml",
        "version: v1\ndirectories:\n  - proto\n  - missing\n",
    );
    repo.commit("broken workspace");
    copy_dir(&fixture().join("new"), repo.path());
    let err = check_fails(repo.path(), &[".", "--against", "HEAD"]);
    assert!(
        err.contains(
            "buf.work.yaml @ HEAD: directory \"missing\" listed in `directories` does not exist"
        ),
        "{err}"
    );
}

#[test]
fn a_module_without_buf_yaml_uses_bufs_defaults() {
    let dir = fixture_copy();
    for side in ["old", "new"] {
        std::fs::remove_file(dir.path().join(side).join("proto/buf.yaml")).unwrap();
    }
    let (code, findings) = check_new_against_old(dir.path());
    assert_eq!(code, 1);
    // buf's v1 defaults (FILE) keep FIELD_NO_DELETE and ignore nothing.
    assert_eq!(
        brief(&findings),
        [
            "FIELD_NO_DELETE proto/acme/v1/order.proto:7:1-11:2",
            "FIELD_NO_DELETE vendor/common/v1/money.proto:5:1-8:2",
            "FIELD_SAME_TYPE proto/acme/legacy/old.proto:6:3-6:8",
            "FIELD_SAME_TYPE proto/acme/v1/order.proto:10:3-10:9",
        ]
    );
}

/// protocompat.toml at ROOT gives the rules of every module; buf.work.yaml still gives the
/// modules (so imports across modules resolve and paths stay module-relative).
#[test]
fn protocompat_toml_rules_apply_to_every_module() {
    let dir = fixture_copy();
    write(
        &dir.path().join("new"),
        "protocompat.toml",
        "[breaking]\nuse = [\"FIELD_SAME_TYPE\"]\n",
    );
    let (code, findings) = check_new_against_old(dir.path());
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        [
            "FIELD_SAME_TYPE proto/acme/legacy/old.proto:6:3-6:8",
            "FIELD_SAME_TYPE proto/acme/v1/order.proto:10:3-10:9",
        ]
    );
}

/// `--config` with a buf.yaml replaces the workspace, as buf's `--config` does: one module at
/// ROOT, whose files are addressed from ROOT.
#[test]
fn config_yaml_replaces_the_workspace() {
    let dir = fixture_copy();
    write(
        dir.path(),
        "only-wire.yaml",
        "version: v1\nbreaking:\n  use: [WIRE]\n",
    );
    // One module rooted at ROOT: `common/v1/money.proto` (under vendor/) is no longer on the
    // import path, so the check refuses, as buf does...
    let stderr = check_fails(
        &dir.path().join("new"),
        &[".", "--against", "../old", "--config", "../only-wire.yaml"],
    );
    assert!(
        stderr.contains("import \"common/v1/money.proto\" was not found"),
        "{stderr}"
    );
    // ...unless missing imports are accepted: then the module's WIRE rules apply everywhere.
    let (code, findings, _) = check_json(
        &dir.path().join("new"),
        &[
            ".",
            "--against",
            "../old",
            "--config",
            "../only-wire.yaml",
            "--allow-missing-imports",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        [
            "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED proto/acme/v1/order.proto:7:1-11:2",
            "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED vendor/common/v1/money.proto:5:1-8:2",
            "FIELD_WIRE_COMPATIBLE_TYPE proto/acme/v1/order.proto:10:3-10:9",
        ]
    );
}

#[test]
fn invalid_workspaces_are_errors_naming_file_and_revision() {
    for (work, expected) in [
        (
            "version: v1\ndirectories:\n  - proto\n  - vendor\n  - nope\n",
            "buf.work.yaml @ working tree: directory \"nope\" listed in `directories` does not exist",
        ),
        (
            "version: v1\ndirectories:\n  - proto\n  - proto/acme\n",
            "buf.work.yaml @ working tree: directory \"proto\" contains directory \"proto/acme\"",
        ),
        (
            "version: v1\ndirectories:\n  - proto\n  - ./proto\n",
            "directory \"./proto\" is listed more than once",
        ),
        (
            "version: v2\ndirectories:\n  - proto\n",
            "buf.work.yaml @ working tree: version \"v2\" is not supported for workspace files",
        ),
        ("directories:\n  - proto\n", "\"version\" is not set"),
        ("version: v1\ndirectories: [proto\n", "invalid buf.work.yaml"),
        ("version: v1\ndirectories: []\n", "`directories` is empty"),
        ("version: v1\ndirectories: [..]\n", "outside the workspace"),
    ] {
        let dir = fixture_copy();
        write(&dir.path().join("new"), "buf.work.yaml", work);
        let err = fails_new_against_old(dir.path());
        assert!(err.contains(expected), "{work:?}:\n{err}");
    }
}

#[test]
fn the_against_side_is_validated_too() {
    let dir = fixture_copy();
    write(
        &dir.path().join("old"),
        "buf.work.yaml",
        "version: v1\ndirectories:\n  - proto\n  - vendor\n  - empty\n",
    );
    std::fs::create_dir_all(dir.path().join("old/empty")).unwrap();
    let err = fails_new_against_old(dir.path());
    assert!(
        err.contains("buf.work.yaml @ ../old: directory \"empty\" listed in `directories` has no .proto files"),
        "{err}"
    );
}

#[test]
fn bad_module_configurations_are_errors_naming_file_and_revision() {
    for (path, text, expected) in [
        (
            "buf.yaml",
            "version: v1\n",
            "buf.work.yaml and buf.yaml @ working tree: a workspace file and a buf.yaml cannot be in the same directory",
        ),
        (
            "vendor/buf.yaml",
            "version: v2\n",
            "vendor/buf.yaml @ working tree: version v2 in a module of the workspace buf.work.yaml @ working tree",
        ),
        (
            "vendor/buf.yaml",
            "version: v1\nbreaking:\n  use: [NOT_A_RULE]\n",
            "vendor/buf.yaml @ working tree: \"NOT_A_RULE\" is not a known rule",
        ),
    ] {
        let dir = fixture_copy();
        write(&dir.path().join("new"), path, text);
        let err = fails_new_against_old(dir.path());
        assert!(err.contains(expected), "{path}: {text:?}:\n{err}");
    }
}

/// buf's legacy name of buf.work.yaml.
#[test]
fn buf_work_is_read_like_buf_work_yaml() {
    let dir = fixture_copy();
    for side in ["old", "new"] {
        let side = dir.path().join(side);
        std::fs::rename(side.join("buf.work.yaml"), side.join("buf.work")).unwrap();
    }
    let (code, findings) = check_new_against_old(dir.path());
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), FIXTURE_FINDINGS);
}

/// A field renamed: FILE reports it (FIELD_SAME_NAME, FIELD_SAME_JSON_NAME), WIRE does not.
fn renamed_field() -> tempfile::TempDir {
    let dir = support::tempdir();
    write(
        &dir.path().join("old"),
        "a.proto",
        "syntax = \"proto3\";\npackage a.v1;\nmessage M {\n  int32 y = 1;\n}\n",
    );
    write(
        &dir.path().join("new"),
        "a.proto",
        "syntax = \"proto3\";\npackage a.v1;\nmessage M {\n  int32 y_renamed = 1;\n}\n",
    );
    dir
}

const WIRE: &str = "version: v1\nbreaking:\n  use: [WIRE]\n";

/// buf reads `buf.mod` (v1beta1/v1) where there is no buf.yaml, as the legacy name.
#[test]
fn buf_mod_is_the_legacy_name_of_buf_yaml() {
    let dir = renamed_field();
    write(&dir.path().join("new"), "buf.mod", WIRE);
    let (code, findings) = check_new_against_old(dir.path());
    assert_eq!((code, findings.len()), (0, 0));

    // buf.yaml wins, and buf.mod is then not read at all (as in buf).
    write(
        &dir.path().join("new"),
        "buf.mod",
        "version: v1\nbogus: 1\n",
    );
    write(&dir.path().join("new"), "buf.yaml", "version: v1\n");
    let (code, findings) = check_new_against_old(dir.path());
    assert_eq!((code, findings.len()), (1, 2));

    std::fs::remove_file(dir.path().join("new/buf.yaml")).unwrap();
    write(&dir.path().join("new"), "buf.mod", "version: v2\n");
    let err = fails_new_against_old(dir.path());
    assert!(
        err.contains("buf.mod @ working tree: version v2 is not supported for buf.mod files"),
        "{err}"
    );
}

/// buf never reads `buf.yml`: its rules do not apply (buf's defaults do), with a warning.
#[test]
fn buf_yml_is_not_read_as_buf_does_not_read_it() {
    let dir = renamed_field();
    write(&dir.path().join("new"), "buf.yml", WIRE);
    let out = run(
        &dir.path().join("new"),
        &["check", ".", "--against", "../old", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("buf.yml @ working tree: not read"),
        "{stderr}"
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["findings"].as_array().unwrap().len(), 2);
}

/// `--against-config` describes the old side's layout where its own configuration does not:
/// here the old side has no buf.work.yaml, and a v2 buf.yaml names the same modules (buf
/// 1.75.0 reports exactly these two with `--against-config`).
#[test]
fn against_config_gives_the_old_sides_layout() {
    let dir = fixture_copy();
    std::fs::remove_file(dir.path().join("old/buf.work.yaml")).unwrap();
    let err = fails_new_against_old(dir.path());
    assert!(
        err.contains("ROOT has 2 module(s) @ working tree but 1 @ ../old"),
        "{err}"
    );

    write(
        dir.path(),
        "against.yaml",
        "version: v2\nmodules:\n  - path: proto\n  - path: vendor\n",
    );
    let args = [
        ".",
        "--against",
        "../old",
        "--against-config",
        "../against.yaml",
    ];
    let (code, findings, _) = check_json(&dir.path().join("new"), &args);
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), FIXTURE_FINDINGS);

    write(dir.path(), "rules.toml", "[breaking]\n");
    let err = check_fails(
        &dir.path().join("new"),
        &[
            ".",
            "--against",
            "../old",
            "--against-config",
            "../rules.toml",
        ],
    );
    assert!(
        err.contains("--against-config ../rules.toml: not a buf.yaml"),
        "{err}"
    );
}

/// A revision whose own configuration is broken (or describes another layout) is read with
/// the one given instead: buf.yaml roots moved between revisions.
#[test]
fn against_config_replaces_a_revisions_own_configuration() {
    let repo = Repo::new();
    let a = |ty: &str| format!("syntax = \"proto3\";\npackage a;\nmessage A {{ {ty} x = 1; }}\n");
    repo.write("src/a/a.proto", &a("string"));
    repo.write("buf.yaml", "version: v1\nbreaking:\n  usee: [FILE]\n");
    repo.commit("old layout, broken config");
    repo.write("src/a/a.proto", &a("int32"));
    repo.write("buf.yaml", "version: v1beta1\nbuild:\n  roots: [src]\n");
    let err = check_fails(repo.path(), &[".", "--against", "HEAD"]);
    assert!(err.contains("buf.yaml @ HEAD: invalid buf.yaml"), "{err}");

    let elsewhere = support::tempdir();
    let layout = elsewhere.path().join("old-layout.yaml");
    std::fs::write(&layout, "version: v1beta1\nbuild:\n  roots: [src]\n").unwrap();
    let (code, findings, _) = check_json(
        repo.path(),
        &[
            ".",
            "--against",
            "HEAD",
            "--against-config",
            layout.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        ["FIELD_SAME_TYPE src/a/a.proto:3:13-3:18"]
    );
}

/// The buf binary, when this machine has one (`PROTOCOMPAT_BUF`, the peer install, or PATH).
fn buf_binary() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("PROTOCOMPAT_BUF").map(PathBuf::from),
        Some(PathBuf::from(
            "/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf",
        )),
        Some(PathBuf::from("buf")),
    ];
    candidates.into_iter().flatten().find(|buf| {
        Command::new(buf)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// buf's findings as `rule path:l:c-l:c`, sorted, run in `new` against `../old`. With
/// `--exclude-imports`: like protocompat, only each module's own files are checked.
fn buf_findings(buf: &Path, new: &Path) -> Vec<String> {
    let out = Command::new(buf)
        .args([
            "breaking",
            ".",
            "--against",
            "../old",
            "--error-format",
            "json",
        ])
        .arg("--exclude-imports")
        .current_dir(new)
        .output()
        .expect("buf runs");
    assert!(
        matches!(out.status.code(), Some(0 | 100)),
        "buf: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut findings: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let f: serde_json::Value = serde_json::from_str(line).expect("buf JSON line");
            format!(
                "{} {}:{}:{}-{}:{}",
                f["type"].as_str().unwrap(),
                f["path"].as_str().unwrap(),
                f["start_line"],
                f["start_column"],
                f["end_line"],
                f["end_column"]
            )
        })
        .collect();
    findings.sort();
    findings
}

/// Rewrites a file on both sides of a fixture copy.
fn both_sides(dir: &Path, path: &str, text: &str) {
    for side in ["old", "new"] {
        write(&dir.join(side), path, text);
    }
}

/// A change to a fixture copy (the directory holding `old` and `new`).
type Variant<'a> = &'a dyn Fn(&Path);

/// Our findings (rule, path, span) are exactly buf's, on the fixture and on variants of it:
/// v1beta1 roots and excludes inside a module, ignore_only and unstable packages, a module
/// directory moved. Skipped without buf.
#[test]
fn workspace_findings_match_buf() {
    let Some(buf) = buf_binary() else {
        eprintln!("skipped: no buf binary (set PROTOCOMPAT_BUF)");
        return;
    };
    let (_, ours, _) = check_json(&fixture().join("new"), &[".", "--against", "../old"]);
    assert_eq!(brief(&ours), buf_findings(&buf, &fixture().join("new")));

    let v1beta1_roots = |dir: &Path| {
        for side in ["old", "new"] {
            let proto = dir.join(side).join("proto");
            std::fs::create_dir_all(proto.join("src")).unwrap();
            std::fs::rename(proto.join("acme"), proto.join("src/acme")).unwrap();
        }
        both_sides(
            dir,
            "proto/buf.yaml",
            "version: v1beta1\nbuild:\n  roots: [src]\n  excludes: [src/acme/legacy]\n",
        );
    };
    let ignore_only_and_unstable = |dir: &Path| {
        both_sides(
            dir,
            "vendor/buf.yaml",
            "version: v1\nbreaking:\n  ignore_only:\n    FIELD_NO_DELETE: [common/v1]\n",
        );
        both_sides(
            dir,
            "proto/buf.yaml",
            "version: v1beta1\nbreaking:\n  use: [PACKAGE]\n  ignore_unstable_packages: true\n",
        );
        for side in ["old", "new"] {
            let path = dir.join(side).join("proto/acme/legacy/old.proto");
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::write(&path, text.replace("acme.legacy;", "acme.legacy.v1beta1;")).unwrap();
        }
    };
    let moved_module = |dir: &Path| {
        let new = dir.join("new");
        std::fs::rename(new.join("vendor"), new.join("third_party")).unwrap();
        write(
            &new,
            "buf.work.yaml",
            "version: v1\ndirectories: [third_party, proto]\n",
        );
    };
    let variants: [(&str, Variant); 3] = [
        ("v1beta1 roots", &v1beta1_roots),
        ("ignore_only, unstable", &ignore_only_and_unstable),
        ("moved module", &moved_module),
    ];
    for (name, vary) in variants {
        let dir = fixture_copy();
        vary(dir.path());
        let new = dir.path().join("new");
        let (_, ours, _) = check_json(&new, &[".", "--against", "../old"]);
        let theirs = buf_findings(&buf, &new);
        assert!(!theirs.is_empty(), "{name}: buf found nothing");
        assert_eq!(brief(&ours), theirs, "{name}");
    }
}

/// The README's workspace example is the fixture's buf.work.yaml, and its output is ours.
#[test]
fn readme_example_is_the_fixture() {
    let snippet = support::doc_snippet("buf-work-yaml");
    let file = std::fs::read_to_string(fixture().join("new/buf.work.yaml")).unwrap();
    assert_eq!(snippet, file);
    let out = run(
        &fixture().join("new"),
        &["check", ".", "--against", "../old", "--format", "short"],
    );
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        assert!(readme.contains(line), "README lacks: {line}");
    }
    assert_eq!(out.status.code(), Some(1));
}
