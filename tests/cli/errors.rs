//! Bad input: every case exits 2 with a message naming the revision and the path.

use crate::support;

use support::{check_fails, Repo};

const GOOD: &str =
    "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n}\n";

fn one_commit() -> Repo {
    let repo = Repo::new();
    repo.write("proto/acme/v1/order.proto", GOOD);
    repo.commit("c1");
    repo
}

fn assert_mentions(stderr: &str, parts: &[&str]) {
    for part in parts {
        assert!(stderr.contains(part), "stderr lacks {part:?}:\n{stderr}");
    }
}

#[test]
fn a_revspec_that_does_not_exist() {
    let repo = one_commit();
    let err = check_fails(repo.path(), &["proto", "--against", "no-such-branch"]);
    assert_mentions(&err, &["no-such-branch", "cannot be resolved"]);
}

#[test]
fn a_revspec_naming_a_blob() {
    let repo = one_commit();
    let spec = "HEAD:proto/acme/v1/order.proto";
    let err = check_fails(repo.path(), &["proto", "--against", spec]);
    assert_mentions(&err, &[spec, "blob"]);
}

/// ROOT created after the old revision (the first commit of a `schema/` directory, a
/// pre-commit hook with `args: [check, schema, --staged, --against, HEAD]`): every file is an
/// addition, so the check passes, saying why.
#[test]
fn root_absent_at_the_old_revision_means_every_file_is_new() {
    let repo = one_commit();
    repo.write("schema/a.proto", GOOD);
    repo.git(&["add", "-A"]);
    let out = support::run(
        repo.path(),
        &["check", "schema", "--staged", "--against", "HEAD"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_mentions(
        &stderr,
        &["schema @ HEAD", "ROOT does not exist", "every file is new"],
    );
    // Only the old side may lack ROOT: a new side without it is still an error.
    repo.commit("c2: a new root");
    let err = check_fails(
        repo.path(),
        &["nowhere", "--rev", "HEAD", "--against", "HEAD~1"],
    );
    assert_mentions(&err, &["nowhere @ HEAD", "ROOT does not exist"]);
}

#[test]
fn not_a_git_repository_when_a_revspec_is_given() {
    let dir = support::tempdir();
    std::fs::write(dir.path().join("a.proto"), GOOD).unwrap();
    let err = check_fails(dir.path(), &[".", "--against", "main"]);
    assert_mentions(&err, &["not a git repository", "`main`"]);
}

#[test]
fn a_file_that_is_not_utf8_on_either_side() {
    let repo = one_commit();
    repo.write_bytes(
        "proto/acme/v1/bad.proto",
        b"syntax = \"proto3\";\n// caf\xe9\n",
    );
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(
        &err,
        &["acme/v1/bad.proto @ working tree", "not valid UTF-8"],
    );
    repo.commit("c2: a latin-1 file");
    repo.remove("proto/acme/v1/bad.proto");
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["acme/v1/bad.proto @ HEAD", "not valid UTF-8"]);
}

#[test]
fn a_syntax_error_on_either_side() {
    let repo = one_commit();
    repo.write(
        "proto/acme/v1/order.proto",
        "syntax = \"proto3\";\n\nmessage Order {\n  string id = ;\n}\n",
    );
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["acme/v1/order.proto @ working tree"]);
    repo.commit("c2: broken");
    repo.write("proto/acme/v1/order.proto", GOOD);
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["acme/v1/order.proto @ HEAD"]);
}

#[test]
fn an_object_missing_from_the_object_database() {
    let repo = one_commit();
    let blob = repo
        .git(&["rev-parse", "HEAD:proto/acme/v1/order.proto"])
        .trim()
        .to_string();
    let loose = repo
        .path()
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(&loose).expect("the blob is a loose object");
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["acme/v1/order.proto @ HEAD", &blob]);
}

#[test]
fn a_buf_yaml_that_does_not_parse() {
    let repo = one_commit();
    repo.write("proto/buf.yaml", "version: v1\nbreaking:\n  use: [FILE\n");
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["buf.yaml @ working tree", "line"]);
}

#[test]
fn a_buf_yaml_with_an_unknown_key_or_rule() {
    let repo = one_commit();
    repo.write("proto/buf.yaml", "version: v1\nbreaking:\n  uses: [FILE]\n");
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["buf.yaml @ working tree", "uses"]);
    repo.write(
        "proto/buf.yaml",
        "version: v1\nbreaking:\n  use: [FIELD_NO_DELET]\n",
    );
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["FIELD_NO_DELET", "not a known rule or category"]);
}

#[test]
fn a_protocompat_toml_that_does_not_parse() {
    let repo = one_commit();
    repo.write("proto/protocompat.toml", "[breaking]\nuse = [\"FILE\"\n");
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["protocompat.toml @ working tree"]);
}

#[test]
/// An include root neither in the revision nor on disk. (One that git does not track but
/// that exists on disk, a git-ignored `buf export`, serves every revision: tests/cli/git.rs.)
fn an_include_root_absent_at_the_revision_and_on_disk() {
    let repo = one_commit();
    let args = [
        "proto",
        "-I",
        "vendor",
        "--rev",
        "HEAD",
        "--against",
        "HEAD",
    ];
    let err = check_fails(repo.path(), &args);
    assert_mentions(&err, &["vendor @ HEAD", "include root", "nor on disk"]);
}

#[test]
fn bad_arguments_exit_2() {
    let repo = one_commit();
    let out = support::run(repo.path(), &["check", "proto"]);
    assert_eq!(out.status.code(), Some(2), "--against is required");
    let out = support::run(
        repo.path(),
        &[
            "check",
            "proto",
            "--against",
            "HEAD",
            "--rev",
            "HEAD",
            "--staged",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "--rev and --staged conflict");
}

#[test]
fn a_path_that_matches_no_file_or_nothing_to_compare() {
    let repo = one_commit();
    let err = check_fails(
        repo.path(),
        &["proto", "--against", "HEAD", "--path", "acme/v2"],
    );
    assert_mentions(&err, &["--path acme/v2", "@ working tree or @ HEAD"]);
    let err = check_fails(
        repo.path(),
        &["proto", "--against", "HEAD", "--exclude-path", "acme"],
    );
    assert_mentions(&err, &["no .proto file to compare"]);
}

/// A stderr that cannot be written (`protocompat ... 2>&1 | head` once `head` has exited, a
/// full disk) leaves the exit code to the check: 2 for a file that does not parse, not the
/// 101 of a panic in `eprintln!`.
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_stderr_keeps_the_exit_code() {
    let repo = one_commit();
    repo.write(
        "proto/acme/v1/order.proto",
        "syntax = \"proto3\";\n\nmessage Order {\n  string id = ;\n}\n",
    );
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .current_dir(repo.path())
        .args(["check", "proto", "--against", "HEAD"])
        .stderr(full)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

/// Paths in errors are named from the working directory, as findings are: a parse error, a
/// missing import, a name that does not resolve, on the new side, an old revision and an old
/// directory, with the revision, whatever the output format.
#[test]
fn paths_in_errors_start_from_the_working_directory() {
    let repo = one_commit();
    repo.write("proto/buf.yaml", "version: v1\n");
    repo.commit("c2: a module at proto");
    let broken = [
        (
            "syntax = \"proto3\";\n\nmessage Order {\n  string id = ;\n}\n",
            "proto/acme/v1/order.proto @ working tree:4:15",
        ),
        (
            "syntax = \"proto3\";\nimport \"acme/v1/gone.proto\";\nmessage Order {}\n",
            "proto/acme/v1/order.proto @ working tree:2:1",
        ),
        (
            "syntax = \"proto3\";\nmessage Order {\n  Missing id = 1;\n}\n",
            "proto/acme/v1/order.proto @ working tree:3:3",
        ),
    ];
    for (text, shown) in broken {
        repo.write("proto/acme/v1/order.proto", text);
        for format in ["text", "json", "github", "sarif"] {
            let err = check_fails(
                repo.path(),
                &["proto", "--against", "HEAD", "--format", format],
            );
            assert_mentions(&err, &[&format!("╭─[{shown}]")]);
        }
    }
    // The old side: a revision of ROOT `proto`, and a directory beside it.
    repo.commit("c3: broken");
    repo.write("proto/acme/v1/order.proto", GOOD);
    let err = check_fails(repo.path(), &["proto", "--against", "HEAD"]);
    assert_mentions(&err, &["╭─[proto/acme/v1/order.proto @ HEAD:3:3]"]);
    let old = repo.path().join("old");
    std::fs::create_dir_all(old.join("acme/v1")).unwrap();
    std::fs::write(
        old.join("acme/v1/order.proto"),
        "syntax = \"proto3\";\nmessage Order {\n  string id = ;\n}\n",
    )
    .unwrap();
    let err = check_fails(&repo.path().join("proto"), &[".", "--against", "../old"]);
    assert_mentions(&err, &["╭─[../old/acme/v1/order.proto @ ../old:3:15]"]);
}
