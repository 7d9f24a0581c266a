//! Configuration and directory sources, end to end (no git needed).

use crate::support;

use std::path::Path;

use support::{brief, check_json, run, Finding};

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

const A_OLD: &str = "syntax = \"proto3\";\npackage a;\nmessage A { string x = 1; }\n";
const A_NEW: &str = "syntax = \"proto3\";\npackage a;\nmessage A { int32 x = 1; }\n";
const B_OLD: &str = "syntax = \"proto3\";\npackage b.v1beta1;\nmessage B { string x = 1; }\n";
const B_NEW: &str = "syntax = \"proto3\";\npackage b.v1beta1;\nmessage B { int32 x = 1; }\n";

/// Two sides with a type change in `a` and one in the unstable package `b.v1beta1`.
fn sides(config: &str) -> tempfile::TempDir {
    let dir = support::tempdir();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    write(&old, "proto/a/a.proto", A_OLD);
    write(&new, "proto/a/a.proto", A_NEW);
    write(&old, "proto/b/b.proto", B_OLD);
    write(&new, "proto/b/b.proto", B_NEW);
    for side in [&old, &new] {
        write(side, "buf.yaml", config);
    }
    dir
}

/// `check --format json` of `dir/new` against `dir/old`, from `dir/new`.
fn check_new_against_old(dir: &Path) -> (i32, Vec<Finding>, serde_json::Value) {
    check_json(&dir.join("new"), &[".", "--against", "../old"])
}

#[test]
fn v2_module_paths_prefix_reports_and_ignores() {
    let dir = sides(
        "version: v2\nmodules:\n  - path: proto\n    breaking:\n      use: [FILE]\n      ignore: [proto/b]\n",
    );
    let (code, findings, _) = check_new_against_old(dir.path());
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        vec!["FIELD_SAME_TYPE proto/a/a.proto:3:13-3:18"]
    );
}

#[test]
fn v1beta1_roots_and_unstable_packages() {
    let dir = sides(
        "version: v1beta1\nbuild:\n  roots:\n    - proto\nbreaking:\n  use: [WIRE_JSON]\n  ignore_unstable_packages: true\n",
    );
    let (code, findings, doc) = check_new_against_old(dir.path());
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        // v1beta1 has no FIELD_WIRE_JSON_COMPATIBLE_TYPE; its WIRE_JSON holds FIELD_SAME_TYPE
        // (buf 1.75 reports exactly this).
        vec!["FIELD_SAME_TYPE proto/a/a.proto:3:13-3:18"]
    );
    assert_eq!(
        doc["findings"][0]["categories"],
        serde_json::json!(["FILE", "PACKAGE", "WIRE_JSON", "WIRE"])
    );
    // From the working directory: the old side is the `--against` directory.
    assert_eq!(
        doc["findings"][0]["previous"]["path"],
        "../old/proto/a/a.proto"
    );
}

#[test]
fn protocompat_toml_wins_over_buf_yaml() {
    let dir = sides("version: v1\nbreaking:\n  use: [FILE]\n");
    write(
        &dir.path().join("new"),
        "protocompat.toml",
        "[breaking]\nuse = [\"FIELD_NO_DELETE\"]\n",
    );
    let (code, findings, _) = check_new_against_old(dir.path());
    assert_eq!(code, 0);
    assert!(findings.is_empty());
}

#[test]
fn deprecated_ids_warn_and_select_replacements() {
    let dir = sides("version: v1\nbreaking:\n  use: [FIELD_SAME_LABEL]\n");
    let out = run(
        &dir.path().join("new"),
        &["check", ".", "--against", "../old", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("FIELD_SAME_LABEL")
            && stderr.contains("deprecated")
            && stderr.contains("FIELD_SAME_CARDINALITY, FIELD_WIRE_COMPATIBLE_CARDINALITY, FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY"),
        "{stderr}"
    );
}

#[test]
fn error_format_prints_bufs_output_and_text_is_the_default() {
    let dir = sides("version: v1\n");
    let new = dir.path().join("new");
    let check = |format: &[&str]| {
        let out = run(
            &new,
            &[&["check", ".", "--against", "../old"], format].concat(),
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // `--error-format` is buf's output, byte for byte, as `protocompat breaking` prints it.
    // buf's JSON: one object per line.
    let json = check(&["--error-format", "json"]);
    assert!(json
        .lines()
        .all(|line| serde_json::from_str::<serde_json::Value>(line).is_ok()));
    assert!(
        json.starts_with("{\"path\":\"proto/a/a.proto\",\"start_line\":3,\"start_column\":13,"),
        "{json}"
    );
    let text = check(&["--error-format", "text"]);
    assert!(
        text.starts_with("proto/a/a.proto:3:13:Field \"1\""),
        "{text}"
    );
    // protocompat's one-line format is `--format short`.
    let text = check(&["--format", "short"]);
    assert!(
        text.starts_with("proto/a/a.proto:3:13: error[FIELD_SAME_TYPE]: "),
        "{text}"
    );
    // The default is the rich text format: rule id as the code, the snippet of both sides.
    let text = check(&[]);
    assert!(text.starts_with("FIELD_SAME_TYPE\n"), "{text}");
    assert!(text.contains("╭─[proto/a/a.proto:3:13]"), "{text}");
    // Our own formats are not buf's: an error that points to --format.
    let out = run(
        &new,
        &[
            "check",
            ".",
            "--against",
            "../old",
            "--error-format",
            "sarif",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("are `--format`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_in_the_working_tree_are_not_followed_forever() {
    let dir = sides("version: v1\n");
    let new = dir.path().join("new");
    std::os::unix::fs::symlink(&new, new.join("proto/loop")).unwrap();
    let (code, findings, _) = check_json(&new, &[".", "--against", "../old"]);
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        vec![
            "FIELD_SAME_TYPE proto/a/a.proto:3:13-3:18",
            "FIELD_SAME_TYPE proto/b/b.proto:3:13-3:18"
        ]
    );
}

#[test]
fn rules_lists_ids_categories_defaults() {
    let out = run(Path::new("."), &["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("FIELD_SAME_TYPE "))
        .expect("FIELD_SAME_TYPE listed");
    assert!(
        line.contains("FILE,PACKAGE") && line.contains("yes"),
        "{line}"
    );
    assert!(
        !text.contains("FIELD_SAME_LABEL"),
        "deprecated ids only with --all"
    );
    let all = run(Path::new("."), &["rules", "--all"]);
    assert!(String::from_utf8_lossy(&all.stdout).contains("MESSAGE_SAME_MESSAGE_SET_WIRE_FORMAT"));
}

/// A v2 workspace with two modules and two rule sets: each module is checked with its own,
/// as buf does (`buf breaking --exclude-imports` reports exactly these four).
#[test]
fn v2_workspace_modules_use_their_own_rules() {
    let dir = support::tempdir();
    let config = "version: v2\nmodules:\n  - path: a\n  - path: b\n    breaking:\n      use: [WIRE]\n      ignore: [b/x]\nbreaking:\n  use: [FILE]\n";
    let files = [
        (
            "a/pa/a.proto",
            "syntax = \"proto3\";\npackage pa;\nimport \"pb/b.proto\";\nmessage A { string x = 1; pb.B b = 2; int32 gone = 3; }\n",
            "syntax = \"proto3\";\npackage pa;\nimport \"pb/b.proto\";\nmessage A { int32 x = 1; pb.B b = 2; }\n",
        ),
        (
            "b/pb/b.proto",
            "syntax = \"proto3\";\npackage pb;\nmessage B { string x = 1; int64 y = 2; }\n",
            "syntax = \"proto3\";\npackage pb;\nmessage B { int32 x = 1; }\n",
        ),
        (
            "b/x/x.proto",
            "syntax = \"proto3\";\npackage x;\nmessage X { string x = 1; }\n",
            "syntax = \"proto3\";\npackage x;\nmessage X { int32 x = 1; }\n",
        ),
    ];
    for (path, old, new) in files {
        write(&dir.path().join("old"), path, old);
        write(&dir.path().join("new"), path, new);
    }
    for side in ["old", "new"] {
        write(&dir.path().join(side), "buf.yaml", config);
    }
    let (code, findings, _) = check_new_against_old(dir.path());
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        vec![
            "FIELD_NO_DELETE a/pa/a.proto:4:1-4:39",
            "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED b/pb/b.proto:3:1-3:27",
            "FIELD_SAME_TYPE a/pa/a.proto:4:13-4:18",
            "FIELD_WIRE_COMPATIBLE_TYPE b/pb/b.proto:3:13-3:18",
        ]
    );
    // Fewer modules on the new side than on the old one cannot be paired.
    write(
        &dir.path().join("new"),
        "buf.yaml",
        "version: v2\nmodules:\n  - path: a\n",
    );
    let err = support::check_fails(&dir.path().join("new"), &[".", "--against", "../old"]);
    assert!(err.contains("module"), "{err}");
}
