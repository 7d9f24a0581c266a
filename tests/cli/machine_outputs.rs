//! The machine formats agree with each other and with buf: JSON paths from the working
//! directory, SARIF grouped by cause with the deleted element related, per-finding severity
//! (HAZARD warnings, info advice), and warnings about the check counted once.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support;

fn testdata(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(dir)
}

fn stdout(dir: &Path, args: &[&str]) -> String {
    String::from_utf8(support::run(dir, args).stdout).expect("UTF-8")
}

fn json(dir: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&stdout(dir, args)).expect("JSON output")
}

#[test]
fn json_paths_are_from_the_working_directory_as_in_every_other_format() {
    let doc = json(
        &testdata("integrations"),
        &["check", "new", "--against", "old", "--format", "json"],
    );
    let type_change = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "FIELD_SAME_TYPE")
        .expect("FIELD_SAME_TYPE");
    assert_eq!(type_change["path"], "new/acme/v1/order.proto");
    assert_eq!(type_change["previous"]["path"], "old/acme/v1/order.proto");
    // The short format names the same files.
    let short = stdout(
        &testdata("integrations"),
        &["check", "new", "--against", "old", "--format", "short"],
    );
    assert!(short.contains("new/acme/v1/order.proto:10:3: error[FIELD_SAME_TYPE]"));
}

fn sarif_results(dir: &Path, new: &str, old: &str) -> Vec<Value> {
    let log = json(
        dir,
        &[
            "check",
            new,
            "--against",
            old,
            "--format",
            "sarif",
            "--fail-on",
            "never",
        ],
    );
    log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .clone()
}

#[test]
fn sarif_groups_a_rename_and_relates_the_deleted_field_itself() {
    let results = sarif_results(&testdata("integrations"), "new", "old");
    let rules: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    // Six findings, five causes: the rename's FIELD_SAME_JSON_NAME and FIELD_SAME_NAME are one.
    assert_eq!(
        rules,
        [
            "FILE_NO_DELETE",
            "FIELD_NO_DELETE",
            "FIELD_SAME_TYPE",
            "FIELD_SAME_JSON_NAME",
            "ENUM_VALUE_NO_DELETE"
        ]
    );
    let rename = &results[3];
    assert_eq!(
        rename["properties"]["rules"],
        serde_json::json!(["FIELD_SAME_JSON_NAME", "FIELD_SAME_NAME"])
    );
    assert!(rename["message"]["text"]
        .as_str()
        .unwrap()
        .starts_with("field `customer_name` (3) on `Order` was renamed to `customer`\n"));
    // The deleted field `note` is line 13 of the old file; buf reports it at its message (8).
    let deleted = &results[1]["relatedLocations"][0]["physicalLocation"];
    assert_eq!(
        deleted["artifactLocation"]["uri"],
        "old/acme/v1/order.proto"
    );
    assert_eq!(deleted["region"]["startLine"], 13);
    assert_eq!(deleted["region"]["endLine"], 13);
    assert_eq!(
        results[1]["locations"][0]["physicalLocation"]["region"]["startLine"],
        8
    );
}

#[test]
fn sarif_and_github_carry_each_findings_severity() {
    for (case, sarif_level, github_command) in [
        ("ENUM_ZERO_VALUE_CHANGED", "warning", "::warning "),
        ("FIELD_NUMBER_TAG_SIZE", "note", "::notice "),
    ] {
        let dir = testdata("rules").join(case);
        let results = sarif_results(&dir, "new", "old");
        let result = results
            .iter()
            .find(|r| r["ruleId"] == case)
            .unwrap_or_else(|| panic!("{case} in {results:?}"));
        assert_eq!(result["level"], sarif_level, "{case}");
        let github = stdout(
            &dir,
            &[
                "check",
                "new",
                "--against",
                "old",
                "--format",
                "github",
                "--fail-on",
                "never",
            ],
        );
        let line = github
            .lines()
            .find(|l| l.contains(&format!("title={case}")))
            .unwrap_or_else(|| panic!("{case}: {github}"));
        assert!(line.starts_with(github_command), "{case}: {line}");
    }
}

/// Three files import one missing file on the new side, one on the old side.
fn missing_import_dirs() -> tempfile::TempDir {
    let dir = support::tempdir();
    let import = "syntax = \"proto3\";\nimport \"dep/missing.proto\";\n";
    for (side, files) in [("old", &["a"][..]), ("new", &["a", "b", "c"][..])] {
        std::fs::create_dir_all(dir.path().join(side)).unwrap();
        for name in files {
            let text = format!(
                "{import}message {} {{ dep.D d = 1; }}\n",
                name.to_uppercase()
            );
            std::fs::write(dir.path().join(side).join(format!("{name}.proto")), text).unwrap();
        }
    }
    dir
}

#[test]
fn a_missing_import_is_counted_once_per_side() {
    let dir = missing_import_dirs();
    let stderr = support::check_fails(dir.path(), &["new", "--against", "old"]);
    // Not 4 (one per importing file): one import, missing on each of the two sides.
    assert!(
        stderr.contains("2 imports could not be found, so the types from them were not checked"),
        "{stderr}"
    );
    assert!(stderr.contains("b.proto @ working tree"), "{stderr}");
}

#[test]
fn the_markdown_summary_counts_and_lists_warnings_about_the_check() {
    let dir = missing_import_dirs();
    let out = stdout(
        dir.path(),
        &[
            "check",
            "new",
            "--against",
            "old",
            "--allow-missing-imports",
            "--format",
            "markdown",
        ],
    );
    assert!(!out.contains("0 warnings"), "{out}");
    assert!(out.contains("1 warning."), "{out}");
    assert!(
        out.contains("- :warning: import \"dep/missing.proto\" was not found"),
        "{out}"
    );
}

/// A repository whose working tree does not compile (`strin`, line 3), committed clean.
fn broken_working_tree() -> support::Repo {
    let repo = support::Repo::new();
    repo.write(
        "proto/acme/a.proto",
        "syntax = \"proto3\";\npackage acme;\nmessage A { string a = 1; }\n",
    );
    repo.commit("clean");
    repo.write(
        "proto/acme/a.proto",
        "syntax = \"proto3\";\npackage acme;\nmessage A { strin a = 1; }\n",
    );
    repo
}

/// What `check --format FORMAT` prints on stdout, and its exit code.
fn check_output(dir: &Path, against: &str, format: &str) -> (String, i32) {
    let out = support::run(
        dir,
        &["check", "proto", "--against", against, "--format", format],
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    (stdout, out.status.code().unwrap_or(-1))
}

/// A check that could not be done is not an empty report: each machine format says so on
/// stdout, where a CI step reads it (before, every format printed nothing and only stderr
/// had the error), and the exit code stays 2.
#[test]
fn a_side_that_does_not_compile_is_an_error_in_every_machine_format() {
    let repo = broken_working_tree();
    let dir = repo.path();
    let message = "cannot resolve type `strin`";
    let (github, code) = check_output(dir, "HEAD", "github");
    assert_eq!(code, 2);
    assert_eq!(
        github,
        format!("::error file=proto/acme/a.proto,line=3,col=13,endLine=3,endColumn=18,title=protocompat%3A COMPILE::{message}\n")
    );
    let (msvs, _) = check_output(dir, "HEAD", "msvs");
    assert_eq!(
        msvs,
        format!("proto/acme/a.proto(3,13) : error COMPILE : {message}\n")
    );
    let (junit, _) = check_output(dir, "HEAD", "junit");
    assert_eq!(
        junit,
        "<testsuites>\n  <testsuite name=\"protocompat\" tests=\"1\" failures=\"0\" errors=\"1\">\n    <testcase name=\"COMPILE_3_13\" classname=\"proto/acme/a.proto\">\n      <error message=\"proto/acme/a.proto:3:13: cannot resolve type `strin`\" type=\"COMPILE\"></error>\n    </testcase>\n  </testsuite>\n</testsuites>\n"
    );
    let (sarif, _) = check_output(dir, "HEAD", "sarif");
    let sarif: Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
    let run = &sarif["runs"][0];
    assert_eq!(run["results"], serde_json::json!([]));
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notification = &invocation["toolExecutionNotifications"][0];
    assert_eq!(notification["level"], "error");
    assert_eq!(notification["message"]["text"], message);
    let location = &notification["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "proto/acme/a.proto");
    assert_eq!(
        location["region"],
        serde_json::json!({"startLine": 3, "startColumn": 13, "endLine": 3, "endColumn": 18})
    );
    let (gitlab, _) = check_output(dir, "HEAD", "gitlab");
    let gitlab: Value = serde_json::from_str(&gitlab).expect("JSON");
    assert_eq!(gitlab[0]["severity"], "blocker");
    assert_eq!(gitlab[0]["check_name"], "COMPILE");
    assert_eq!(gitlab[0]["location"]["path"], "proto/acme/a.proto");
    assert_eq!(gitlab[0]["location"]["lines"]["begin"], 3);
    let (markdown, _) = check_output(dir, "HEAD", "markdown");
    assert_eq!(
        markdown,
        "## protocompat: the check could not be done\n\n1 error stopped the check, so nothing was compared: this is not a pass.\n\n- :x: `proto/acme/a.proto:3:13` cannot resolve type \\`strin\\`\n"
    );
    // The human formats keep their report on stderr alone.
    for format in ["text", "short"] {
        assert_eq!(
            check_output(dir, "HEAD", format),
            (String::new(), 2),
            "{format}"
        );
    }
}

/// An error in the old revision has no place in the checked-out files: its annotation is on
/// the run, naming the file, position and revision; a revision that cannot be read is one
/// too.
#[test]
fn errors_off_the_checked_out_files_are_annotations_on_the_run() {
    let repo = support::Repo::new();
    repo.write(
        "proto/acme/a.proto",
        "syntax = \"proto3\";\npackage acme;\nmessage A { strin a = 1; }\n",
    );
    repo.commit("broken");
    repo.write(
        "proto/acme/a.proto",
        "syntax = \"proto3\";\npackage acme;\nmessage A { string a = 1; }\n",
    );
    let (github, code) = check_output(repo.path(), "HEAD", "github");
    assert_eq!(code, 2);
    assert_eq!(
        github,
        "::error title=protocompat%3A the check could not be done::proto/acme/a.proto:3:13 @ HEAD: cannot resolve type `strin`\n"
    );
    let (github, code) = check_output(repo.path(), "no-such-branch", "github");
    assert_eq!(code, 2);
    assert_eq!(
        github,
        "::error title=protocompat%3A the check could not be done::revision `no-such-branch` cannot be resolved: not found in the repository\n"
    );
}
