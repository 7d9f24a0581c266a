//! What a user notices across outputs (issue 11, "Consistency a user notices"): how each
//! side is named, the summary's categories, the syntax-error cap, `rules --all`.

use crate::support;

use support::Repo;

const OLD: &str = "syntax = \"proto3\";\npackage acme.v1;\nmessage Order {\n  int32 id = 1;\n}\n";
const NEW: &str = "syntax = \"proto3\";\npackage acme.v1;\nmessage Order {\n  string id = 1;\n}\n";
const EXTRA: &str = "syntax = \"proto3\";\npackage acme.v1;\nmessage Extra {}\n";

fn text(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `check new --against old` on two directories: the new side is named by its ROOT (no
/// "working tree"), and old-side files as `old/path:line:col`, which an editor opens.
#[test]
fn a_directory_comparison_names_both_sides_as_paths() {
    let dir = support::tempdir();
    for (side, files) in [
        ("old", &[("a.proto", OLD), ("extra.proto", EXTRA)][..]),
        ("new", &[("a.proto", NEW)][..]),
    ] {
        for (path, body) in files {
            let full = dir.path().join(side).join(path);
            std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
            std::fs::write(full, body).expect("write");
        }
    }
    let out = support::run(dir.path(), &["check", "new", "--against", "old"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out);
    assert!(stdout.contains("deleted in `new`"), "{stdout}");
    assert!(!stdout.contains("working tree"), "{stdout}");
    assert!(stdout.contains("╭─[old/extra.proto:1:1]"), "{stdout}");
    assert!(stdout.contains("╭─[old/a.proto:4:3]"), "{stdout}");
    assert!(!stdout.contains("@ old"), "{stdout}");
    // The default rules are FILE's: only FILE is counted (CSR and PACKAGE did not run).
    assert!(stdout.contains("By category: FILE 2.\n"), "{stdout}");
}

/// `--staged` is "the staged changes" in sentences; a repository's working tree stays "the
/// working tree" and revisions keep `path @ REV`.
#[test]
fn staged_changes_and_revisions_are_named_for_people() {
    let repo = Repo::new();
    repo.write("a.proto", OLD);
    repo.write("extra.proto", EXTRA);
    repo.commit("one");
    repo.remove("extra.proto");
    let out = support::run(repo.path(), &["check", "--against", "HEAD"]);
    let stdout = text(&out);
    assert!(stdout.contains("deleted in the working tree"), "{stdout}");
    assert!(stdout.contains("╭─[extra.proto @ HEAD:1:1]"), "{stdout}");
    repo.git(&["add", "-A"]);
    let out = support::run(repo.path(), &["check", "--staged", "--against", "HEAD"]);
    let stdout = text(&out);
    assert!(stdout.contains("deleted in the staged changes"), "{stdout}");
    assert!(!stdout.contains("`index`"), "{stdout}");
}

/// pre-commit passes full object ids; the report shows them abbreviated, as git does.
#[test]
fn pre_push_output_shows_short_object_ids() {
    let repo = Repo::new();
    repo.write("a.proto", OLD);
    let from = repo.commit("one");
    repo.write("a.proto", NEW);
    let to = repo.commit("two");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(["check", "--pre-push"])
        .current_dir(repo.path())
        .env("NO_COLOR", "1")
        .env("PRE_COMMIT_FROM_REF", &from)
        .env("PRE_COMMIT_TO_REF", &to)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out);
    assert!(
        stdout.contains(&format!("a.proto @ {}:4:3]", &to[..10])),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("before, in `{}`", &from[..10])),
        "{stdout}"
    );
    assert!(!stdout.contains(&from) && !stdout.contains(&to), "{stdout}");
}

/// Thousands of syntax errors in one file: the first 20, then how many more.
#[test]
fn syntax_errors_are_capped_per_file() {
    let dir = support::tempdir();
    let mut broken = String::from("syntax = \"proto3\";\n");
    for _ in 0..2000 {
        broken.push_str("message {\n}\n");
    }
    for side in ["old", "new"] {
        std::fs::create_dir_all(dir.path().join(side)).expect("mkdir");
    }
    std::fs::write(dir.path().join("old/a.proto"), OLD).expect("write");
    std::fs::write(dir.path().join("new/a.proto"), &broken).expect("write");
    let out = support::run(dir.path(), &["check", "new", "--against", "old"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().count() < 400,
        "not capped: {} lines",
        stderr.lines().count()
    );
    let squashed = stderr.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        squashed
            .contains("a.proto @ working tree: 1980 more syntax errors not shown (2000 in all)"),
        "{stderr}"
    );
}

/// Hundreds of duplicate definitions (copies of a file beside it, as googleapis keeps under
/// `preview/`): 20 per file and 100 in all are printed, then one line with how many more and
/// where; buf's formats (`breaking --error-format json`) still list every one.
#[test]
fn front_end_errors_are_capped_per_file_and_in_all() {
    let dir = support::tempdir();
    let mut copy = String::from("syntax = \"proto3\";\npackage acme.v1;\n");
    for i in 0..50 {
        copy.push_str(&format!("message M{i} {{}}\n"));
    }
    std::fs::create_dir_all(dir.path().join("old")).expect("mkdir");
    std::fs::write(dir.path().join("old/a.proto"), OLD).expect("write");
    for name in ["a", "c1/a", "c2/a", "c3/a", "c4/a", "c5/a", "c6/a"] {
        let path = dir.path().join(format!("new/{name}.proto"));
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, &copy).expect("write");
    }
    let out = support::run(dir.path(), &["check", "new", "--against", "old"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("is already defined").count(),
        100,
        "{stderr}"
    );
    let squashed = stderr.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        squashed.contains(
            "error: 200 more errors not shown (300 in all; at most 20 per file and 100 in all are shown), in "
        ),
        "{stderr}"
    );
    assert!(
        squashed.contains("in new/c1/a.proto @ working tree (30), new/c2/a.proto"),
        "{stderr}"
    );
    assert!(squashed.ends_with("(30), and 1 more file"), "{stderr}");
    let out = support::run(
        dir.path(),
        &[
            "breaking",
            "new",
            "--against",
            "old",
            "--error-format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(100));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.matches("\"type\":\"COMPILE\"").count(),
        300,
        "{stdout}"
    );
}

/// `rules --all` lists every deprecated id that `explain` knows, whichever config versions
/// accept it.
#[test]
fn rules_all_lists_every_deprecated_id() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = support::run(root, &["rules", "--all"]);
    assert_eq!(out.status.code(), Some(0));
    let listing = text(&out);
    for id in [
        "FIELD_SAME_CTYPE",
        "FIELD_SAME_LABEL",
        "FILE_SAME_JAVA_STRING_CHECK_UTF8",
        "FILE_SAME_PHP_GENERIC_SERVICES",
        "MESSAGE_SAME_MESSAGE_SET_WIRE_FORMAT",
    ] {
        assert!(
            listing.lines().any(|l| l.starts_with(id)),
            "{id}:\n{listing}"
        );
        let explained = support::run(root, &["explain", id]);
        assert_eq!(explained.status.code(), Some(0), "explain {id}");
    }
    let plain = text(&support::run(root, &["rules"]));
    assert!(!plain.contains("FIELD_SAME_CTYPE"), "{plain}");
}

/// buf's input syntax for the old side maps to revisions, so a `buf breaking` line works with
/// `check` unchanged; `--exclude-imports` is accepted.
#[test]
fn bufs_git_input_syntax_names_revisions() {
    let repo = Repo::new();
    repo.write("proto/a.proto", OLD);
    repo.commit("one");
    repo.git(&["tag", "v1.0.0"]);
    repo.write("proto/a.proto", NEW);
    repo.commit("two");
    let short = |args: &[&str]| {
        let mut all = vec!["check"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--format", "short"]);
        let out = support::run(repo.path(), &all);
        (
            out.status.code(),
            text(&out),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let found = "proto/a.proto:4:3: error[FIELD_SAME_TYPE]";
    for against in [
        ".git#tag=v1.0.0",
        ".git#ref=HEAD~1",
        ".git#ref=HEAD~1,subdir=proto",
    ] {
        let (code, stdout, stderr) = short(&["proto", "--against", against, "--exclude-imports"]);
        assert_eq!(code, Some(1), "{against}: {stderr}");
        assert!(stdout.contains(found), "{against}: {stdout}");
    }
    // The working tree against the branch: nothing changed since.
    let (code, _, stderr) = short(&["proto", "--against", ".git#branch=main"]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, _, stderr) = short(&["proto", "--against", ".git#branch=main,depth=50"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("`depth=50` is ignored"), "{stderr}");
    // A subdir that is not ROOT, and an option buf has that is not mapped: exit 2, saying why.
    let (code, _, stderr) = short(&[".", "--against", ".git#ref=HEAD~1,subdir=proto"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("subdir=proto is not ROOT"), "{stderr}");
    let (code, _, stderr) = short(&["proto", "--against", ".git#branch=main,strip_components=1"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("strip_components"), "{stderr}");
}
