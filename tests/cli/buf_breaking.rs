//! `protocompat breaking`, buf's command line: on testdata/integrations it prints what
//! buf 1.75.0 printed (recorded in testdata/integrations/buf-breaking/) and exits 100 as buf
//! does; with buf installed, also against buf live (skipped without it).

use std::path::{Path, PathBuf};
use std::process::Command;

const FORMATS: [&str; 6] = [
    "text",
    "json",
    "msvs",
    "github-actions",
    "junit",
    "gitlab-code-quality",
];

fn scenario() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/integrations")
}

fn breaking(dir: &Path, args: &[&str]) -> (String, i32) {
    let out = crate::support::run(dir, &[&["breaking"], args].concat());
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        out.status.code().unwrap_or(-1),
    )
}

/// buf's gitlab fingerprints hash an undocumented input: compared without them.
fn comparable(format: &str, out: &str) -> String {
    if format != "gitlab-code-quality" {
        return out.to_string();
    }
    let mut doc: serde_json::Value = serde_json::from_str(out).expect("gitlab JSON");
    for issue in doc.as_array_mut().expect("array") {
        issue["fingerprint"] = serde_json::Value::Null;
    }
    doc.to_string()
}

#[test]
fn every_error_format_prints_what_buf_printed_and_exits_100() {
    for format in FORMATS {
        let (out, code) = breaking(
            &scenario(),
            &["new", "--against", "old", "--error-format", format],
        );
        assert_eq!(code, 100, "{format}");
        let recorded =
            std::fs::read_to_string(scenario().join(format!("buf-breaking/{format}.out")))
                .expect("recorded output");
        assert_eq!(
            comparable(format, &out),
            comparable(format, &recorded),
            "{format}"
        );
    }
}

#[test]
fn no_finding_prints_nothing_and_exits_0() {
    for format in FORMATS {
        let (out, code) = breaking(
            &scenario(),
            &["old", "--against", "old", "--error-format", format],
        );
        assert_eq!((out.as_str(), code), ("", 0), "{format}");
    }
}

#[test]
fn the_default_format_is_bufs_text_and_bad_input_exits_1_as_buf() {
    let (out, code) = breaking(&scenario(), &["new", "--against", "old"]);
    assert_eq!(code, 100);
    assert!(
        out.starts_with("<input>:1:1:Previously present file \"acme/v1/legacy.proto\""),
        "{out}"
    );
    // buf 1.75.0: `Failure: could not clone ...` and exit 1 for a revision it cannot read.
    let (_, code) = breaking(&scenario(), &["new", "--against", "no-such-rev"]);
    assert_eq!(code, 1);
    let out = crate::support::run(
        &scenario(),
        &[
            "breaking",
            "new",
            "--against",
            "old",
            "--error-format",
            "sarif",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("buf's formats are"));
}

/// buf at the path the project installs it to, when present.
fn buf() -> Option<PathBuf> {
    let path = PathBuf::from("/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf");
    path.is_file().then_some(path)
}

#[test]
fn matches_buf_live_when_installed() {
    let Some(buf) = buf() else {
        eprintln!("buf is not installed: skipped (the recorded outputs are still compared)");
        return;
    };
    let home = tempfile::tempdir().expect("scratch HOME");
    for format in FORMATS {
        let theirs = Command::new(&buf)
            .current_dir(scenario())
            .env("HOME", home.path())
            .args([
                "breaking",
                "new",
                "--against",
                "old",
                "--error-format",
                format,
            ])
            .output()
            .expect("buf runs");
        let (ours, code) = breaking(
            &scenario(),
            &["new", "--against", "old", "--error-format", format],
        );
        assert_eq!(Some(code), theirs.status.code(), "{format}");
        assert_eq!(
            comparable(format, &ours),
            comparable(format, &String::from_utf8_lossy(&theirs.stdout)),
            "{format}"
        );
    }
}

#[test]
fn bufs_git_inputs_on_both_sides() {
    let repo = crate::support::Repo::new();
    let message =
        |fields: &str| format!("syntax = \"proto3\";\npackage acme;\nmessage A {{\n{fields}}}\n");
    repo.write(
        "proto/a.proto",
        &message("  string a = 1;\n  string b = 2;\n"),
    );
    repo.commit("one");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("proto/a.proto", &message("  string a = 1;\n"));
    repo.commit("two");
    repo.git(&["checkout", "-q", "-"]);
    let (out, code) = breaking(
        repo.path(),
        &[
            ".git#branch=feature,subdir=proto",
            "--against",
            ".git#ref=feature~1,subdir=proto",
            "--error-format",
            "json",
        ],
    );
    // buf 1.75.0 printed exactly this line, checked by hand on the same repository with
    // `--against '.git#branch=main,subdir=proto'` (the same commit as feature~1).
    assert_eq!(
        out,
        "{\"path\":\"proto/a.proto\",\"start_line\":3,\"start_column\":1,\"end_line\":5,\
         \"end_column\":2,\"type\":\"FIELD_NO_DELETE\",\"message\":\"Previously present field \
         \\\"2\\\" with name \\\"b\\\" on message \\\"A\\\" was deleted.\"}\n"
    );
    assert_eq!(code, 100);
}

#[test]
fn a_bad_command_line_exits_1_as_buf() {
    // buf: `unknown flag: --bogus`, exit 1. `check` keeps clap's 2.
    let out = crate::support::run(&scenario(), &["breaking", "new", "--bogus"]);
    assert_eq!(out.status.code(), Some(1));
    let out = crate::support::run(&scenario(), &["check", "new", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let out = crate::support::run(&scenario(), &["breaking", "--help"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn flags_protocompat_cannot_honour_are_errors_not_no_ops() {
    for (flag, said) in [
        ("--against-registry", "--against-registry is not supported"),
        ("--disable-symlinks", "--disable-symlinks is not supported"),
    ] {
        let out = crate::support::run(&scenario(), &["breaking", "new", "--against", "old", flag]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{flag}: {stderr}");
        assert!(stderr.contains(said), "{flag}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{flag}");
    }
}

/// A repository whose `main` has `proto/acme/v1/a.proto` (message A, fields 1 and 2) and
/// `proto/acme/v1/b.proto`, in a v2 module `proto`.
fn two_file_repo() -> crate::support::Repo {
    let repo = crate::support::Repo::new();
    repo.write(
        "proto/acme/v1/a.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nmessage A { int32 x = 1; string y = 2; }\n",
    );
    repo.write(
        "proto/acme/v1/b.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nmessage B {}\n",
    );
    repo.write("buf.yaml", "version: v2\nmodules:\n  - path: proto\n");
    repo.commit("one");
    repo
}

#[test]
fn a_side_that_does_not_compile_is_bufs_compile_entry_and_exit_100() {
    let repo = two_file_repo();
    repo.write(
        "proto/acme/v1/a.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nmessage A { int32 x = 1 }\n",
    );
    // buf 1.75.0 on this repository (`--against '.git#branch=main'`) printed the same entry
    // in each format, with its own wording (`unexpected `}` after definition`), and exited 100.
    let message = "expected `;` after field number, found `}`";
    let expected = [
        (
            "json",
            format!(
                "{{\"path\":\"proto/acme/v1/a.proto\",\"start_line\":3,\"start_column\":25,\
                 \"end_line\":3,\"end_column\":26,\"type\":\"COMPILE\",\"message\":\"{message}\"}}\n"
            ),
        ),
        ("text", format!("proto/acme/v1/a.proto:3:25:{message}\n")),
        (
            "github-actions",
            format!(
                "::error file=proto/acme/v1/a.proto,line=3,col=25,endLine=3,endColumn=26::{message}\n"
            ),
        ),
        (
            "msvs",
            format!("proto/acme/v1/a.proto(3,25) : error COMPILE : {message}\n"),
        ),
    ];
    for (format, printed) in expected {
        let out = crate::support::run(
            repo.path(),
            &[
                "breaking",
                "--against",
                ".git#branch=main",
                "--error-format",
                format,
            ],
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), printed, "{format}");
        assert_eq!(out.status.code(), Some(100), "{format}");
        // The full diagnostic, with the revision, stays on stderr.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("proto/acme/v1/a.proto @ working tree:3:25"),
            "{stderr}"
        );
    }
    // `check` keeps its own code for a check that could not be done.
    let out = crate::support::run(repo.path(), &["check", "--against", "main"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn limit_to_input_files_leaves_out_the_files_input_does_not_have() {
    let repo = two_file_repo();
    repo.remove("proto/acme/v1/b.proto");
    repo.write(
        "proto/acme/v1/a.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nmessage A { int32 x = 1; }\n",
    );
    let field = "proto/acme/v1/a.proto:3:1:Previously present field \"2\" with name \"y\" on \
                 message \"A\" was deleted.\n";
    let (out, code) = breaking(repo.path(), &["--against", ".git#branch=main"]);
    assert_eq!(
        out,
        format!("<input>:1:1:Previously present file \"acme/v1/b.proto\" was deleted.\n{field}")
    );
    assert_eq!(code, 100);
    // buf 1.75.0 printed only the field, as here, with `--limit-to-input-files`.
    let (out, code) = breaking(
        repo.path(),
        &["--against", ".git#branch=main", "--limit-to-input-files"],
    );
    assert_eq!((out.as_str(), code), (field, 100));
}

#[test]
fn a_configuration_that_does_not_parse_is_a_failure_not_a_compile_error() {
    // buf 1.75.0: `Failure: decode buf.yaml: ...` on stderr, nothing on stdout, exit 1.
    let repo = two_file_repo();
    repo.write("buf.yaml", "version: v2\nmodules: [\n");
    let out = crate::support::run(
        repo.path(),
        &[
            "breaking",
            "--against",
            ".git#branch=main",
            "--error-format",
            "json",
        ],
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(out.status.code(), Some(1));
}
