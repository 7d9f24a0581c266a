//! The pre-commit hooks (.pre-commit-hooks.yaml) under the real pre-commit framework:
//! pre-commit is installed from PyPI into a virtualenv, a temporary repository's
//! .pre-commit-config.yaml is the snippet documented in README.md pointed
//! at this checkout (its HEAD commit), and pre-commit builds the hook with cargo
//! (`language: rust`). A breaking commit is rejected with the rich diagnostics, a clean one
//! accepted; a breaking push is rejected by the pre-push hook.
//!
//! Skips (printing why) only where pip cannot install pre-commit (no network to PyPI).

use crate::support;
use support::doc_snippet;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use support::Repo;

const OLD_ORDER: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  int64 id = 1;\n  int32 status = 2;\n}\n";
const BREAKING_ORDER: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  int64 id = 1;\n  string status = 2;\n}\n";
const CLEAN_ORDER: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  int64 id = 1;\n  int32 status = 2;\n  string note = 3;\n}\n";

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The documented config with `repo:` and `rev:` pointing at this checkout.
fn pre_commit_config(repo: &Path, rev: &str) -> String {
    let snippet = doc_snippet("pre-commit-config");
    let mut out = String::new();
    for line in snippet.lines() {
        let indent = &line[..line.len() - line.trim_start().len()];
        if line.trim_start().starts_with("- repo:") {
            out.push_str(&format!("{indent}- repo: {}\n", repo.display()));
        } else if line.trim_start().starts_with("rev:") {
            out.push_str(&format!("{indent}rev: {rev}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(out.contains(rev), "the snippet has a rev: line");
    out
}

/// A virtualenv with pre-commit, kept under cargo's test temp dir between runs; None (after
/// printing why) when pip cannot install it.
fn pre_commit_bin() -> Option<PathBuf> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-venv");
    let bin = venv.join("bin/pre-commit");
    let works = |bin: &Path| {
        Command::new(bin)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if works(&bin) {
        return Some(bin);
    }
    let _ = std::fs::remove_dir_all(&venv);
    let created = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output();
    match created {
        Ok(o) if o.status.success() => {}
        other => {
            eprintln!("SKIPPED: cannot create a Python virtualenv (python3 -m venv): {other:?}");
            return None;
        }
    }
    let pip = Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "pre-commit",
        ])
        .output()
        .expect("pip runs");
    if !pip.status.success() || !works(&bin) {
        eprintln!(
            "SKIPPED: pip cannot install pre-commit (no network to PyPI?):\n{}",
            String::from_utf8_lossy(&pip.stderr)
        );
        return None;
    }
    Some(bin)
}

/// Runs a command in the repository with the test's git identity and pre-commit settings.
fn run_in(repo: &Repo, program: &Path, args: &[&str], pre_commit_home: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(repo.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("PRE_COMMIT_HOME", pre_commit_home)
        .env("NO_COLOR", "1")
        // pre-commit builds the hook with `cargo install`: a target dir kept between runs
        // makes later runs incremental, and an unoptimised build (the hook's behaviour does
        // not depend on it) keeps the first one short on a fresh CI machine.
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-hook-target"),
        )
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("CARGO_PROFILE_RELEASE_INCREMENTAL", "true")
        .output()
        .expect("command runs")
}

fn both(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn git() -> PathBuf {
    PathBuf::from("git")
}

#[test]
fn hooks_reject_breaking_commits_and_pushes_and_accept_clean_ones() {
    let Some(pre_commit) = pre_commit_bin() else {
        return;
    };
    let head = support::git_in(manifest_dir(), &["rev-parse", "HEAD"]);
    let rev = head.trim();
    let hooks = Command::new("git")
        .args(["cat-file", "-e", &format!("{rev}:.pre-commit-hooks.yaml")])
        .current_dir(manifest_dir())
        .status()
        .expect("git runs");
    assert!(
        hooks.success(),
        "HEAD of this checkout must contain .pre-commit-hooks.yaml (pre-commit clones HEAD)"
    );
    let home = tempfile::tempdir().expect("pre-commit home");

    let repo = Repo::new();
    repo.write("proto/acme/v1/order.proto", OLD_ORDER);
    repo.write(
        ".pre-commit-config.yaml",
        &pre_commit_config(manifest_dir(), rev),
    );
    repo.commit("base");
    let install = run_in(
        &repo,
        &pre_commit,
        &[
            "install",
            "--hook-type",
            "pre-commit",
            "--hook-type",
            "pre-push",
        ],
        home.path(),
    );
    assert!(install.status.success(), "{}", both(&install));

    // Build the hook once, up front, so the commit below is timed on its own.
    let started = Instant::now();
    let build = run_in(&repo, &pre_commit, &["install-hooks"], home.path());
    assert!(build.status.success(), "{}", both(&build));
    eprintln!("pre-commit built the hook in {:?}", started.elapsed());

    // A breaking commit is rejected, with the rich diagnostics.
    repo.write("proto/acme/v1/order.proto", BREAKING_ORDER);
    repo.git(&["add", "-A"]);
    let rejected = run_in(&repo, &git(), &["commit", "-m", "breaking"], home.path());
    let output = both(&rejected);
    assert!(
        !rejected.status.success(),
        "the commit went through:\n{output}"
    );
    assert!(output.contains("FIELD_SAME_TYPE"), "{output}");
    assert!(
        output.contains("changed type from \"int32\" to \"string\""),
        "{output}"
    );
    assert!(
        output.contains("help:"),
        "rich output has the fix:\n{output}"
    );
    assert!(
        output.contains("@ HEAD"),
        "rich output names the old revision:\n{output}"
    );
    assert_eq!(
        support::git_in(repo.path(), &["rev-list", "--count", "HEAD"]).trim(),
        "1"
    );

    // A compatible change goes through.
    repo.write("proto/acme/v1/order.proto", CLEAN_ORDER);
    repo.git(&["add", "-A"]);
    let accepted = run_in(&repo, &git(), &["commit", "-m", "clean"], home.path());
    assert!(accepted.status.success(), "{}", both(&accepted));
    assert_eq!(
        support::git_in(repo.path(), &["rev-list", "--count", "HEAD"]).trim(),
        "2"
    );

    // Pushing: a new remote branch has nothing to compare with; then a breaking commit made
    // with --no-verify is stopped by the pre-push hook.
    let remote = tempfile::tempdir().expect("remote");
    support::git_in(remote.path(), &["init", "-q", "--bare"]);
    repo.git(&[
        "remote",
        "add",
        "origin",
        &remote.path().display().to_string(),
    ]);
    let first_push = run_in(
        &repo,
        &git(),
        &["push", "-q", "origin", "main"],
        home.path(),
    );
    assert!(first_push.status.success(), "{}", both(&first_push));
    repo.write("proto/acme/v1/order.proto", BREAKING_ORDER);
    repo.git(&["add", "-A"]);
    let skipped = run_in(
        &repo,
        &git(),
        &["commit", "--no-verify", "-m", "breaking"],
        home.path(),
    );
    assert!(skipped.status.success(), "{}", both(&skipped));
    let push = run_in(&repo, &git(), &["push", "origin", "main"], home.path());
    let output = both(&push);
    assert!(!push.status.success(), "the push went through:\n{output}");
    assert!(output.contains("FIELD_SAME_TYPE"), "{output}");
}
