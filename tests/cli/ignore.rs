//! `// protocompat:ignore` directives end to end: per element, per file, children covered,
//! missing reason, unknown rule, unused directive, --show-ignored, the JSON summary count.

use crate::support;

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use support::run;
use tempfile::TempDir;

fn case(old: &str, new: &str) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (side, text) in [("old", old), ("new", new)] {
        std::fs::create_dir_all(dir.path().join(side)).expect("mkdir");
        std::fs::write(dir.path().join(side).join("a.proto"), text).expect("write");
    }
    dir
}

fn check(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["check", "new", "--against", "old"];
    args.extend_from_slice(extra);
    run(dir, &args)
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("JSON document")
}

/// The rules of `key`'s findings; the hazards (on in every config) are left out, since the
/// directives here name buf's rules.
fn rules(doc: &Value, key: &str) -> Vec<String> {
    doc[key]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| f["rule"].as_str().unwrap_or("").to_string())
                .filter(|r| !support::is_hazard(r))
                .collect()
        })
        .unwrap_or_default()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const HEAD: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\n";

const OLD: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n  int32 qty = 2;\n  double discount = 3;\n}\n\nmessage Item {\n  int32 count = 1;\n}\n";

/// Order: field 2 deleted, field 3's type changed; Item: field 1's type changed.
fn new_with(order_comment: &str, item_comment: &str) -> String {
    format!("{HEAD}{order_comment}message Order {{\n  string id = 1;\n  string discount = 3;\n}}\n\n{item_comment}message Item {{\n  int64 count = 1;\n}}\n")
}

#[test]
fn a_message_directive_covers_its_fields_and_deleted_fields() {
    let new = new_with(
        "// Orders.\n// protocompat:ignore FIELD_NO_DELETE, FIELD_SAME_TYPE -- orders v1 is not deployed yet\n",
        "",
    );
    let dir = case(OLD, &new);
    let out = check(dir.path(), &["--format", "json", "--show-ignored"]);
    let doc = json(&out);
    assert_eq!(rules(&doc, "findings"), ["FIELD_SAME_TYPE"]);
    assert_eq!(doc["findings"][0]["start_line"], 13);
    assert_eq!(
        rules(&doc, "ignored"),
        ["FIELD_NO_DELETE", "FIELD_SAME_TYPE"]
    );
    assert_eq!(doc["ignored"][0]["reason"], "orders v1 is not deployed yet");
    assert_eq!(doc["ignored"][0]["directive"]["start_line"], 6);
    assert_eq!(doc["summary"]["ignored"], 2);
    assert_eq!(doc["summary"]["errors"], 1);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn all_ignored_exits_zero_and_the_text_summary_counts_them() {
    let new = new_with(
        "// protocompat:ignore FIELD_NO_DELETE, FIELD_SAME_TYPE -- not deployed\n",
        "/* protocompat:ignore FILE -- counts fit in 32 bits */\n",
    );
    let dir = case(OLD, &new);
    let out = check(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "3 findings ignored by protocompat:ignore comments (--show-ignored lists them)."
        ),
        "{text}"
    );
    let out = check(dir.path(), &["--show-ignored"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("ignored: new/a.proto:13:3: FIELD_SAME_TYPE")
            && text.contains("(by new/a.proto:11: counts fit in 32 bits)"),
        "{text}"
    );
}

#[test]
fn a_file_directive_covers_the_whole_file() {
    let new = format!(
        "// protocompat:ignore-file FIELD_SAME_TYPE -- a draft package\n{}",
        new_with("", "")
    );
    let dir = case(OLD, &new);
    let out = check(dir.path(), &["--format", "json"]);
    let doc = json(&out);
    assert_eq!(rules(&doc, "findings"), ["FIELD_NO_DELETE"]);
    assert_eq!(doc["summary"]["ignored"], 2);
    assert!(
        doc.get("ignored").is_none(),
        "listed only with --show-ignored"
    );
}

#[test]
fn a_directive_without_a_reason_is_a_warning_and_not_honoured() {
    let new = new_with("// protocompat:ignore FIELD_NO_DELETE\n", "");
    let dir = case(OLD, &new);
    let out = check(dir.path(), &["--format", "json"]);
    let doc = json(&out);
    assert_eq!(doc["summary"]["ignored"], 0);
    assert!(rules(&doc, "findings").contains(&"FIELD_NO_DELETE".to_string()));
    let err = stderr(&out);
    assert!(
        err.contains("needs a reason") && err.contains("a.proto"),
        "{err}"
    );
}

#[test]
fn unknown_and_unused_ids_are_warnings() {
    let new = new_with(
        "",
        "// protocompat:ignore FIELD_SAME_TYPE, FIELD_SAME_TYPO, FIELD_SAME_NAME -- why\n",
    );
    let dir = case(OLD, &new);
    let out = check(dir.path(), &["--format", "json"]);
    let doc = json(&out);
    assert_eq!(doc["summary"]["ignored"], 1);
    let err = stderr(&out);
    assert!(
        err.contains("unknown rule id or category `FIELD_SAME_TYPO`"),
        "{err}"
    );
    assert!(
        err.contains("`protocompat:ignore FIELD_SAME_NAME` silences nothing"),
        "{err}"
    );
    assert!(
        err.contains("a.proto @ working tree:11:1") || err.contains("a.proto"),
        "{err}"
    );
}

#[test]
fn ignored_deletions_are_not_fixed() {
    let new = new_with(
        "// protocompat:ignore FIELD_NO_DELETE -- keep it open\n",
        "",
    );
    let dir = case(OLD, &new);
    let out = check(dir.path(), &["--fix", "--dry-run"]);
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
