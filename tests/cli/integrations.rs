//! `--help` examples, shell completions, the man page, and the first commit of a repository.

use crate::support;
use support::doc_snippet;

use support::Repo;

fn protocompat(args: &[&str]) -> std::process::Output {
    support::run(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

#[test]
fn every_subcommand_help_ends_with_examples() {
    for sub in [
        "check",
        "breaking",
        "rules",
        "explain",
        "completions",
        "man",
    ] {
        let out = protocompat(&[sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("Examples:"),
            "{sub} --help has no examples:\n{help}"
        );
        assert!(
            help.contains(&format!("protocompat {sub}")),
            "{sub}: {help}"
        );
    }
}

#[test]
fn completions_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F _protocompat"),
        ("zsh", "#compdef protocompat"),
        ("fish", "complete -c protocompat"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = protocompat(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(script.contains(marker), "{shell}: {marker} missing");
        assert!(
            script.contains("--against"),
            "{shell}: check's flags are completed"
        );
    }
    assert_eq!(protocompat(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn man_page_is_roff() {
    let out = protocompat(&["man"]);
    assert!(out.status.success());
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains(".TH protocompat 1"), "{page}");
    assert!(page.contains("check"));
    // One page per subcommand, with its options.
    let out = protocompat(&["man", "check"]);
    assert!(out.status.success());
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains(".TH protocompat-check 1"), "{page}");
    for option in ["\\-\\-against", "\\-\\-merge\\-base", "\\-\\-staged"] {
        assert!(page.contains(option), "{option}: {page}");
    }
    assert_eq!(protocompat(&["man", "nope"]).status.code(), Some(2));
}

#[test]
fn the_first_commit_has_nothing_to_compare_with() {
    let repo = Repo::new();
    repo.write("proto/a.proto", "syntax = \"proto3\";\nmessage A {}\n");
    repo.git(&["add", "-A"]);
    let out = support::run(repo.path(), &["check", "--staged", "--against", "HEAD"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // An unknown revision is still an error.
    let out = support::run(repo.path(), &["check", "--staged", "--against", "main"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn pre_push_reads_the_refs_pre_commit_gives() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        "syntax = \"proto3\";\nmessage A { int32 x = 1; }\n",
    );
    let from = repo.commit("one");
    repo.write(
        "a.proto",
        "syntax = \"proto3\";\nmessage A { string x = 1; }\n",
    );
    let to = repo.commit("two");
    // Back to the first commit in the working tree: only the refs can show the change.
    repo.git(&["checkout", "-q", &from]);
    let run = |env: &[(&str, &str)]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_protocompat"))
            .args(["check", "--pre-push", "--format", "short"])
            .current_dir(repo.path())
            .env_remove("PRE_COMMIT_FROM_REF")
            .env_remove("PRE_COMMIT_TO_REF")
            .envs(env.iter().copied())
            .output()
            .expect("runs")
    };
    let out = run(&[("PRE_COMMIT_FROM_REF", &from), ("PRE_COMMIT_TO_REF", &to)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("FIELD_SAME_TYPE"));
    // Without refs (pre-commit gives none for a brand-new history) there is nothing to check.
    assert_eq!(run(&[]).status.code(), Some(0));
}

#[test]
fn the_documented_gitlab_job_writes_a_code_quality_report() {
    let job: yaml_serde::Value =
        yaml_serde::from_str(&doc_snippet("gitlab-ci")).expect("the snippet is YAML");
    let job = &job["protobuf-breaking"];
    let report = job["artifacts"]["reports"]["codequality"]
        .as_str()
        .expect("a codequality report");
    let script: Vec<String> = job["script"]
        .as_sequence()
        .expect("script")
        .iter()
        .map(|l| l.as_str().expect("a script line").to_string())
        .collect();

    let remote = tempfile::tempdir().expect("remote");
    support::git_in(remote.path(), &["init", "-q", "--bare"]);
    let repo = Repo::new();
    repo.write(
        "proto/acme/v1/order.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nmessage Order {\n  int32 status = 1;\n}\n",
    );
    repo.commit("base");
    repo.git(&[
        "remote",
        "add",
        "origin",
        &remote.path().display().to_string(),
    ]);
    repo.git(&["push", "-q", "origin", "main"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "proto/acme/v1/order.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nmessage Order {\n  string status = 1;\n}\n",
    );
    repo.commit("breaking");

    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_protocompat"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &script {
        let out = std::process::Command::new("bash")
            .args(["-c", line])
            .current_dir(repo.path())
            .env("PATH", &path)
            .env("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main")
            .output()
            .expect("bash runs");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(repo.path().join(report)).expect("report written");
    let issues: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(issues[0]["check_name"], "FIELD_SAME_TYPE");
    assert_eq!(issues[0]["location"]["path"], "proto/acme/v1/order.proto");
    assert_eq!(issues[0]["severity"], "major");
}
