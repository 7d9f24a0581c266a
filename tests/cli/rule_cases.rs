//! Runs every rule case under `testdata/rules/<RULE_ID>/` through the built binary and compares
//! its findings with the case's `expected.json` (buf 1.75.0's exact output for that case).
//!
//! A case is `old/` and `new/` schema trees plus `new/buf.yaml` selecting only the rule under
//! test. The comparison is on the multiset of (rule, path, start/end line/column); messages are
//! free, except where `expected.json` gives one (the HAZARD cases, whose expected output is
//! protocompat's own, reviewed by hand: their messages carry computed examples). The hazards
//! are on in every config; the cases of buf's rules leave their findings out, as the
//! conformance check does. Set `RULE_CASE=<RULE_ID>` to run a single case.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One finding, reduced to what must match buf exactly.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    rule: String,
    path: Option<String>,
    start_line: u64,
    start_column: u64,
    end_line: u64,
    end_column: u64,
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}:{}:{}-{}:{}",
            self.rule,
            self.path.as_deref().unwrap_or("<deleted file>"),
            self.start_line,
            self.start_column,
            self.end_line,
            self.end_column
        )
    }
}

fn key_of(v: &Value) -> Result<Key, String> {
    let num = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(1).max(1);
    Ok(Key {
        rule: v
            .get("rule")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("finding without a rule: {v}"))?
            .to_string(),
        path: v
            .get("path")
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty())
            .map(str::to_string),
        start_line: num("start_line"),
        start_column: num("start_column"),
        end_line: num("end_line"),
        end_column: num("end_column"),
    })
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rules")
}

fn case_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cases_dir())
        .expect("testdata/rules exists")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn multiset(keys: Vec<Key>) -> BTreeMap<Key, usize> {
    let mut m = BTreeMap::new();
    for k in keys {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

fn expected(case: &Path) -> Result<Vec<Key>, String> {
    let text = std::fs::read_to_string(case.join("expected.json"))
        .map_err(|e| format!("cannot read expected.json: {e}"))?;
    let doc: Value =
        serde_json::from_str(&text).map_err(|e| format!("expected.json is not JSON: {e}"))?;
    doc.as_array()
        .ok_or("expected.json is not an array")?
        .iter()
        .map(key_of)
        .collect()
}

/// The (finding, message) pairs `expected.json` spells out.
fn expected_messages(case: &Path) -> Vec<(Key, String)> {
    let text = std::fs::read_to_string(case.join("expected.json")).unwrap_or_default();
    let doc: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    doc.as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| Some((key_of(v).ok()?, v.get("message")?.as_str()?.to_string())))
        .collect()
}

/// Runs `protocompat check . --against ../old --format json` in the case's `new/` directory;
/// returns each finding with its message, and the exit code.
fn actual_with_messages(case: &Path) -> Result<(Vec<(Key, String)>, i32), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(["check", ".", "--against", "../old", "--format", "json"])
        .current_dir(case.join("new"))
        .output()
        .map_err(|e| format!("cannot run protocompat: {e}"))?;
    let code = out.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc: Value = serde_json::from_str(&stdout).map_err(|e| {
        format!(
            "exit {code}, output is not JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
    })?;
    let findings = doc
        .get("findings")
        .and_then(Value::as_array)
        .ok_or("output has no \"findings\" array")?;
    let keys = findings
        .iter()
        .map(|f| {
            let message = f.get("message").and_then(Value::as_str).unwrap_or("");
            key_of(f).map(|k| (k, message.to_string()))
        })
        .collect::<Result<_, _>>()?;
    Ok((keys, code))
}

/// Compares one case; returns a readable report of the differences, if any.
fn check_case(name: &str) -> Option<String> {
    let case = cases_dir().join(name);
    let want = match expected(&case) {
        Ok(w) => w,
        Err(e) => return Some(e),
    };
    let (found, code) = match actual_with_messages(&case) {
        Ok(g) => g,
        Err(e) => return Some(e),
    };
    let mut problems = Vec::new();
    for (key, message) in expected_messages(&case) {
        if !found.iter().any(|(k, m)| *k == key && *m == message) {
            problems.push(format!("  message of {key} is not: {message}"));
        }
    }
    let got: Vec<Key> = found.into_iter().map(|(k, _)| k).collect();
    // The hazards are on in every config; a buf rule's case leaves them out, as conformance
    // does. Only errors fail a run.
    let got: Vec<Key> = if is_hazard(name) {
        got
    } else {
        got.into_iter().filter(|k| !is_hazard(&k.rule)).collect()
    };
    let fails = want.iter().any(|k| {
        protocompat::rules::find(&k.rule)
            .is_some_and(|r| r.severity == protocompat::rules::Severity::Error)
    });
    let want_code = if fails { 1 } else { 0 };
    if code != want_code {
        problems.push(format!("exit code {code}, expected {want_code}"));
    }
    let (want, got) = (multiset(want), multiset(got));
    for (k, n) in &want {
        let have = got.get(k).copied().unwrap_or(0);
        if have < *n {
            problems.push(format!("  missing:    {k}{}", times(n - have)));
        }
    }
    for (k, n) in &got {
        let wanted = want.get(k).copied().unwrap_or(0);
        if wanted < *n {
            problems.push(format!("  unexpected: {k}{}", times(n - wanted)));
        }
    }
    (!problems.is_empty()).then(|| problems.join("\n"))
}

fn is_hazard(id: &str) -> bool {
    protocompat::rules::find(id).is_some_and(|r| r.categories.contains(&protocompat::rules::HAZARD))
}

fn times(n: usize) -> String {
    if n > 1 {
        format!(" (x{n})")
    } else {
        String::new()
    }
}

#[test]
fn rule_cases_match_expected_findings() {
    let only = std::env::var("RULE_CASE").ok();
    let names: Vec<String> = case_names()
        .into_iter()
        .filter(|n| only.is_none() || only.as_deref() == Some(n.as_str()))
        .collect();
    assert!(!names.is_empty(), "no rule cases selected");
    let failures: Vec<String> = names
        .iter()
        .filter_map(|n| check_case(n).map(|report| format!("{n}:\n{report}")))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rule cases failed:\n\n{}",
        failures.len(),
        names.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_rule_has_a_case_and_every_case_names_a_rule() {
    let names = case_names();
    let missing: Vec<&str> = protocompat::rules::RULES
        .iter()
        .filter(|r| !r.deprecated && !names.iter().any(|n| n == r.id))
        .map(|r| r.id)
        .collect();
    let unknown: Vec<&String> = names
        .iter()
        .filter(|n| protocompat::rules::find(n).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a testdata case: {missing:?}"
    );
    assert!(
        unknown.is_empty(),
        "testdata cases naming no rule: {unknown:?}"
    );
    for n in &names {
        let case = cases_dir().join(n);
        for part in ["old", "new", "new/buf.yaml", "expected.json"] {
            assert!(case.join(part).exists(), "{n}: missing {part}");
        }
        let config = std::fs::read_to_string(case.join("new/buf.yaml")).unwrap_or_default();
        assert!(
            config.contains(&format!("- {n}\n")),
            "{n}: new/buf.yaml must select the rule under test"
        );
    }
}
