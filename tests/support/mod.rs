//! Helpers shared by every test binary: real git repositories built with the git CLI in
//! temporary directories, the binary run on them, and (`corpus`) the sides of buf's
//! conformance corpus read as `SourceFile`s.
#![allow(dead_code)]

pub mod corpus;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tempfile::TempDir;

/// A git repository in a temporary directory.
pub struct Repo {
    pub dir: TempDir,
}

impl Repo {
    pub fn new() -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = Repo { dir };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs git in the repository with a fixed identity and no user/system config.
    pub fn git(&self, args: &[&str]) -> String {
        git_in(self.path(), args)
    }

    pub fn write(&self, path: &str, text: &str) {
        self.write_bytes(path, text.as_bytes());
    }

    pub fn write_bytes(&self, path: &str, bytes: &[u8]) {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(full, bytes).expect("write");
    }

    pub fn remove(&self, path: &str) {
        std::fs::remove_file(self.path().join(path)).expect("remove");
    }

    /// `git add -A && git commit`.
    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }
}

pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `protocompat ARGS` in `cwd`.
pub fn run(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("binary runs")
}

/// Runs `protocompat check ARGS --format json` and returns (exit code, findings as
/// `(rule, path, start_line, start_column, end_line, end_column)`, whole document).
pub fn check_json(cwd: &Path, args: &[&str]) -> (i32, Vec<Finding>, Value) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let out = run(cwd, &all);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}); exit {:?}\nstdout: {stdout}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let prefixes = json_path_prefixes(cwd, args);
    let findings = doc["findings"]
        .as_array()
        .expect("findings array")
        .iter()
        .map(|v| Finding::from_json(v).relative_to(&prefixes))
        .collect();
    (out.status.code().unwrap_or(-1), findings, doc)
}

/// The prefixes JSON paths carry (they are from the working directory): ROOT's for the new
/// side, the `--against` directory's (ROOT's for a revision, none for an image) for the old
/// side.
fn json_path_prefixes(cwd: &Path, args: &[&str]) -> (String, String) {
    let mut positional = None;
    let mut against = None;
    let mut i = 0;
    while i < args.len() {
        match args[i] {
            "--against" => {
                against = args.get(i + 1).copied();
                i += 1;
            }
            a if a.starts_with("--against=") => against = Some(&a["--against=".len()..]),
            // Options taking a value (so the value is not mistaken for ROOT).
            "--rev" | "--git-dir" | "-I" | "--include" | "--path" | "--exclude-path"
            | "--config" | "--against-config" | "--format" | "--fail-on" | "--direction"
            | "--link-base" | "--error-format" | "--color" => i += 1,
            a if a.starts_with('-') => {}
            a if positional.is_none() => positional = Some(a),
            _ => {}
        }
        i += 1;
    }
    let prefix = |dir: &str| protocompat::report::path_prefix(Path::new(dir));
    let new = prefix(positional.unwrap_or("."));
    let old = match against {
        Some(a) if cwd.join(a).is_dir() && !args.contains(&"--merge-base") => prefix(a),
        // An image names its files by their own paths.
        Some(a) if cwd.join(a).is_file() => String::new(),
        _ => new.clone(),
    };
    (new, old)
}

/// Runs a check that must fail with exit code 2 and returns its stderr.
pub fn check_fails(cwd: &Path, args: &[&str]) -> String {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    let out = run(cwd, &all);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "expected exit 2; stdout: {}\nstderr: {stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let format = args
        .iter()
        .position(|a| *a == "--format")
        .and_then(|i| args.get(i + 1));
    match format {
        // The machine formats print the errors, for CI steps that read stdout only.
        Some(&("github" | "sarif" | "junit" | "gitlab" | "msvs" | "markdown")) => assert!(
            stdout.contains("COMPILE") || stdout.contains("could not be done"),
            "a failed check prints its errors, not a report: {stdout}"
        ),
        _ => assert!(out.stdout.is_empty(), "a failed check prints no report"),
    }
    stderr
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub rule: String,
    pub path: Option<String>,
    pub start: (u64, u64),
    pub end: (u64, u64),
    pub previous_path: Option<String>,
}

impl Finding {
    fn from_json(v: &Value) -> Finding {
        let n = |k: &str| v[k].as_u64().expect("number");
        Finding {
            rule: v["rule"].as_str().expect("rule").to_string(),
            path: v["path"].as_str().map(str::to_string),
            start: (n("start_line"), n("start_column")),
            end: (n("end_line"), n("end_column")),
            previous_path: v["previous"]["path"].as_str().map(str::to_string),
        }
    }

    /// The paths relative to each side's ROOT, as the tests state them; each must carry its
    /// side's prefix.
    fn relative_to(mut self, (new, old): &(String, String)) -> Finding {
        let strip = |path: &mut Option<String>, prefix: &str| {
            if let Some(p) = path {
                *p = p
                    .strip_prefix(prefix)
                    .unwrap_or_else(|| panic!("JSON path {p} does not start with {prefix:?}"))
                    .to_string();
            }
        };
        strip(&mut self.path, new);
        strip(&mut self.previous_path, old);
        self
    }
}

/// Whether a rule is one of protocompat's HAZARD rules (on in every configuration).
pub fn is_hazard(rule: &str) -> bool {
    protocompat::rules::find(rule)
        .is_some_and(|r| r.categories.contains(&protocompat::rules::HAZARD))
}

/// `rule path:l:c-l:c` strings, sorted, for compact exact assertions.
///
/// Findings of the HAZARD rules are left out: the scenarios using this are about buf's
/// rules, and each hazard has its own rule case.
pub fn brief(findings: &[Finding]) -> Vec<String> {
    let mut out: Vec<String> = findings
        .iter()
        .filter(|f| !is_hazard(&f.rule))
        .map(|f| {
            format!(
                "{} {}:{}:{}-{}:{}",
                f.rule,
                f.path.as_deref().unwrap_or("<deleted>"),
                f.start.0,
                f.start.1,
                f.end.0,
                f.end.1
            )
        })
        .collect();
    out.sort();
    out
}

pub fn tempdir() -> TempDir {
    tempfile::tempdir().expect("temp dir")
}

pub fn abs(p: &Path) -> PathBuf {
    p.canonicalize().expect("canonical path")
}

/// The fenced block after the marker `<!-- snippet: NAME` in README.md: the tests run the
/// snippets users copy, not hand-copied variants.
pub fn doc_snippet(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let doc = std::fs::read_to_string(&path).expect("README.md");
    let marker = format!("<!-- snippet: {name}");
    let start = doc.find(&marker).expect("snippet marker in README.md");
    let fence = doc[start..].find("```").expect("fence") + start;
    let body = doc[fence..].find('\n').expect("fence line") + fence + 1;
    let end = doc[body..].find("```").expect("closing fence") + body;
    doc[body..end].to_string()
}
