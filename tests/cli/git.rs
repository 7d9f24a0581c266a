//! End-to-end: real git repositories, the binary, exact findings from its JSON.
//!
//! History built by `history()` (schema under `proto/`, default rules = buf's FILE set):
//!   c1 (tag v1.0.0): order.proto, legacy.proto, item.proto
//!   c2: Order.status int32 -> string              (FIELD_SAME_TYPE)
//!   c3: legacy.proto deleted                       (FILE_NO_DELETE)
//!   c4 (main): item.proto renamed to items.proto   (FILE_NO_DELETE for the old path)

use crate::support;

use std::path::Path;

use support::{brief, check_json, git_in, run, Repo};

const ORDER_V1: &str = "syntax = \"proto3\";

package acme.v1;

message Order {
  string id = 1;
  int32 status = 2;
  string note = 3;
}
";

const ORDER_V2: &str = "syntax = \"proto3\";

package acme.v1;

message Order {
  string id = 1;
  string status = 2;
  string note = 3;
}
";

const LEGACY: &str = "syntax = \"proto3\";

package acme.v1;

message Legacy {
  string name = 1;
}
";

const ITEM: &str = "syntax = \"proto3\";

package acme.v1;

message Item {
  string sku = 1;
}
";

struct History {
    repo: Repo,
    c1: String,
    c2: String,
}

fn history() -> History {
    let repo = Repo::new();
    repo.write("proto/acme/v1/order.proto", ORDER_V1);
    repo.write("proto/acme/v1/legacy.proto", LEGACY);
    repo.write("proto/acme/v1/item.proto", ITEM);
    repo.write("README", "not a schema\n");
    let c1 = repo.commit("c1");
    repo.git(&["tag", "v1.0.0"]);
    repo.write("proto/acme/v1/order.proto", ORDER_V2);
    let c2 = repo.commit("c2: status becomes a string");
    repo.remove("proto/acme/v1/legacy.proto");
    repo.commit("c3: legacy.proto deleted");
    repo.git(&[
        "mv",
        "proto/acme/v1/item.proto",
        "proto/acme/v1/items.proto",
    ]);
    repo.commit("c4: item.proto renamed");
    History { repo, c1, c2 }
}

const TYPE_CHANGE: &str = "FIELD_SAME_TYPE acme/v1/order.proto:7:3-7:9";
const LEGACY_GONE: &str = "FILE_NO_DELETE <deleted>:1:1-1:1";

#[test]
fn worktree_against_a_tag() {
    let h = history();
    let (code, findings, doc) = check_json(h.repo.path(), &["proto", "--against", "v1.0.0"]);
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        vec![TYPE_CHANGE, LEGACY_GONE, LEGACY_GONE]
    );
    let deleted: Vec<_> = findings
        .iter()
        .filter_map(|f| f.previous_path.clone().filter(|_| f.path.is_none()))
        .collect();
    assert_eq!(
        deleted,
        vec!["acme/v1/item.proto", "acme/v1/legacy.proto"],
        "deleted files carry their old path in `previous`"
    );
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["summary"]["errors"], 3);
    let type_change = &doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "FIELD_SAME_TYPE")
        .unwrap();
    assert_eq!(
        type_change["categories"],
        serde_json::json!(["FILE", "PACKAGE"])
    );
    // From the working directory, under ROOT (`proto`).
    assert_eq!(type_change["previous"]["path"], "proto/acme/v1/order.proto");
    assert_eq!(type_change["previous"]["start_line"], 7);
}

#[test]
fn short_sha_and_relative_revspecs() {
    let h = history();
    let short = &h.c1[..8];
    let (_, by_sha, _) = check_json(h.repo.path(), &["proto", "--against", short]);
    let (_, by_tag, _) = check_json(h.repo.path(), &["proto", "--against", "v1.0.0"]);
    assert_eq!(brief(&by_sha), brief(&by_tag));
    // HEAD~1 is c3: only the rename shows.
    let (code, findings, _) = check_json(h.repo.path(), &["proto", "--against", "HEAD~1"]);
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), vec![LEGACY_GONE]);
    assert_eq!(
        findings[0].previous_path.as_deref(),
        Some("acme/v1/item.proto")
    );
}

#[test]
fn no_change_exits_zero() {
    let h = history();
    let (code, findings, doc) = check_json(h.repo.path(), &["proto", "--against", "main"]);
    assert_eq!(code, 0);
    assert!(findings.is_empty());
    assert_eq!(doc["summary"]["errors"], 0);
}

#[test]
fn from_a_subdirectory_paths_are_relative_to_root() {
    let h = history();
    let sub = h.repo.path().join("proto");
    let (code, findings, _) = check_json(&sub, &[".", "--against", &h.c2]);
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), vec![LEGACY_GONE, LEGACY_GONE]);
    // ROOT deeper still: acme/v1 at both revisions.
    let deeper = sub.join("acme");
    let (_, findings, _) = check_json(&deeper, &["v1", "--against", "v1.0.0"]);
    assert_eq!(
        brief(&findings),
        vec![
            "FIELD_SAME_TYPE order.proto:7:3-7:9",
            LEGACY_GONE,
            LEGACY_GONE
        ]
    );
}

#[test]
fn rev_reads_the_new_side_from_git() {
    let h = history();
    // The working tree has an unrelated breaking edit that --rev must not see.
    h.repo.remove("proto/acme/v1/order.proto");
    let (code, findings, _) = check_json(
        h.repo.path(),
        &["proto", "--rev", &h.c2, "--against", "v1.0.0"],
    );
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), vec![TYPE_CHANGE]);
}

#[test]
fn staged_reads_the_index_only() {
    let h = history();
    // Staged: field `note` deleted. Working tree on top of that: the message deleted.
    h.repo.write(
        "proto/acme/v1/order.proto",
        "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n  string status = 2;\n}\n",
    );
    h.repo.git(&["add", "proto/acme/v1/order.proto"]);
    h.repo.write(
        "proto/acme/v1/order.proto",
        "syntax = \"proto3\";\n\npackage acme.v1;\n",
    );
    let (code, staged, _) = check_json(h.repo.path(), &["proto", "--staged", "--against", "HEAD"]);
    assert_eq!(code, 1);
    assert_eq!(
        brief(&staged),
        vec!["FIELD_NO_DELETE acme/v1/order.proto:5:1-8:2"]
    );
    let (_, worktree, _) = check_json(h.repo.path(), &["proto", "--against", "HEAD"]);
    assert_eq!(
        brief(&worktree),
        vec!["MESSAGE_NO_DELETE acme/v1/order.proto:1:1-1:1"]
    );
}

#[test]
fn a_branch_against_main() {
    let h = history();
    h.repo.git(&["checkout", "-q", "-b", "feature"]);
    h.repo.write(
        "proto/acme/v1/order.proto",
        "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n  string status = 2;\n  reserved 3;\n}\n",
    );
    h.repo.commit("feature: drop note, reserving its number");
    let (code, findings, _) = check_json(
        h.repo.path(),
        &["proto", "--rev", "feature", "--against", "main"],
    );
    assert_eq!(code, 1);
    // The number is reserved but not the name: FILE's FIELD_NO_DELETE still fires.
    assert_eq!(
        brief(&findings),
        vec!["FIELD_NO_DELETE acme/v1/order.proto:5:1-9:2"]
    );
}

#[test]
fn merge_base_ignores_what_main_did_since() {
    let h = history();
    // feature branches off c2; main then deletes legacy.proto and renames item.proto (c3, c4).
    h.repo.git(&["checkout", "-q", "-b", "feature", &h.c2]);
    h.repo.write(
        "proto/acme/v1/extra.proto",
        "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Extra {}\n",
    );
    h.repo.commit("feature: add a file");
    let (code, findings, _) = check_json(h.repo.path(), &["proto", "--against", "main"]);
    assert_eq!(
        code, 1,
        "against main itself, main's new file looks deleted"
    );
    assert_eq!(brief(&findings), vec![LEGACY_GONE]);
    assert_eq!(
        findings[0].previous_path.as_deref(),
        Some("acme/v1/items.proto")
    );
    let (code, findings, _) = check_json(
        h.repo.path(),
        &["proto", "--against", "main", "--merge-base"],
    );
    assert_eq!(code, 0, "{findings:?}");
}

/// Clones the history with `how` (`--bare`, `--no-checkout`) into `into/name`, and checks
/// `proto` at `rev` against v1.0.0 through `--git-dir`, run from `cwd`.
fn check_clone(how: &str, into: &Path, name: &str, cwd: &Path, rev: &str) -> Vec<String> {
    let h = history();
    let source = h.repo.path().to_str().unwrap();
    git_in(into, &["clone", "-q", how, source, name]);
    let git_dir = into.join(name);
    let git_dir = if how == "--bare" {
        git_dir
    } else {
        git_dir.join(".git")
    };
    let git_dir = git_dir.to_str().unwrap();
    let args = [
        "proto",
        "--git-dir",
        git_dir,
        "--rev",
        rev,
        "--against",
        "v1.0.0",
    ];
    let (code, findings, _) = check_json(cwd, &args);
    assert_eq!(code, 1);
    brief(&findings)
}

#[test]
fn a_bare_clone_with_git_dir() {
    let outside = support::tempdir();
    let found = check_clone("--bare", outside.path(), "bare.git", outside.path(), "main");
    assert_eq!(found, vec![TYPE_CHANGE, LEGACY_GONE, LEGACY_GONE]);
    // Without --rev a bare repository has no new side.
    let bare = outside.path().join("bare.git");
    let args = [
        "check",
        "proto",
        "--git-dir",
        bare.to_str().unwrap(),
        "--against",
        "v1.0.0",
    ];
    let out = run(outside.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bare"));
}

/// As git does with `--git-dir` and no `--work-tree`, the current directory is the top of
/// the working tree: ROOT names the same path in the repository from any directory, even for
/// a repository whose own work tree lies elsewhere (or was never checked out).
#[test]
fn git_dir_paths_are_relative_to_the_top_from_anywhere() {
    let (outside, elsewhere) = (support::tempdir(), support::tempdir());
    let found = check_clone(
        "--no-checkout",
        outside.path(),
        "clone",
        elsewhere.path(),
        "origin/main",
    );
    assert_eq!(found, vec![TYPE_CHANGE, LEGACY_GONE, LEGACY_GONE]);
}

#[test]
fn a_linked_worktree() {
    let h = history();
    let outside = support::tempdir();
    let wt = outside.path().join("wt");
    h.repo
        .git(&["worktree", "add", "-q", wt.to_str().unwrap(), "v1.0.0"]);
    // The linked worktree holds v1.0.0; main renamed item.proto, so against main the new
    // side lacks items.proto and has the old status type.
    let (code, findings, _) = check_json(&wt, &["proto", "--against", "main"]);
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        vec!["FIELD_SAME_TYPE acme/v1/order.proto:7:3-7:8", LEGACY_GONE]
    );
    assert_eq!(
        findings
            .iter()
            .find(|f| f.path.is_none())
            .unwrap()
            .previous_path
            .as_deref(),
        Some("acme/v1/items.proto")
    );
}

#[test]
fn path_and_exclude_path_narrow_the_files() {
    let h = history();
    let (_, findings, _) = check_json(
        h.repo.path(),
        &[
            "proto",
            "--against",
            "v1.0.0",
            "--path",
            "acme/v1/order.proto",
        ],
    );
    assert_eq!(brief(&findings), vec![TYPE_CHANGE]);
    let (_, findings, _) = check_json(
        h.repo.path(),
        &[
            "proto",
            "--against",
            "v1.0.0",
            "--exclude-path",
            "acme/v1/order.proto",
        ],
    );
    assert_eq!(brief(&findings), vec![LEGACY_GONE, LEGACY_GONE]);
}

#[test]
fn buf_yaml_at_root_selects_rules_and_ignores() {
    let h = history();
    h.repo.write(
        "proto/buf.yaml",
        "version: v1\nbreaking:\n  use:\n    - FILE\n  ignore:\n    - acme/v1/legacy.proto\n  ignore_only:\n    FIELD_SAME_TYPE:\n      - acme/v1/order.proto\n",
    );
    let (code, findings, _) = check_json(h.repo.path(), &["proto", "--against", "v1.0.0"]);
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), vec![LEGACY_GONE]);
    assert_eq!(
        findings[0].previous_path.as_deref(),
        Some("acme/v1/item.proto")
    );
    // --config overrides buf.yaml at ROOT.
    let cfg = h.repo.path().join("wire.toml");
    std::fs::write(&cfg, "[breaking]\nuse = [\"WIRE\"]\n").unwrap();
    let (_, findings, doc) = check_json(
        h.repo.path(),
        &[
            "proto",
            "--against",
            "v1.0.0",
            "--config",
            cfg.to_str().unwrap(),
        ],
    );
    assert_eq!(
        brief(&findings),
        vec!["FIELD_WIRE_COMPATIBLE_TYPE acme/v1/order.proto:7:3-7:9"]
    );
    assert_eq!(
        doc["findings"][0]["categories"],
        serde_json::json!(["WIRE"])
    );
}

#[test]
fn include_roots_come_from_the_same_revision() {
    let repo = Repo::new();
    repo.write(
        "vendor/common/money.proto",
        "syntax = \"proto3\";\n\npackage common;\n\nmessage Money {\n  int64 units = 1;\n}\n",
    );
    repo.write(
        "proto/shop.proto",
        "syntax = \"proto3\";\n\npackage shop;\n\nimport \"common/money.proto\";\n\nmessage Price {\n  common.Money amount = 1;\n}\n",
    );
    repo.commit("c1");
    // The vendored type changes name; the field's type (as resolved) changes with it.
    repo.write(
        "vendor/common/money.proto",
        "syntax = \"proto3\";\n\npackage common;\n\nmessage Cash {\n  int64 units = 1;\n}\n",
    );
    repo.write(
        "proto/shop.proto",
        "syntax = \"proto3\";\n\npackage shop;\n\nimport \"common/money.proto\";\n\nmessage Price {\n  common.Cash amount = 1;\n}\n",
    );
    let (code, findings, _) =
        check_json(repo.path(), &["proto", "-I", "vendor", "--against", "HEAD"]);
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        vec!["FIELD_SAME_TYPE shop.proto:8:3-8:14"]
    );
    // Reading the new side from git too: the include root is read at that revision.
    repo.commit("c2");
    let (_, findings, _) = check_json(
        repo.path(),
        &[
            "proto",
            "-I",
            "vendor",
            "--rev",
            "HEAD",
            "--against",
            "HEAD~1",
        ],
    );
    assert_eq!(
        brief(&findings),
        vec!["FIELD_SAME_TYPE shop.proto:8:3-8:14"]
    );
}

#[test]
fn text_format_lines_and_summary() {
    let h = history();
    let out = run(
        h.repo.path(),
        &["check", "proto", "--against", "HEAD~2", "--format", "short"],
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        // Paths start from the working directory, so editors can open them.
        lines[0].starts_with("proto/acme/v1/item.proto:1:1: error[FILE_NO_DELETE]: "),
        "{text}"
    );
    assert!(
        lines[1].starts_with("proto/acme/v1/legacy.proto:1:1: error[FILE_NO_DELETE]: "),
        "{text}"
    );
    let out = run(h.repo.path(), &["check", "proto", "--against", "HEAD~2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("2 breaking changes (2 errors, 0 warnings)"),
        "{text}"
    );
    assert!(text.contains("@ HEAD~2"), "{text}");
}

#[test]
fn directory_against_directory_needs_no_git() {
    let dir = support::tempdir();
    let old = dir.path().join("previous");
    let new = dir.path().join("current");
    for (side, text) in [(&old, ORDER_V1), (&new, ORDER_V2)] {
        std::fs::create_dir_all(side.join("acme/v1")).unwrap();
        std::fs::write(side.join("acme/v1/order.proto"), text).unwrap();
    }
    let (code, findings, _) = check_json(&new, &[".", "--against", "../previous"]);
    assert_eq!(code, 1);
    assert_eq!(brief(&findings), vec![TYPE_CHANGE]);
}

/// Dependencies exported into a git-ignored directory (`buf export buf.build/... -o deps`)
/// resolve imports at every revision: an include root that no revision tracks is read from
/// disk. Without it the import is missing, which is an error.
#[test]
fn an_untracked_include_root_serves_every_revision() {
    let repo = Repo::new();
    let money =
        "syntax = \"proto3\";\npackage google.type;\nmessage Money { string currency_code = 1; }\n";
    let order = |ty: &str| {
        format!(
            "syntax = \"proto3\";\npackage acme;\nimport \"google/type/money.proto\";\n\
             message Order {{\n  google.type.Money total = 1;\n  {ty} note = 2;\n}}\n"
        )
    };
    repo.write(".gitignore", "deps/\n");
    repo.write("deps/google/type/money.proto", money);
    repo.write("proto/order.proto", &order("string"));
    repo.commit("c1");
    repo.write("proto/order.proto", &order("bytes"));
    repo.commit("c2");
    let args = [
        "proto",
        "-I",
        "deps",
        "--rev",
        "HEAD",
        "--against",
        "HEAD~1",
    ];
    let (code, findings, _) = check_json(repo.path(), &args);
    assert_eq!(code, 1);
    assert_eq!(
        brief(&findings),
        vec!["FIELD_SAME_TYPE order.proto:6:3-6:8"]
    );
    let err = support::check_fails(
        repo.path(),
        &["proto", "--rev", "HEAD", "--against", "HEAD~1"],
    );
    assert!(
        err.contains("import \"google/type/money.proto\" was not found"),
        "{err}"
    );
}

/// `PROTOCOMPAT_TIMINGS` adds one line per phase on stderr, and changes nothing else.
#[test]
fn timings_print_each_phase_on_stderr_only() {
    let h = history();
    let args = ["check", "proto", "--against", "HEAD~2", "--format", "json"];
    let plain = run(h.repo.path(), &args);
    let timed = std::process::Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(args)
        .current_dir(h.repo.path())
        .env("NO_COLOR", "1")
        .env("PROTOCOMPAT_TIMINGS", "1")
        .output()
        .expect("binary runs");
    assert_eq!(timed.status.code(), plain.status.code());
    assert_eq!(timed.stdout, plain.stdout);
    let stderr = String::from_utf8_lossy(&timed.stderr);
    for phase in ["open", "collect", "build", "analyze", "print"] {
        let line = format!("timing {phase} ");
        assert!(stderr.lines().any(|l| l.starts_with(&line)), "{stderr}");
    }
    assert!(!String::from_utf8_lossy(&plain.stderr).contains("timing "));
}
