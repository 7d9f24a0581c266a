//! The HAZARD category end to end: on in every config (a buf.yaml that does not mention it
//! included), off with `except`, warnings that fail only with `--fail-on warning`, infos that
//! never fail, left out of buf's formats, and counted apart in the text summary.

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

const OLD: &str = "syntax = \"proto3\";\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n  optional int32 discount_percent = 2;\n}\n";
/// Only hazards: `optional` dropped (warning) and a new implicit-presence field (info).
const NEW: &str = "syntax = \"proto3\";\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n  int32 discount_percent = 2;\n  int32 quantity = 3;\n}\n";
/// Only the info: a new implicit-presence field.
const INFO_ONLY: &str = "syntax = \"proto3\";\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n  optional int32 discount_percent = 2;\n  int32 quantity = 3;\n}\n";

fn case(new: &str, buf_yaml: Option<&str>) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (side, text) in [("old", OLD), ("new", new)] {
        std::fs::create_dir_all(dir.path().join(side)).expect("mkdir");
        std::fs::write(dir.path().join(side).join("order.proto"), text).expect("write");
    }
    if let Some(config) = buf_yaml {
        std::fs::write(dir.path().join("new/buf.yaml"), config).expect("write buf.yaml");
    }
    dir
}

fn check(dir: &Path, extra: &[&str]) -> Output {
    Command::cargo_bin("protocompat")
        .expect("binary")
        .current_dir(dir.join("new"))
        .args(["check", ".", "--against", "../old"])
        .args(extra)
        .output()
        .expect("run protocompat")
}

fn rules(out: &Output) -> Vec<String> {
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["rule"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn hazards_run_under_a_config_that_does_not_name_them() {
    let dir = case(NEW, Some("version: v1\nbreaking:\n  use: [WIRE]\n"));
    assert_eq!(
        rules(&check(dir.path(), &["--format", "json"])),
        ["FIELD_PRESENCE_CHANGED", "FIELD_IMPLICIT_ZERO"]
    );
}

#[test]
fn except_turns_the_category_or_one_id_off() {
    // buf's v1 defaults (FILE) without the hazards: only the cardinality error is left.
    let dir = case(NEW, Some("version: v1\nbreaking:\n  except: [HAZARD]\n"));
    assert_eq!(
        rules(&check(dir.path(), &["--format", "json"])),
        ["FIELD_SAME_CARDINALITY"]
    );
    let dir = case(
        NEW,
        Some("version: v2\nbreaking:\n  use: [FILE]\n  except: [FIELD_IMPLICIT_ZERO]\n"),
    );
    assert_eq!(
        rules(&check(dir.path(), &["--format", "json"])),
        // FILE's FIELD_SAME_CARDINALITY sees the presence change too.
        ["FIELD_PRESENCE_CHANGED", "FIELD_SAME_CARDINALITY"]
    );
}

#[test]
fn warnings_fail_only_with_fail_on_warning_and_infos_never() {
    let dir = case(NEW, Some("version: v1\nbreaking:\n  use: [WIRE]\n"));
    assert_eq!(check(dir.path(), &[]).status.code(), Some(0));
    assert_eq!(
        check(dir.path(), &["--fail-on", "warning"]).status.code(),
        Some(1)
    );
    let dir = case(INFO_ONLY, None);
    assert_eq!(
        check(dir.path(), &["--fail-on", "warning"]).status.code(),
        Some(0)
    );
}

#[test]
fn bufs_formats_leave_the_hazards_out() {
    let dir = case(NEW, Some("version: v1\nbreaking:\n  use: [WIRE]\n"));
    assert!(!rules(&check(dir.path(), &["--format", "json"])).is_empty());
    // buf's JSON is one line per finding: none.
    let out = check(dir.path(), &["--error-format", "json"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    let out = check(dir.path(), &["--error-format", "text"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}

#[test]
fn the_text_summary_counts_warnings_and_infos_apart() {
    let dir = case(NEW, Some("version: v1\nbreaking:\n  use: [WIRE]\n"));
    let out = check(dir.path(), &["--color", "never"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 breaking change (0 errors, 1 warning); 1 info;"),
        "{text}"
    );
    let json: Value = serde_json::from_slice(&check(dir.path(), &["--format", "json"]).stdout)
        .expect("JSON output");
    assert_eq!(json["summary"]["warnings"], 1);
    assert_eq!(json["summary"]["infos"], 1);
}
