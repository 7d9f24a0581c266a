//! The rule catalog (`rules/<RULE_ID>.md`) is tested like code: every rule has a doc with the
//! sections users rely on, and every doc's Before/After example is run through the built binary
//! with only that rule selected, which must report it (and nothing else).
//!
//! An example block may start with `// File: <path>` to name its file (default
//! `example.proto`); FILE_NO_DELETE needs that, since its example renames a file.

use std::path::Path;
use std::process::Command;

use protocompat::rules::{RuleMeta, Severity, HAZARD, RULES};
use serde_json::Value;

const SECTIONS: &[&str] = &[
    "## What it detects",
    "## Why it breaks",
    "## How to fix",
    "## Differences from buf",
];

/// The first ```proto block after `heading`, if the doc has one.
fn block_after<'a>(doc: &'a str, heading: &str) -> Option<&'a str> {
    let rest = &doc[doc.find(heading)? + heading.len()..];
    let start = rest.find("```proto\n")? + "```proto\n".len();
    let len = rest[start..].find("```")?;
    Some(&rest[start..start + len])
}

fn example(rule: &RuleMeta) -> Option<(&'static str, &'static str)> {
    let section = &rule.doc[rule.doc.find("## Example")?..];
    Some((
        block_after(section, "### Before")?,
        block_after(section, "### After")?,
    ))
}

fn file_name(block: &str) -> &str {
    block
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// File: "))
        .map(str::trim)
        .unwrap_or("example.proto")
}

/// The buf config version to write: v1 where it knows the id, else v2.
fn config_version(rule: &RuleMeta) -> &'static str {
    if rule.versions.contains(&"v1") {
        "v1"
    } else {
        "v2"
    }
}

/// Rule ids whose findings the example must produce: the rule itself, or for a deprecated id,
/// the rules it maps to.
fn expected_ids(rule: &RuleMeta) -> Vec<&'static str> {
    if rule.deprecated {
        rule.replaced_by.to_vec()
    } else {
        vec![rule.id]
    }
}

fn is_hazard(id: &str) -> bool {
    protocompat::rules::find(id).is_some_and(|r| r.categories.contains(&HAZARD))
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("create example dir");
    }
    std::fs::write(path, text).expect("write example file");
}

/// Runs one doc's example; returns what went wrong, if anything.
fn run_example(rule: &RuleMeta, before: &str, after: &str) -> Option<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    write(&old.join(file_name(before)), before);
    write(&new.join(file_name(after)), after);
    write(
        &new.join("buf.yaml"),
        &format!(
            "version: {}\nbreaking:\n  use:\n    - {}\n",
            config_version(rule),
            rule.id
        ),
    );
    let out = match Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(["check", ".", "--against", "../old", "--format", "json"])
        .current_dir(&new)
        .output()
    {
        Ok(out) => out,
        Err(e) => return Some(format!("cannot run protocompat: {e}")),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc: Value = match serde_json::from_str(&stdout) {
        Ok(doc) => doc,
        Err(e) => {
            return Some(format!(
                "exit {:?}, output is not JSON ({e}); stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    };
    let rules: Vec<String> = doc
        .get("findings")
        .and_then(Value::as_array)
        .map(|fs| {
            fs.iter()
                .filter_map(|f| f.get("rule").and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let wanted = expected_ids(rule);
    // The hazards are on in every config; a buf rule's example may also show one.
    let others: Vec<&String> = rules
        .iter()
        .filter(|r| !wanted.contains(&r.as_str()) && (is_hazard(rule.id) || !is_hazard(r)))
        .collect();
    // Warnings and infos never fail a run.
    let want_code = if rule.severity == Severity::Error {
        1
    } else {
        0
    };
    if !rules.iter().any(|r| wanted.contains(&r.as_str())) {
        Some(format!("expected a finding of {wanted:?}, got {rules:?}"))
    } else if !others.is_empty() {
        Some(format!("unexpected findings of other rules: {others:?}"))
    } else if out.status.code() != Some(want_code) {
        Some(format!(
            "exit {:?}, expected {want_code}",
            out.status.code()
        ))
    } else {
        None
    }
}

#[test]
fn every_rule_has_a_doc_with_the_catalog_sections() {
    let mut problems = Vec::new();
    for rule in RULES {
        if !rule.doc.starts_with(&format!("---\nid: {}\n", rule.id)) {
            problems.push(format!(
                "{}: front matter does not start with its id",
                rule.id
            ));
        }
        if !rule.doc.contains(&format!("\n# {}\n", rule.id)) {
            problems.push(format!("{}: no `# {}` title", rule.id, rule.id));
        }
        for section in SECTIONS {
            if !rule.doc.contains(&format!("\n{section}\n")) {
                problems.push(format!("{}: no `{section}` section", rule.id));
            }
        }
        // Rules that check something must show it; deprecated no-ops have nothing to show.
        if !expected_ids(rule).is_empty() && example(rule).is_none() {
            problems.push(format!("{}: no Example with Before/After blocks", rule.id));
        }
        if rule.deprecated && !rule.doc.contains("Deprecated") {
            problems.push(format!(
                "{}: deprecated but the doc does not say so",
                rule.id
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_doc_file_is_a_registered_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut stray = Vec::new();
    for entry in std::fs::read_dir(dir).expect("rules/ exists").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(id) = name.strip_suffix(".md") {
            if protocompat::rules::find(id).is_none() {
                stray.push(name);
            }
        }
    }
    assert!(stray.is_empty(), "docs without a rule: {stray:?}");
}

#[test]
fn every_doc_example_triggers_its_rule() {
    let failures: Vec<String> = RULES
        .iter()
        .filter_map(|rule| {
            let (before, after) = example(rule)?;
            run_example(rule, before, after).map(|why| format!("{}: {why}", rule.id))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} doc examples failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
