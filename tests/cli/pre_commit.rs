//! The pre-commit hooks (.pre-commit-hooks.yaml) under the real pre-commit framework:
//! pre-commit is installed from PyPI into a virtualenv, a temporary repository's
//! .pre-commit-config.yaml is the snippet documented in README.md pointed
//! at this checkout (its HEAD commit), and pre-commit sets the hook up as `language: rust`
//! with a stand-in `cargo` that installs the binary this test run built (see
//! [`fake_cargo_dir`]). A breaking commit is rejected with the rich diagnostics, a clean one
//! accepted; commits that only delete or rename a schema file or only change configuration
//! are rejected; breaking pushes are rejected by the pre-push hook.
//!
//! Skips (printing why) only where pip cannot install pre-commit (no network to PyPI).

use crate::support;
use support::doc_snippet;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
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
/// printing why) when pip cannot install it. Made once per test process (the tests run in
/// parallel).
fn pre_commit_bin() -> Option<PathBuf> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(install_pre_commit).clone()
}

fn install_pre_commit() -> Option<PathBuf> {
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

/// A directory holding a stand-in `cargo` for pre-commit's `language: rust`: pre-commit
/// runs `cargo --version` to pick the system toolchain and then `cargo install --bins --root
/// ENV --path .` in its clone of this repository; the stand-in copies the binary this test
/// run already built into `ENV/bin` (a nested cargo build cost minutes of CI) and logs its
/// arguments, so the published hook definition (`language: rust`) is what runs.
fn fake_cargo_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("fake cargo dir");
    let script = format!(
        r#"#!/bin/sh
echo "$@" >> "{log}"
if [ "$1" = "--version" ]; then echo "cargo 1.0.0 (stand-in for tests/pre_commit.rs)"; exit 0; fi
if [ "$1" != "install" ]; then echo "stand-in cargo: unexpected $*" >&2; exit 1; fi
root=""
path=""
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="$2"; shift ;;
    --path) path="$2"; shift ;;
  esac
  shift
done
[ -n "$root" ] && [ "$path" = "." ] && [ -f Cargo.toml ] || {{ echo "stand-in cargo: expected install --root DIR --path . in a crate" >&2; exit 1; }}
mkdir -p "$root/bin" && cp "{bin}" "$root/bin/protocompat"
"#,
        log = dir.path().join("cargo.log").display(),
        bin = env!("CARGO_BIN_EXE_protocompat"),
    );
    let cargo = dir.path().join("cargo");
    std::fs::write(&cargo, script).expect("write fake cargo");
    let mut perms = std::fs::metadata(&cargo).expect("stat").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&cargo, perms).expect("chmod");
    dir
}

/// A test repository with both published hooks installed through the real pre-commit.
struct Hooked {
    repo: Repo,
    pre_commit: PathBuf,
    home: tempfile::TempDir,
    cargo: tempfile::TempDir,
}

impl Hooked {
    /// `files` committed as the base (with the documented .pre-commit-config.yaml pointing
    /// at this checkout's HEAD), both hook types installed and the hook environment built.
    /// None when pre-commit cannot be installed.
    fn new(files: &[(&str, &str)]) -> Option<Hooked> {
        let pre_commit = pre_commit_bin()?;
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
        let hooked = Hooked {
            repo: Repo::new(),
            pre_commit,
            home: tempfile::tempdir().expect("pre-commit home"),
            cargo: fake_cargo_dir(),
        };
        for (path, text) in files {
            hooked.repo.write(path, text);
        }
        hooked.repo.write(
            ".pre-commit-config.yaml",
            &pre_commit_config(manifest_dir(), rev),
        );
        hooked.repo.commit("base");
        let install = hooked.pre_commit(&[
            "install",
            "--hook-type",
            "pre-commit",
            "--hook-type",
            "pre-push",
        ]);
        assert!(install.status.success(), "{}", both(&install));
        let started = Instant::now();
        let build = hooked.pre_commit(&["install-hooks"]);
        assert!(build.status.success(), "{}", both(&build));
        eprintln!("pre-commit set up the hook in {:?}", started.elapsed());
        let log = std::fs::read_to_string(hooked.cargo.path().join("cargo.log"))
            .expect("pre-commit ran cargo");
        assert!(
            log.lines()
                .any(|l| l.starts_with("install --bins --root ") && l.ends_with("--path .")),
            "pre-commit installs the hook with cargo (language: rust):\n{log}"
        );
        Some(hooked)
    }

    fn pre_commit(&self, args: &[&str]) -> Output {
        self.run(&self.pre_commit, args)
    }

    fn git(&self, args: &[&str]) -> Output {
        self.run(&git(), args)
    }

    /// Runs a command in the repository with the test's git identity and pre-commit
    /// settings, the stand-in cargo first on PATH.
    fn run(&self, program: &Path, args: &[&str]) -> Output {
        let path = format!(
            "{}:{}",
            self.cargo.path().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new(program)
            .args(args)
            .current_dir(self.repo.path())
            .env("PATH", path)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .env("PRE_COMMIT_HOME", self.home.path())
            .env("NO_COLOR", "1")
            .output()
            .expect("command runs")
    }

    fn commits(&self) -> usize {
        support::git_in(self.repo.path(), &["rev-list", "--count", "HEAD"])
            .trim()
            .parse()
            .expect("a count")
    }

    /// `git commit` of everything staged must be rejected by the commit hook with `expected`
    /// in its output, leaving the history as it was.
    fn assert_commit_rejected(&self, what: &str, expected: &str) {
        let before = self.commits();
        let commit = self.git(&["commit", "-m", what]);
        let output = both(&commit);
        assert!(
            !commit.status.success(),
            "{what}: the commit went through:\n{output}"
        );
        assert!(output.contains(expected), "{what}: {output}");
        assert_eq!(self.commits(), before, "{what}");
    }

    /// A bare remote with the current history pushed to `main` (the push hook passes: the
    /// whole history is new).
    fn push_to_new_remote(&self) -> tempfile::TempDir {
        let remote = tempfile::tempdir().expect("remote");
        support::git_in(remote.path(), &["init", "-q", "--bare"]);
        self.repo.git(&[
            "remote",
            "add",
            "origin",
            &remote.path().display().to_string(),
        ]);
        let first_push = self.git(&["push", "-q", "origin", "main"]);
        assert!(first_push.status.success(), "{}", both(&first_push));
        remote
    }
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
    let Some(hooked) = Hooked::new(&[("proto/acme/v1/order.proto", OLD_ORDER)]) else {
        return;
    };
    let repo = &hooked.repo;

    // A breaking commit is rejected, with the rich diagnostics.
    repo.write("proto/acme/v1/order.proto", BREAKING_ORDER);
    repo.git(&["add", "-A"]);
    let rejected = hooked.git(&["commit", "-m", "breaking"]);
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
    assert_eq!(hooked.commits(), 1);

    // A compatible change goes through.
    repo.write("proto/acme/v1/order.proto", CLEAN_ORDER);
    repo.git(&["add", "-A"]);
    let accepted = hooked.git(&["commit", "-m", "clean"]);
    assert!(accepted.status.success(), "{}", both(&accepted));
    assert_eq!(hooked.commits(), 2);

    // Pushing: a new remote branch has nothing to compare with; then a breaking commit made
    // with --no-verify is stopped by the pre-push hook.
    let _remote = hooked.push_to_new_remote();
    repo.write("proto/acme/v1/order.proto", BREAKING_ORDER);
    repo.git(&["add", "-A"]);
    let skipped = hooked.git(&["commit", "--no-verify", "-m", "breaking"]);
    assert!(skipped.status.success(), "{}", both(&skipped));
    let push = hooked.git(&["push", "origin", "main"]);
    let output = both(&push);
    assert!(!push.status.success(), "the push went through:\n{output}");
    assert!(output.contains("FIELD_SAME_TYPE"), "{output}");
}

const EXTRA: &str =
    "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Extra {\n  string name = 1;\n}\n";

/// pre-commit leaves deleted files out of a hook's file list, so a hook filtered to `.proto`
/// files never ran for a commit that only deletes one, or renames one to a name that is not
/// `.proto`.
#[test]
fn a_commit_that_only_deletes_a_schema_file_is_rejected() {
    let Some(hooked) = Hooked::new(&[
        ("proto/acme/v1/order.proto", OLD_ORDER),
        ("proto/acme/v1/extra.proto", EXTRA),
    ]) else {
        return;
    };
    hooked.repo.git(&["rm", "-q", "proto/acme/v1/extra.proto"]);
    hooked.assert_commit_rejected("delete-only", "FILE_NO_DELETE");
}

#[test]
fn a_commit_that_only_renames_a_schema_file_is_rejected() {
    let Some(hooked) = Hooked::new(&[
        ("proto/acme/v1/order.proto", OLD_ORDER),
        ("proto/acme/v1/extra.proto", EXTRA),
    ]) else {
        return;
    };
    // Renamed out of the schema (pre-commit's file list has only the new, non-.proto name),
    // then to another .proto name: both delete `acme/v1/extra.proto`.
    for renamed in [
        "proto/acme/v1/extra.proto.retired",
        "proto/acme/v1/renamed.proto",
    ] {
        hooked
            .repo
            .git(&["mv", "proto/acme/v1/extra.proto", renamed]);
        hooked.assert_commit_rejected(&format!("rename-only to {renamed}"), "FILE_NO_DELETE");
        hooked.repo.git(&["reset", "-q", "--hard"]);
    }
}

/// A commit touching only configuration changes what the schema means: a buf.yaml module
/// path or a buf.work.yaml directory moves every file, and a broken protocompat.toml means
/// nothing could be checked. Each is rejected.
#[test]
fn commits_that_only_change_configuration_are_checked() {
    let Some(hooked) = Hooked::new(&[
        ("proto/acme/v1/order.proto", OLD_ORDER),
        ("buf.yaml", "version: v2\nmodules:\n  - path: proto\n"),
    ]) else {
        return;
    };
    let repo = &hooked.repo;
    repo.write("buf.yaml", "version: v2\n");
    repo.git(&["add", "-A"]);
    hooked.assert_commit_rejected("buf.yaml only", "FILE_NO_DELETE");
    repo.git(&["reset", "-q", "--hard"]);

    repo.write("protocompat.toml", "[breaking]\nuse = [\"NO_SUCH_RULE\"]\n");
    repo.git(&["add", "-A"]);
    hooked.assert_commit_rejected("protocompat.toml only", "NO_SUCH_RULE");
    repo.git(&["reset", "-q", "--hard"]);
    repo.git(&["clean", "-q", "-fd"]);

    // A workspace: buf.work.yaml lists proto/ (its own buf.yaml); listing proto/acme instead
    // moves every file.
    repo.remove("buf.yaml");
    repo.write("buf.work.yaml", "version: v1\ndirectories:\n  - proto\n");
    repo.write("proto/buf.yaml", "version: v1\n");
    repo.git(&["add", "-A"]);
    let workspace = hooked.git(&["commit", "-m", "workspace"]);
    assert!(workspace.status.success(), "{}", both(&workspace));
    repo.write(
        "buf.work.yaml",
        "version: v1\ndirectories:\n  - proto/acme\n",
    );
    repo.git(&["mv", "proto/buf.yaml", "proto/acme/buf.yaml"]);
    repo.git(&["add", "-A"]);
    hooked.assert_commit_rejected("buf.work.yaml only", "FILE_NO_DELETE");
}

/// The push hook sees what the commit hook would have: a delete-only commit made with
/// --no-verify is stopped at the push.
#[test]
fn a_push_of_a_delete_only_commit_is_rejected() {
    let Some(hooked) = Hooked::new(&[
        ("proto/acme/v1/order.proto", OLD_ORDER),
        ("proto/acme/v1/extra.proto", EXTRA),
    ]) else {
        return;
    };
    let _remote = hooked.push_to_new_remote();
    hooked.repo.git(&["rm", "-q", "proto/acme/v1/extra.proto"]);
    let skipped = hooked.git(&["commit", "--no-verify", "-m", "delete"]);
    assert!(skipped.status.success(), "{}", both(&skipped));
    let push = hooked.git(&["push", "origin", "main"]);
    let output = both(&push);
    assert!(!push.status.success(), "the push went through:\n{output}");
    assert!(output.contains("FILE_NO_DELETE"), "{output}");
}

/// The `args` of hook `id` in .pre-commit-hooks.yaml.
fn hook_args(id: &str) -> Vec<String> {
    let hooks: yaml_serde::Value = yaml_serde::from_str(
        &std::fs::read_to_string(manifest_dir().join(".pre-commit-hooks.yaml")).expect("hooks"),
    )
    .expect("YAML");
    let hook = hooks
        .as_sequence()
        .expect("a list of hooks")
        .iter()
        .find(|h| h["id"].as_str() == Some(id))
        .unwrap_or_else(|| panic!("no hook {id}"));
    hook["args"]
        .as_sequence()
        .expect("args")
        .iter()
        .map(|a| a.as_str().expect("a string").to_string())
        .collect()
}

/// The history hooks run what the plain ones do plus `--history` (run here as pre-commit
/// would run their `entry` and `args`, without needing pre-commit): a staged reuse of a
/// number deleted two commits ago is stopped, which the plain hook lets through.
#[test]
fn history_hooks_stop_a_number_deleted_long_ago() {
    let repo = Repo::new();
    let order = |fields: &str| {
        format!("syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {{\n  int64 id = 1;\n{fields}}}\n")
    };
    repo.write("order.proto", &order("  string email = 2;\n"));
    repo.commit("add email");
    repo.write("order.proto", &order(""));
    repo.commit("drop email");
    repo.write("order.proto", &order("  int64 created_at = 2;\n"));
    repo.git(&["add", "-A"]);
    let run = |id: &str, env: &[(&str, &str)]| {
        let args = hook_args(id);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
            .args(&args)
            .current_dir(repo.path())
            .env("NO_COLOR", "1")
            .envs(env.iter().copied())
            .output()
            .expect("runs");
        (out.status.code(), both(&out))
    };
    let (code, output) = run("protocompat", &[]);
    assert_eq!(code, Some(0), "{output}");
    let (code, output) = run("protocompat-history", &[]);
    assert_eq!(code, Some(1), "{output}");
    assert!(output.contains("FIELD_NUMBER_REUSED"), "{output}");
    // Pre-push: the pushed commit against what the remote has.
    let pushed = repo.commit("reuse 2");
    let refs = [
        ("PRE_COMMIT_FROM_REF", "HEAD~1"),
        ("PRE_COMMIT_TO_REF", pushed.as_str()),
    ];
    let (code, output) = run("protocompat-push", &refs);
    assert_eq!(code, Some(0), "{output}");
    let (code, output) = run("protocompat-push-history", &refs);
    assert_eq!(code, Some(1), "{output}");
    assert!(output.contains("FIELD_NUMBER_REUSED"), "{output}");
}
