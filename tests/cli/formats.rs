//! Every `--format` on one scenario (testdata/integrations: a field deleted, a type changed,
//! a field renamed, an enum value deleted, a file deleted), as insta snapshots; the SARIF
//! output is also validated against the official SARIF 2.1.0 schema.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn scenario() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/integrations")
}

/// Runs `check new --against old` in the scenario directory; returns (stdout, exit code).
fn run(args: &[&str]) -> (String, i32) {
    let out = Command::cargo_bin("protocompat")
        .expect("binary")
        .current_dir(scenario())
        .args(["check", "new", "--against", "old"])
        .args(args)
        .output()
        .expect("run protocompat");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    (stdout, out.status.code().unwrap_or(-1))
}

fn format(name: &str) -> String {
    let (stdout, code) = run(&["--format", name]);
    assert_eq!(code, 1, "breaking changes exit 1 ({name})");
    // The version would churn the snapshots at every release.
    stdout.replace(env!("CARGO_PKG_VERSION"), "[VERSION]")
}

#[test]
fn github() {
    insta::assert_snapshot!(format("github"));
}

#[test]
fn github_actions_is_bufs_name_for_it() {
    assert_eq!(format("github-actions"), format("github"));
}

#[test]
fn msvs() {
    insta::assert_snapshot!(format("msvs"));
}

#[test]
fn junit() {
    insta::assert_snapshot!(format("junit"));
}

#[test]
fn gitlab() {
    insta::assert_snapshot!(format("gitlab"));
}

#[test]
fn markdown() {
    insta::assert_snapshot!(format("markdown"));
}

#[test]
fn markdown_links_use_the_link_base() {
    let (out, _) = run(&[
        "--format",
        "markdown",
        "--link-base",
        "https://github.com/acme/api/blob/0123abc/",
    ]);
    assert!(
        out.contains("(https://github.com/acme/api/blob/0123abc/new/acme/v1/order.proto#L10)"),
        "{out}"
    );
}

#[test]
fn sarif() {
    // The rule metadata comes from the rule docs (checked below); leaving it out keeps this
    // snapshot about the results, so that editing a doc does not churn it.
    let mut log: Value = serde_json::from_str(&format("sarif")).expect("SARIF is JSON");
    let rules = &mut log["runs"][0]["tool"]["driver"]["rules"];
    *rules = Value::String(format!("[{} rules]", rules.as_array().map_or(0, Vec::len)));
    insta::assert_json_snapshot!(log);
}

#[test]
fn sarif_is_valid_against_the_official_schema() {
    let schema_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/sarif/sarif-schema-2.1.0.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).expect("schema file"))
            .expect("schema is JSON");
    let validator = jsonschema::draft4::new(&schema).expect("a valid draft-04 schema");
    let log: Value = serde_json::from_str(&format("sarif")).expect("SARIF is JSON");
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "schema violations:\n{}",
        errors.join("\n")
    );
}

#[test]
fn sarif_lists_every_rule_and_indexes_results_into_them() {
    let log: Value = serde_json::from_str(&format("sarif")).expect("SARIF is JSON");
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert_eq!(rules.len(), protocompat::rules::RULES.len());
    for rule in rules {
        for key in ["shortDescription", "fullDescription"] {
            assert!(rule[key]["text"].is_string(), "{key} of {}", rule["id"]);
        }
        assert!(rule["help"]["text"].is_string() && rule["help"]["markdown"].is_string());
        assert!(rule["defaultConfiguration"]["level"].is_string());
        assert!(rule["properties"]["tags"].is_array());
    }
    for result in log["runs"][0]["results"].as_array().expect("results") {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        assert!(result["partialFingerprints"]["protocompat/v1"].is_string());
    }
}

#[test]
fn fingerprints_survive_unrelated_edits() {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_tree(&scenario(), dir.path());
    let before = fingerprints(dir.path());
    // Two comment lines above everything shift every line number.
    let order = dir.path().join("new/acme/v1/order.proto");
    let text = std::fs::read_to_string(&order).expect("read");
    std::fs::write(&order, format!("// one\n// two\n{text}")).expect("write");
    let after = fingerprints(dir.path());
    assert_eq!(before, after);
    // Six findings; the rename's two are one result (one cause).
    assert_eq!(before.len(), 5);
}

fn fingerprints(dir: &Path) -> Vec<String> {
    let out = Command::cargo_bin("protocompat")
        .expect("binary")
        .current_dir(dir)
        .args(["check", "new", "--against", "old", "--format", "sarif"])
        .output()
        .expect("run");
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["partialFingerprints"]["protocompat/v1"].to_string())
        .collect()
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("prefix"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[test]
fn fail_on_sets_the_exit_code() {
    assert_eq!(run(&["--format", "msvs", "--fail-on", "never"]).1, 0);
    assert_eq!(run(&["--format", "msvs", "--fail-on", "warning"]).1, 1);
    assert_eq!(run(&["--format", "msvs", "--fail-on", "error"]).1, 1);
}

#[test]
fn fail_on_never_still_exits_2_when_the_check_cannot_be_done() {
    let out = Command::cargo_bin("protocompat")
        .expect("binary")
        .current_dir(scenario())
        .args(["check", "missing", "--against", "old", "--fail-on", "never"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn no_findings_give_valid_empty_documents() {
    let out = |format: &str| {
        let out = Command::cargo_bin("protocompat")
            .expect("binary")
            .current_dir(scenario())
            .args(["check", "old", "--against", "old", "--format", format])
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    assert_eq!(out("github"), "");
    assert_eq!(out("msvs"), "");
    assert_eq!(out("junit"), "<testsuites>\n</testsuites>\n");
    assert_eq!(out("gitlab"), "[]\n");
    assert!(out("markdown").starts_with("## protocompat: no breaking changes"));
    let log: Value = serde_json::from_str(&out("sarif")).expect("JSON");
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
}

/// buf 1.75.0 where it is installed (BUF env var, or the npm package in /tmp/peer).
fn buf_binary() -> Option<PathBuf> {
    std::env::var_os("BUF")
        .map(PathBuf::from)
        .or_else(|| {
            Some(PathBuf::from(
                "/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf",
            ))
        })
        .filter(|p| p.is_file())
}

#[test]
fn msvs_and_junit_match_buf_byte_for_byte_except_the_deleted_file() {
    let Some(buf) = buf_binary() else {
        eprintln!("SKIPPED: buf not installed (set BUF=/path/to/buf)");
        return;
    };
    for format in ["msvs", "junit"] {
        let theirs = std::process::Command::new(&buf)
            .args([
                "breaking",
                "new",
                "--against",
                "old",
                "--error-format",
                format,
            ])
            .current_dir(scenario())
            .output()
            .expect("buf runs");
        let raw = String::from_utf8_lossy(&theirs.stdout).into_owned();
        let theirs = raw
            .replace("&lt;input&gt;", "new/acme/v1/legacy")
            .replace("<input>", "new/acme/v1/legacy.proto");
        let (ours, _) = run(&["--format", format]);
        assert_eq!(
            ours,
            theirs.replace("new/acme/v1/legacy:1:1", "new/acme/v1/legacy.proto:1:1"),
            "{format}"
        );
        // `--error-format` is buf's output itself.
        let (bufs, _) = run(&["--error-format", format]);
        assert_eq!(bufs, raw, "{format}");
    }
}
