//! `check --fix` on real files: exact text after, formatting kept, idempotence, --dry-run,
//! refusal when the new side is not on disk.

use crate::support;

use std::path::Path;
use std::process::Output;

use support::{run, Repo};
use tempfile::TempDir;

/// `old/a.proto` and `new/a.proto` in a temporary directory.
fn case(old: &str, new: &str) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (side, text) in [("old", old), ("new", new)] {
        std::fs::create_dir_all(dir.path().join(side)).expect("mkdir");
        std::fs::write(dir.path().join(side).join("a.proto"), text).expect("write");
    }
    dir
}

/// A buf.yaml selecting WIRE_JSON (deletions are fine once reserved), outside both sides.
fn wire_json(dir: &Path) -> String {
    let path = dir.join("buf.yaml");
    std::fs::write(&path, "version: v1\nbreaking:\n  use: [WIRE_JSON]\n").expect("write");
    path.display().to_string()
}

/// `check --fix` under [`wire_json`] on a fresh [`case`].
fn fix_under_wire_json(old: &str, new: &str) -> (TempDir, Output) {
    let dir = case(old, new);
    let config = wire_json(dir.path());
    let out = check(dir.path(), &["--fix", "--config", &config]);
    (dir, out)
}

/// `--fix` under WIRE_JSON turns `new` into exactly `expected` and then passes.
fn fixes_to(old: &str, new: &str, expected: &str) {
    let (dir, out) = fix_under_wire_json(old, new);
    assert_eq!(new_text(dir.path()), expected);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

fn check(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["check", "new", "--against", "old"];
    args.extend_from_slice(extra);
    run(dir, &args)
}

fn new_text(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("new/a.proto")).expect("read")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const P3: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\n";

fn p3(body: &str) -> String {
    format!("{P3}{body}")
}

#[test]
fn a_proto3_message_without_reserved_gets_a_statement_per_kind() {
    let old =
        p3("message Order {\n  string id = 1;\n  // The discount.\n  double discount = 5;\n}\n");
    let new = p3("message Order {\n  string id = 1;\n}\n");
    let dir = case(&old, &new);
    let out = check(dir.path(), &["--fix"]);
    assert_eq!(
        new_text(dir.path()),
        p3("message Order {\n  reserved 5;\n  reserved \"discount\";\n  string id = 1;\n}\n")
    );
    let err = stderr(&out);
    assert!(
        err.contains("fixed: new/a.proto:5:1: FIELD_NO_DELETE"),
        "{err}"
    );
    // FIELD_NO_DELETE (FILE, the default) reports a deleted field even when it is reserved,
    // as buf does: generated code lost it. The re-run check says so with exit 1.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("FIELD_NO_DELETE"));
}

#[test]
fn merged_into_existing_statements_sorted_without_duplicates() {
    let old = p3("message Order {\n  reserved 2, 8 to 9;\n  reserved \"a\", \"z\";\n  string id = 1;\n  int32 m = 4;\n  int32 n = 12;\n}\n");
    let new = p3(
        "message Order {\n  reserved 2, 8 to 9;\n  reserved \"a\", \"z\";\n  string id = 1;\n}\n",
    );
    fixes_to(&old, &new, &p3("message Order {\n  reserved 2, 4, 8 to 9, 12;\n  reserved \"a\", \"m\", \"n\", \"z\";\n  string id = 1;\n}\n"));
}

#[test]
fn an_enum_value() {
    let old =
        p3("enum Status {\n  STATUS_UNSPECIFIED = 0;\n  STATUS_OPEN = 1;\n  STATUS_DONE = 2;\n}\n");
    let new = p3("enum Status {\n  STATUS_UNSPECIFIED = 0;\n  STATUS_DONE = 2;\n}\n");
    fixes_to(&old, &new, &p3("enum Status {\n  reserved 1;\n  reserved \"STATUS_OPEN\";\n  STATUS_UNSPECIFIED = 0;\n  STATUS_DONE = 2;\n}\n"));
}

#[test]
fn editions_reserve_names_as_identifiers() {
    let head = "edition = \"2023\";\n\npackage acme.v1;\n\n";
    let old = format!("{head}message Order {{\n  string id = 1;\n  int32 qty = 2;\n}}\n");
    let new = format!(
        "{head}message Order {{\n  reserved 7;\n  reserved legacy;\n  string id = 1;\n}}\n"
    );
    fixes_to(&old, &new, &format!("{head}message Order {{\n  reserved 2, 7;\n  reserved legacy, qty;\n  string id = 1;\n}}\n"));
}

#[test]
fn crlf_files_stay_crlf() {
    let old = "syntax = \"proto3\";\r\npackage acme.v1;\r\nmessage Order {\r\n  string id = 1;\r\n  int32 qty = 2;\r\n}\r\n";
    let new =
        "syntax = \"proto3\";\r\npackage acme.v1;\r\nmessage Order {\r\n  string id = 1;\r\n}\r\n";
    fixes_to(old, new, "syntax = \"proto3\";\r\npackage acme.v1;\r\nmessage Order {\r\n  reserved 2;\r\n  reserved \"qty\";\r\n  string id = 1;\r\n}\r\n");
}

#[test]
fn tab_indentation_is_kept_in_nested_messages() {
    let old = p3("message Order {\n\tmessage Line {\n\t\tstring sku = 1;\n\t\tint32 qty = 2;\n\t}\n\tLine line = 1;\n}\n");
    let new = p3("message Order {\n\tmessage Line {}\n\tLine line = 1;\n}\n");
    fixes_to(&old, &new, &p3("message Order {\n\tmessage Line {\n\t\treserved 1 to 2;\n\t\treserved \"qty\", \"sku\";\n\t}\n\tLine line = 1;\n}\n"));
}

#[test]
fn a_second_run_changes_nothing() {
    let old = p3("message Order {\n  string id = 1;\n  int32 qty = 2;\n}\n");
    let new = p3("message Order {\n  string id = 1;\n}\n");
    let dir = case(&old, &new);
    let config = wire_json(dir.path());
    let first = check(dir.path(), &["--fix", "--config", &config]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let after_first = new_text(dir.path());
    let second = check(dir.path(), &["--fix", "--config", &config]);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert_eq!(new_text(dir.path()), after_first);
    assert!(
        stderr(&second).contains("--fix: nothing to reserve."),
        "{}",
        stderr(&second)
    );
}

#[test]
fn dry_run_prints_the_diff_and_changes_nothing() {
    let old = p3("message Order {\n  string id = 1;\n  int32 qty = 2;\n}\n");
    let new = p3("message Order {\n  string id = 1;\n}\n");
    let dir = case(&old, &new);
    let out = check(dir.path(), &["--fix", "--dry-run"]);
    assert_eq!(new_text(dir.path()), new);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "--- a/new/a.proto\n+++ b/new/a.proto\n@@ -3,5 +3,7 @@\n package acme.v1;\n \n message Order {\n+  reserved 2;\n+  reserved \"qty\";\n   string id = 1;\n }\n"
    );
    assert!(
        stderr(&out).contains("nothing was changed"),
        "{}",
        stderr(&out)
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn json_output_stays_one_document_after_fixing() {
    let old = p3("message Order {\n  string id = 1;\n  int32 qty = 2;\n}\n");
    let new = p3("message Order {\n  string id = 1;\n}\n");
    let dir = case(&old, &new);
    let out = check(dir.path(), &["--fix", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["findings"][0]["rule"], "FIELD_NO_DELETE");
    assert_eq!(doc["summary"]["errors"], 1);
    assert!(
        stderr(&out).contains("fixed: new/a.proto:5:1"),
        "{}",
        stderr(&out)
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn refused_when_the_new_side_is_a_revision() {
    let repo = Repo::new();
    repo.write(
        "proto/a.proto",
        &p3("message Order {\n  string id = 1;\n  int32 qty = 2;\n}\n"),
    );
    repo.commit("c1");
    repo.write(
        "proto/a.proto",
        &p3("message Order {\n  string id = 1;\n}\n"),
    );
    repo.commit("c2");
    let out = run(
        repo.path(),
        &[
            "check",
            "proto",
            "--against",
            "HEAD~1",
            "--rev",
            "HEAD",
            "--fix",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("--fix edits the files on disk") && err.contains("--rev"),
        "{err}"
    );
    let out = run(
        repo.path(),
        &["check", "proto", "--against", "HEAD~1", "--staged", "--fix"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--staged"));
}

#[test]
fn the_working_tree_of_a_repository_is_fixed() {
    let repo = Repo::new();
    repo.write(
        "proto/a.proto",
        &p3("message Order {\n  string id = 1;\n  int32 qty = 2;\n}\n"),
    );
    repo.commit("c1");
    repo.write(
        "proto/a.proto",
        &p3("message Order {\n  string id = 1;\n}\n"),
    );
    let out = run(
        repo.path(),
        &["check", "proto", "--against", "HEAD", "--fix"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = std::fs::read_to_string(repo.path().join("proto/a.proto")).expect("read");
    assert!(
        text.contains("  reserved 2;\n  reserved \"qty\";\n"),
        "{text}"
    );
}
