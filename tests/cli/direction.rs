//! Who breaks, both ways: `testdata/direction/{a,b}` hold one change of each rule family
//! (deletions, required fields, open/closed enums, UTF-8 validation, options, hazards). The
//! pair is checked as a → b and as b → a; a directional rule must report `backward` one way
//! and `forward` the other. Each way's findings are compared exactly with
//! `expected_<old>_to_<new>.txt` (`RULE direction path:line`), and `--direction` must keep
//! exactly the lines it promises.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn case() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/direction")
}

/// `RULE direction path:line` for each finding of `check NEW --against OLD`.
fn findings(old: &str, new: &str, extra: &[&str]) -> Vec<String> {
    let out = Command::cargo_bin("protocompat")
        .expect("binary")
        .current_dir(case())
        .args(["check", new, "--against", old, "--format", "json"])
        .args(extra)
        .output()
        .expect("run protocompat");
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            format!(
                "{} {} {}:{}",
                f["rule"].as_str().unwrap(),
                f["direction"].as_str().unwrap(),
                // Paths are from the working directory: each under its side's directory.
                f["path"].as_str().map_or("<deleted>", |p| {
                    p.strip_prefix(&format!("{new}/"))
                        .unwrap_or_else(|| panic!("{p} is not under {new}/"))
                }),
                f["start_line"]
            )
        })
        .collect()
}

fn expected(old: &str, new: &str) -> Vec<String> {
    let path = case().join(format!("expected_{old}_to_{new}.txt"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

fn direction_of(line: &str) -> &str {
    line.split(' ').nth(1).unwrap_or("")
}

#[test]
fn each_way_reports_exactly_the_expected_directions() {
    for (old, new) in [("a", "b"), ("b", "a")] {
        assert_eq!(
            findings(old, new, &[]),
            expected(old, new),
            "{old} -> {new}"
        );
    }
}

#[test]
fn swapping_old_and_new_turns_backward_into_forward() {
    // The directional rules of the case, each judged both ways.
    let directional = [
        "MESSAGE_SAME_REQUIRED_FIELDS",
        "ENUM_SAME_TYPE",
        "FIELD_SAME_UTF8_VALIDATION",
        "FIELD_SAME_JAVA_UTF8_VALIDATION",
    ];
    let (ab, ba) = (expected("a", "b"), expected("b", "a"));
    for rule in directional {
        let ways = |lines: &[String]| -> Vec<String> {
            let mut d: Vec<String> = lines
                .iter()
                .filter(|l| l.starts_with(&format!("{rule} ")))
                .map(|l| direction_of(l).to_string())
                .collect();
            d.sort();
            d
        };
        let swapped: Vec<String> = {
            let mut d: Vec<String> = ways(&ab)
                .iter()
                .map(|d| match d.as_str() {
                    "backward" => "forward".to_string(),
                    "forward" => "backward".to_string(),
                    other => other.to_string(),
                })
                .collect();
            d.sort();
            d
        };
        assert!(!swapped.is_empty(), "{rule} is in the case");
        assert_eq!(ways(&ba), swapped, "{rule}");
    }
}

#[test]
fn the_direction_filter_keeps_what_breaks_that_way() {
    let all = expected("a", "b");
    for (filter, keep) in [
        ("backward", &["backward", "both"][..]),
        ("forward", &["forward", "both"][..]),
        ("full", &["backward", "forward", "both", "source"][..]),
    ] {
        let wanted: Vec<String> = all
            .iter()
            .filter(|l| keep.contains(&direction_of(l)))
            .cloned()
            .collect();
        assert_eq!(
            findings("a", "b", &["--direction", filter]),
            wanted,
            "--direction {filter}"
        );
    }
}
