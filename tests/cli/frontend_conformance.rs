//! Front-end conformance against protoc and buf on inputs nobody here wrote.
//!
//! `testdata/frontend/<corpus>/<case>/` is one input (a set of `.proto` files compiled together);
//! `testdata/frontend/verdicts.json` holds protoc's and buf's recorded verdict on each (written by
//! `scripts/frontend_corpus.py verdicts`, so CI needs neither tool). On every input where the two
//! agree, protocompat must give the same verdict: comparing the directory with itself exits 0
//! when the schema is accepted and 2 when it is refused. Where the two disagree, protocompat
//! must give protoc's verdict, and README.md must list the input under buf's (issue 10).
//!
//! `EXPECTED_FAILURES` lists the inputs that still disagree because of known bugs, each with its
//! family (issue 10). The test fails when an input outside the list disagrees, and also when one
//! in the list agrees: a fix must take its inputs off the list, so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Inputs where protocompat's verdict still differs from protoc's and buf's (shared) verdict.
///
/// Regenerate with `scripts/frontend_corpus.py compare --rust` (the script names the family from
/// protoc's message, or from ours when we refuse a valid input); DISAGREEMENTS.md has the
/// smallest input of each family with protoc's and buf's messages.
#[rustfmt::skip]
const EXPECTED_FAILURES: &[(&str, &str)] = &[
];

fn frontend_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/frontend")
}

/// protoc's and buf's verdict ("accept" / "refuse") per case, from verdicts.json.
fn recorded_verdicts() -> BTreeMap<String, (String, String)> {
    let path = frontend_dir().join("verdicts.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let data: Value = serde_json::from_str(&text).unwrap();
    let verdict = |case: &Value, tool: &str| case[tool]["verdict"].as_str().unwrap().to_string();
    data["cases"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, case)| {
            (
                name.clone(),
                (verdict(case, "protoc"), verdict(case, "buf")),
            )
        })
        .collect()
}

/// Every `<corpus>/<case>` directory on disk.
fn case_dirs() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for corpus in std::fs::read_dir(frontend_dir()).unwrap().flatten() {
        if !corpus.path().is_dir() {
            continue;
        }
        for case in std::fs::read_dir(corpus.path()).unwrap().flatten() {
            if case.path().is_dir() {
                let corpus = corpus.file_name().to_string_lossy().into_owned();
                out.insert(format!("{corpus}/{}", case.file_name().to_string_lossy()));
            }
        }
    }
    out
}

/// protocompat's verdict on one case: the directory compared with itself.
fn protocompat_verdict(case: &str) -> String {
    let dir = frontend_dir().join(case);
    let output = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .arg("check")
        .arg(&dir)
        .arg("--against")
        .arg(&dir)
        .args(["--format", "short"])
        .output()
        .unwrap();
    match output.status.code() {
        Some(0) => "accept".to_string(),
        Some(2) => "refuse".to_string(),
        other => format!("exit {other:?}"),
    }
}

/// protocompat's verdict on each case, two at a time (the suite's machines have few cores).
fn protocompat_verdicts(cases: &[&String]) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let chunk = cases.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|c| protocompat_verdict(c))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

#[test]
fn every_case_has_a_recorded_verdict() {
    let recorded: BTreeSet<String> = recorded_verdicts().into_keys().collect();
    let on_disk = case_dirs();
    let unrecorded: Vec<_> = on_disk.difference(&recorded).collect();
    let missing: Vec<_> = recorded.difference(&on_disk).collect();
    assert!(
        unrecorded.is_empty() && missing.is_empty(),
        "run `scripts/frontend_corpus.py verdicts`: no verdict for {unrecorded:?}; verdict without a case for {missing:?}"
    );
}

#[test]
fn expected_failures_are_cases_where_protoc_and_buf_agree() {
    let recorded = recorded_verdicts();
    let mut seen = BTreeSet::new();
    for (case, _) in EXPECTED_FAILURES {
        assert!(seen.insert(case), "{case} is listed twice");
        let (protoc, buf) = recorded
            .get(*case)
            .unwrap_or_else(|| panic!("{case} (in EXPECTED_FAILURES) has no recorded verdict"));
        assert_eq!(
            protoc, buf,
            "{case}: protoc and buf disagree, so it is not checked"
        );
    }
}

#[test]
fn front_end_verdicts_match_protoc_and_buf() {
    let recorded = recorded_verdicts();
    let checked: Vec<&String> = recorded
        .iter()
        .filter(|(_, (protoc, buf))| protoc == buf)
        .map(|(case, _)| case)
        .collect();
    let ours = protocompat_verdicts(&checked);
    let expected: BTreeMap<&str, &str> = EXPECTED_FAILURES.iter().copied().collect();
    let mut problems = Vec::new();
    for (case, ours) in checked.iter().zip(&ours) {
        let theirs = &recorded[*case].0;
        match (ours == theirs, expected.get(case.as_str())) {
            (false, None) => problems.push(format!("{case}: protoc and buf {theirs}, protocompat: {ours}")),
            (true, Some(family)) => problems.push(format!(
                "{case}: now agrees with protoc and buf ({theirs}); take it off EXPECTED_FAILURES ({family})"
            )),
            _ => {}
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} inputs:\n{}",
        problems.len(),
        checked.len(),
        problems.join("\n")
    );
}

/// The inputs where protoc and buf disagree, with buf's verdict.
fn protoc_buf_disagreements() -> BTreeMap<String, String> {
    recorded_verdicts()
        .into_iter()
        .filter(|(_, (protoc, buf))| protoc != buf)
        .map(|(case, (_, buf))| (case, buf))
        .collect()
}

/// Where protoc and buf disagree, protocompat gives protoc's verdict (issue 10).
#[test]
fn front_end_follows_protoc_where_protoc_and_buf_disagree() {
    let recorded = recorded_verdicts();
    let disagreeing = protoc_buf_disagreements();
    let cases: Vec<&String> = disagreeing.keys().collect();
    let ours = protocompat_verdicts(&cases);
    let problems: Vec<String> = cases
        .iter()
        .zip(&ours)
        .filter(|(case, ours)| **ours != recorded[**case].0)
        .map(|(case, ours)| {
            let (protoc, buf) = &recorded[*case];
            format!("{case}: protoc {protoc}s, buf {buf}s, protocompat: {ours}")
        })
        .collect();
    assert!(
        problems.is_empty(),
        "{} of {} inputs do not follow protoc:\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}

/// README.md's "Differences from buf" lists each input where protoc and buf disagree, once,
/// under buf's verdict (`scripts/frontend_corpus.py readme` writes the block).
#[test]
fn readme_lists_every_protoc_buf_disagreement() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let begin = readme
        .find("<!-- protoc-buf-differences: begin")
        .expect("README.md has the protoc-buf-differences block");
    let end = readme.find("<!-- protoc-buf-differences: end -->").unwrap();
    let mut listed = BTreeMap::new();
    for line in readme[begin..end].lines() {
        let Some(rest) = line.strip_prefix("- (buf ") else {
            continue;
        };
        let verdict = if rest.starts_with("accepts)") {
            "accept"
        } else {
            "refuse"
        };
        let (_, inputs) = line.split_once(" — inputs: ").expect("a list of inputs");
        for case in inputs.split(", ") {
            let case = case.trim_matches('`').to_string();
            assert!(
                listed.insert(case.clone(), verdict.to_string()).is_none(),
                "{case} is listed twice"
            );
        }
    }
    assert_eq!(
        listed,
        protoc_buf_disagreements(),
        "README.md is stale: run `scripts/frontend_corpus.py readme`"
    );
}
