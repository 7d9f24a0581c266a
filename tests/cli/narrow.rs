//! The narrowed build (`engine::narrow`): a check of a repository whose cache knows most
//! files built clean builds only the files that can give a finding or an error, with the
//! output of the full build (`PROTOCOMPAT_FULL_BUILD=1`). Real repositories in temporary
//! directories; what each check built is read from its `PROTOCOMPAT_NARROW_STATS` line.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::Repo;

/// One check's result: exit code, stdout, stderr without the narrowing line, and that line.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    built: String,
}

fn check(cwd: &Path, args: &[&str], full: bool) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_protocompat"));
    command
        .arg("check")
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("PROTOCOMPAT_NARROW_STATS", "1");
    if full {
        command.env("PROTOCOMPAT_FULL_BUILD", "1");
    }
    let out: Output = command.output().expect("binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (built, rest): (Vec<&str>, Vec<&str>) = stderr.lines().partition(|l| {
        l.starts_with("protocompat: narrowed build") || l.starts_with("protocompat: full build")
    });
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: rest.join("\n"),
        built: built.join("\n"),
    }
}

const STAGED: &[&str] = &["--staged", "--against", "HEAD", "--format", "json"];

/// A narrowed check and a full one of the same state give the same output; returns the
/// narrowed one.
fn same_as_full(cwd: &Path, args: &[&str]) -> Run {
    let narrowed = check(cwd, args, false);
    let full = check(cwd, args, true);
    assert_eq!(
        narrowed.code, full.code,
        "{}\n{}",
        narrowed.stderr, full.stderr
    );
    assert_eq!(narrowed.stdout, full.stdout);
    assert_eq!(narrowed.stderr, full.stderr);
    narrowed
}

/// The text summary without its elapsed time ("11 files checked in 5 ms.").
fn without_time(text: &str) -> String {
    text.lines()
        .map(|line| match line.find(" files checked in ") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// "narrowed build: A of B files @ old side, C of D @ new side" -> [A, B, C, D].
fn counts(line: &str) -> Vec<usize> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect()
}

fn service(n: usize) -> String {
    format!(
        "syntax = \"proto3\";\npackage acme.s{n}.v1;\nimport \"common/common.proto\";\n\
         message Request{n} {{ acme.common.Id id = 1; string name = 2; }}\n\
         service Service{n} {{ rpc Get(Request{n}) returns (Request{n}); }}\n"
    )
}

const COMMON: &str =
    "syntax = \"proto3\";\npackage acme.common;\nmessage Id { string value = 1; }\n";

/// Ten services importing one common file, committed; one check run to fill the cache.
fn services_repo() -> Repo {
    let repo = Repo::new();
    repo.write("common/common.proto", COMMON);
    for n in 0..10 {
        repo.write(&format!("s{n}/v1/service.proto"), &service(n));
    }
    repo.commit("services");
    let first = check(repo.path(), STAGED, false);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    repo
}

/// (a) A staged change to one leaf file builds that file and what it imports, and reports
/// what the full build reports (in every format's summary too: the files counted are all).
#[test]
fn a_staged_leaf_change_builds_the_leaf_and_its_imports_only() {
    let repo = services_repo();
    let text = service(3).replace(" string name = 2;", "");
    repo.write("s3/v1/service.proto", &text);
    repo.git(&["add", "-A"]);
    let run = same_as_full(repo.path(), STAGED);
    assert_eq!(run.code, Some(1));
    assert!(run.stdout.contains("FIELD_NO_DELETE"), "{}", run.stdout);
    assert_eq!(counts(&run.built), [2, 11, 2, 11], "{}", run.built);
    let text_args = ["--staged", "--against", "HEAD"];
    let narrowed = check(repo.path(), &text_args, false);
    let full = check(repo.path(), &text_args, true);
    assert_eq!(without_time(&narrowed.stdout), without_time(&full.stdout));
    assert!(
        narrowed.stdout.contains("11 files checked"),
        "{}",
        narrowed.stdout
    );
}

/// A check with no cache at all builds everything: the first one, and every one with
/// `PROTOCOMPAT_FULL_BUILD` set.
#[test]
fn the_first_check_builds_everything_and_fills_the_cache() {
    let repo = Repo::new();
    repo.write("common/common.proto", COMMON);
    repo.write("s0/v1/service.proto", &service(0));
    repo.commit("one");
    let first = check(repo.path(), STAGED, false);
    assert_eq!(counts(&first.built), [2, 2, 2, 2], "{}", first.built);
    assert!(repo.path().join(".git/protocompat/narrow.bin").is_file());
    let second = check(repo.path(), STAGED, false);
    assert_eq!(counts(&second.built), [0, 2, 0, 2], "{}", second.built);
    let full = check(repo.path(), STAGED, true);
    assert_eq!(full.built, "", "the full build does not narrow");
}

/// (b) A change in an imported file that changes how an unchanged importer resolves (a type
/// nearer in scope shadows the one it used) is caught with the cache warm.
#[test]
fn a_changed_import_that_shadows_a_type_of_an_unchanged_importer_is_caught() {
    let repo = Repo::new();
    let user = "syntax = \"proto3\";\npackage a.b;\nimport \"types.proto\";\n\
                message User { Thing t = 1; }\n";
    repo.write("user.proto", user);
    repo.write(
        "types.proto",
        "syntax = \"proto3\";\npackage a;\nmessage Thing {}\n",
    );
    repo.write(
        "other.proto",
        "syntax = \"proto3\";\npackage z;\nmessage Z {}\n",
    );
    repo.commit("types");
    check(repo.path(), STAGED, false);
    repo.write(
        "types.proto",
        "syntax = \"proto3\";\npackage a.b;\nmessage Thing {}\n",
    );
    repo.git(&["add", "-A"]);
    let run = same_as_full(repo.path(), STAGED);
    assert_eq!(run.code, Some(1));
    assert!(run.stdout.contains("FIELD_SAME_TYPE"), "{}", run.stdout);
    assert!(
        run.stdout.contains("\"path\": \"user.proto\""),
        "{}",
        run.stdout
    );
    // other.proto (package z, imports nothing changed) is not built.
    assert_eq!(counts(&run.built), [2, 3, 2, 3], "{}", run.built);
}

/// (c) A broken file that did not change fails the check on the first run (the full build)
/// and, as it never built clean, on every later run too, whatever else changed.
#[test]
fn an_unchanged_broken_file_fails_every_check() {
    let repo = Repo::new();
    repo.write("common/common.proto", COMMON);
    repo.write("s0/v1/service.proto", &service(0));
    let broken =
        "syntax = \"proto3\";\npackage broken.v1;\nmessage B { int32 a = 1; int32 b = 1; }\n";
    repo.write("broken/v1/broken.proto", broken);
    repo.commit("broken");
    let cold = check(repo.path(), STAGED, false);
    assert_eq!(cold.code, Some(2), "{}", cold.stderr);
    assert!(cold.stderr.contains("already used"), "{}", cold.stderr);
    for round in 0..2 {
        let text = service(0).replace(
            " string name = 2;",
            &format!(" string name = {};", 3 + round),
        );
        repo.write("s0/v1/service.proto", &text);
        repo.git(&["add", "-A"]);
        let warm = same_as_full(repo.path(), STAGED);
        assert_eq!(warm.code, Some(2), "{}", warm.stderr);
        assert!(warm.stderr.contains("already used"), "{}", warm.stderr);
    }
}

/// (d) A damaged cache file is not trusted: the check builds as if it were absent, with the
/// same output, and writes a valid one that the next check narrows with.
#[test]
fn a_corrupt_cache_is_rebuilt() {
    let repo = services_repo();
    let file = repo.path().join(".git/protocompat/narrow.bin");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    let text = service(3).replace(" string name = 2;", "");
    repo.write("s3/v1/service.proto", &text);
    repo.git(&["add", "-A"]);
    let rebuilt = same_as_full(repo.path(), STAGED);
    assert_eq!(
        counts(&rebuilt.built),
        [11, 11, 11, 11],
        "{}",
        rebuilt.built
    );
    assert!(std::fs::read(&file)
        .unwrap()
        .starts_with(b"protocompat-narw"));
    std::fs::write(&file, b"not a cache").unwrap();
    let again = same_as_full(repo.path(), STAGED);
    assert_eq!(counts(&again.built), [11, 11, 11, 11], "{}", again.built);
    let warm = same_as_full(repo.path(), STAGED);
    assert_eq!(counts(&warm.built), [2, 11, 2, 11], "{}", warm.built);
}

/// (e) Package rules read every file of a package: the last message of one file deleted
/// while another file of the package (unchanged) keeps its own is PACKAGE_MESSAGE_NO_DELETE
/// (buf compares only packages that still have a message), so the unchanged file is built.
#[test]
fn a_package_rule_sees_the_unchanged_files_of_the_package() {
    let repo = Repo::new();
    repo.write(
        "buf.yaml",
        "version: v2\nbreaking:\n  use:\n    - PACKAGE\n",
    );
    repo.write(
        "p/a.proto",
        "syntax = \"proto3\";\npackage p;\nmessage A {}\n",
    );
    repo.write(
        "p/b.proto",
        "syntax = \"proto3\";\npackage p;\nmessage B {}\n",
    );
    repo.write(
        "q/c.proto",
        "syntax = \"proto3\";\npackage q;\nmessage C {}\n",
    );
    repo.commit("packages");
    check(repo.path(), STAGED, false);
    repo.write(
        "p/a.proto",
        "syntax = \"proto3\";\npackage p;\nenum E { E_ZERO = 0; }\n",
    );
    repo.git(&["add", "-A"]);
    let run = same_as_full(repo.path(), STAGED);
    assert!(
        run.stdout.contains("PACKAGE_MESSAGE_NO_DELETE"),
        "{}",
        run.stdout
    );
    assert_eq!(counts(&run.built), [2, 3, 2, 3], "{}", run.built);
}

/// Ignore directives warn about every file of the new side (`silences nothing`): a file
/// holding one is built although nothing in it changed.
#[test]
fn unchanged_files_with_ignore_directives_still_warn() {
    let repo = services_repo();
    let directive = "// protocompat:ignore FIELD_NO_DELETE -- kept for the test\n";
    let s5 = service(5).replace("message Request5", &format!("{directive}message Request5"));
    repo.write("s5/v1/service.proto", &s5);
    repo.commit("directive");
    check(repo.path(), STAGED, false);
    let text = service(3).replace(" string name = 2;", "");
    repo.write("s3/v1/service.proto", &text);
    repo.git(&["add", "-A"]);
    let run = same_as_full(repo.path(), STAGED);
    assert!(run.stderr.contains("silences nothing"), "{}", run.stderr);
    assert_eq!(counts(&run.built), [3, 11, 3, 11], "{}", run.built);
}

/// The differential test: every rule case (and the direction pair, both ways) as a
/// repository with the old side committed and the new side staged, beside unchanged files
/// of another package that the narrowed build skips, gives the full build's output.
#[test]
fn rule_cases_give_the_full_build_output_when_narrowed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut cases: Vec<(std::path::PathBuf, std::path::PathBuf)> = vec![
        (root.join("direction/a"), root.join("direction/b")),
        (root.join("direction/b"), root.join("direction/a")),
    ];
    let mut names: Vec<_> = std::fs::read_dir(root.join("rules"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    names.sort();
    cases.extend(names.into_iter().map(|c| (c.join("old"), c.join("new"))));
    let ballast = [
        ("zz_ballast/one.proto", "syntax = \"proto3\";\npackage zz.ballast;\nmessage One { int32 a = 1; }\n"),
        ("zz_ballast/two.proto", "syntax = \"proto3\";\npackage zz.ballast.two;\nimport \"zz_ballast/one.proto\";\nmessage Two { zz.ballast.One one = 1; }\n"),
    ];
    let (mut compared, mut skipped) = (0, 0);
    for (old, new) in cases {
        let repo = Repo::new();
        copy_tree(&old, repo.path());
        for (path, text) in ballast {
            repo.write(path, text);
        }
        repo.commit("old");
        check(repo.path(), STAGED, false);
        for entry in std::fs::read_dir(repo.path()).unwrap().flatten() {
            if entry.file_name() != ".git" && entry.file_name() != "zz_ballast" {
                let path = entry.path();
                if path.is_dir() {
                    std::fs::remove_dir_all(path).unwrap();
                } else {
                    std::fs::remove_file(path).unwrap();
                }
            }
        }
        copy_tree(&new, repo.path());
        repo.git(&["add", "-A"]);
        let run = same_as_full(repo.path(), STAGED);
        let n = counts(&run.built);
        if n.len() == 4 && n[0] < n[1] && n[2] < n[3] {
            skipped += 1;
        }
        compared += 1;
    }
    assert!(compared >= 70, "only {compared} cases");
    assert!(
        skipped >= 50,
        "the ballast was skipped in only {skipped} of {compared} cases"
    );
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().flatten() {
        let rel = entry.path().strip_prefix(from).unwrap();
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
