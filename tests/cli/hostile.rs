//! Hostile input: each case runs the binary and requires the exact behaviour — a clear error
//! and exit 2, or the correct result — and never a panic. Expected columns were measured with
//! buf 1.75.0. The inputs fuzzing once broke are replayed at the end (`fuzz_regressions`).

use crate::support;

#[path = "../../fuzz/harness.rs"]
mod harness;

use std::path::Path;
use std::process::Output;

use support::{brief, check_json, run, Repo};
use tempfile::TempDir;

const OLD: &str = "syntax = \"proto3\";\npackage acme.v1;\nmessage M {\n  int32 x = 1;\n}\n";
const NEW: &str = "syntax = \"proto3\";\npackage acme.v1;\nmessage M {\n  string x = 1;\n}\n";

/// `old/` and `new/` trees in a temporary directory (paths relative to each side).
fn trees(old: &[(&str, &[u8])], new: &[(&str, &[u8])]) -> TempDir {
    let dir = support::tempdir();
    for (side, files) in [("old", old), ("new", new)] {
        for (path, bytes) in files {
            let full = dir.path().join(side).join(path);
            std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
            std::fs::write(full, bytes).expect("write");
        }
    }
    dir
}

/// Runs `check new --against old [ARGS]` in `dir`.
fn check(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["check", "new", "--against", "old"];
    all.extend_from_slice(args);
    run(dir, &all)
}

fn no_panic(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "the binary panicked:\n{stderr}"
    );
    stderr
}

/// The check fails with exit 2 and a message containing every part; returns stderr.
fn fails(dir: &Path, args: &[&str], parts: &[&str]) -> String {
    let out = check(dir, args);
    let stderr = no_panic(&out);
    assert_eq!(out.status.code(), Some(2), "expected exit 2:\n{stderr}");
    assert!(out.stdout.is_empty(), "a failed check prints no report");
    for part in parts {
        assert!(stderr.contains(part), "stderr lacks {part:?}:\n{stderr}");
    }
    stderr
}

/// The findings of `check new --against old`, as `RULE path:l:c-l:c`.
fn findings(dir: &Path) -> (i32, Vec<String>) {
    let (code, found, _) = check_json(dir, &["new", "--against", "old"]);
    (code, brief(&found))
}

/// A schema where only `new` differs from OLD at the text level.
fn against_old(new: &[u8]) -> TempDir {
    trees(&[("a.proto", OLD.as_bytes())], &[("a.proto", new)])
}

// ---- broken files ------------------------------------------------------------------------------

#[test]
fn a_truncated_file() {
    let dir = against_old(b"syntax = \"proto3\";\npackage acme.v1;\nmessage M {\n  int32 x = ");
    fails(
        dir.path(),
        &[],
        &["a.proto @ working tree", "found end of file"],
    );
}

#[test]
fn nul_bytes_in_a_proto_file() {
    let dir = against_old(b"syntax = \"proto3\";\0\0message M {}\0");
    fails(dir.path(), &[], &["a.proto @ working tree"]);
}

#[test]
fn binary_content_named_proto() {
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0".to_vec();
    elf.extend((0..=255u8).cycle().take(4096));
    let dir = against_old(&elf);
    fails(
        dir.path(),
        &[],
        &["a.proto @ working tree", "not valid UTF-8"],
    );
}

#[test]
fn invalid_utf8() {
    let dir = against_old(b"syntax = \"proto3\";\n// caf\xe9\nmessage M {}\n");
    fails(
        dir.path(),
        &[],
        &["a.proto @ working tree", "not valid UTF-8", "offset 25"],
    );
}

#[test]
fn a_git_lfs_pointer_instead_of_the_file() {
    let pointer = b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";
    let dir = against_old(pointer);
    let stderr = fails(
        dir.path(),
        &[],
        &["a.proto @ working tree", "Git LFS pointer", "git lfs pull"],
    );
    assert!(
        !stderr.contains("expected"),
        "not a syntax error:\n{stderr}"
    );
}

// ---- encodings and columns (buf's convention) ----------------------------------------------------

#[test]
fn a_utf8_bom_is_ignored_and_columns_count_after_it() {
    let dir = trees(
        &[(
            "a.proto",
            b"\xef\xbb\xbfmessage M { optional int32 x = 1; }\n",
        )],
        &[(
            "a.proto",
            b"\xef\xbb\xbfmessage M { optional string x = 1; }\n",
        )],
    );
    assert_eq!(
        findings(dir.path()),
        (1, vec!["FIELD_SAME_TYPE a.proto:1:22-1:28".to_string()])
    );
    let mut bom_new = b"\xef\xbb\xbf".to_vec();
    bom_new.extend_from_slice(NEW.as_bytes());
    let dir = against_old(&bom_new);
    assert_eq!(
        findings(dir.path()),
        (1, vec!["FIELD_SAME_TYPE a.proto:4:3-4:9".to_string()])
    );
}

#[test]
fn crlf_line_endings_and_lone_carriage_returns() {
    let dir = trees(
        &[("a.proto", b"syntax = \"proto3\";\r\npackage a;\r\nmessage M {\r\n  int32 x = 1;\r\n  int32 y = 2;\r\n}\r\n")],
        &[("a.proto", b"syntax = \"proto3\";\r\npackage a;\r\nmessage M {\r\n  string x = 1;\r\n  /* c\r\n */ string y = 2;\r\n}\r\n")],
    );
    assert_eq!(
        findings(dir.path()),
        (
            1,
            vec![
                "FIELD_SAME_TYPE a.proto:4:3-4:9".to_string(),
                "FIELD_SAME_TYPE a.proto:6:5-6:11".to_string()
            ]
        )
    );
    // Old Mac line endings: one line for buf, where a `\r` takes no column.
    let dir = trees(
        &[(
            "a.proto",
            b"syntax = \"proto3\";\rpackage a;\rmessage M {\r  int32 x = 1;\r}\r",
        )],
        &[(
            "a.proto",
            b"syntax = \"proto3\";\rpackage a;\rmessage M {\r  string x = 1;\r}\r",
        )],
    );
    assert_eq!(
        findings(dir.path()),
        (1, vec!["FIELD_SAME_TYPE a.proto:1:42-1:48".to_string()])
    );
}

#[test]
fn tabs_and_multibyte_characters_before_a_span() {
    let dir = trees(
        &[("a.proto", "syntax = \"proto3\";\npackage a;\nmessage M {\n\tint32 x = 1; /* é€😀 */ int32 y = 2;\n /* 中文 e\u{301} 🇫🇷 */ int32 z = 3;\n}\n".as_bytes())],
        &[("a.proto", "syntax = \"proto3\";\npackage a;\nmessage M {\n\tstring x = 1; /* é€😀 */ string y = 2;\n /* 中文 e\u{301} 🇫🇷 */ string z = 3;\n}\n".as_bytes())],
    );
    assert_eq!(
        findings(dir.path()),
        (
            1,
            vec![
                "FIELD_SAME_TYPE a.proto:4:30-4:36".to_string(),
                "FIELD_SAME_TYPE a.proto:4:5-4:11".to_string(),
                "FIELD_SAME_TYPE a.proto:5:18-5:24".to_string(),
            ]
        )
    );
}

// ---- size and shape ------------------------------------------------------------------------------

/// `count` messages of 20 int32 fields.
fn wide_schema(messages: usize, field_type: &str) -> String {
    let mut text = String::from("syntax = \"proto3\";\npackage big.v1;\n");
    for m in 0..messages {
        text.push_str(&format!("message M{m} {{\n"));
        for f in 1..=20 {
            text.push_str(&format!("  {field_type} field_{f} = {f};\n"));
        }
        text.push_str("}\n");
    }
    text
}

#[test]
fn a_50_mb_file_is_refused_with_the_documented_limit() {
    let big = wide_schema(110_000, "int32");
    assert!(big.len() > 50_000_000);
    let dir = against_old(big.as_bytes());
    fails(
        dir.path(),
        &[],
        &["a.proto @ working tree", "file is too large", "16777216"],
    );
}

#[test]
fn a_4_mb_file_is_compared() {
    let old = wide_schema(9_000, "int32");
    let new = old.replacen("int32 field_7 = 7;", "int64 field_7 = 7;", 1);
    let dir = trees(
        &[("a.proto", old.as_bytes())],
        &[("a.proto", new.as_bytes())],
    );
    assert_eq!(
        findings(dir.path()),
        (1, vec!["FIELD_SAME_TYPE a.proto:10:3-10:8".to_string()])
    );
}

#[test]
fn ten_thousand_levels_of_nesting_stop_at_the_parser_bound() {
    let depth = 10_000;
    let text = format!(
        "syntax = \"proto3\";\n{}{}\n",
        "message M {".repeat(depth),
        "}".repeat(depth)
    );
    let dir = against_old(text.as_bytes());
    fails(
        dir.path(),
        &[],
        &["nesting is too deep (more than 128 levels)"],
    );
}

#[test]
fn nesting_past_buf_s_limit_of_31_messages_is_an_error() {
    let nest = |depth: usize| {
        format!(
            "syntax = \"proto3\";\n{}{}\n",
            "message M {".repeat(depth),
            "}".repeat(depth)
        )
    };
    let dir = trees(
        &[("a.proto", nest(31).as_bytes())],
        &[("a.proto", nest(31).as_bytes())],
    );
    assert_eq!(findings(dir.path()), (0, Vec::new()));
    let dir = against_old(nest(32).as_bytes());
    fails(dir.path(), &[], &["nested 32 levels deep; at most 31"]);
}

/// `message M` with 100,000 fields (numbers 1 to 101,000 without the implementation's
/// 19000-19999 band) of type `ty`, those at the indexes `keep` accepts.
fn hundred_thousand_fields(ty: &str, keep: &dyn Fn(usize) -> bool) -> String {
    let numbers = (1..19_000u32).chain(20_000..101_001);
    let mut text = String::from("syntax = \"proto3\";\npackage big.v1;\nmessage M {\n");
    for (i, n) in numbers.enumerate().filter(|(i, _)| keep(*i)) {
        text.push_str(&format!("  {ty} f{i} = {n};\n"));
    }
    text.push_str("}\n");
    text
}

/// Runs the check with `rules` and returns (exit code, rule -> count).
fn count_findings(old: &str, new: &str, rules: &str) -> (i32, Vec<(String, usize)>) {
    let config = format!("version: v1\nbreaking:\n  use: [{rules}]\n");
    let dir = trees(
        &[("a.proto", old.as_bytes())],
        &[("a.proto", new.as_bytes()), ("buf.yaml", config.as_bytes())],
    );
    let (code, found, _) = check_json(dir.path(), &["new", "--against", "old"]);
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for f in found {
        *counts.entry(f.rule).or_default() += 1;
    }
    (code, counts.into_iter().collect())
}

#[test]
fn a_hundred_thousand_fields_in_one_message() {
    // Every field changes type (across wire groups): pairing by number must stay linear.
    let (code, counts) = count_findings(
        &hundred_thousand_fields("int32", &|_| true),
        &hundred_thousand_fields("sint32", &|_| true),
        "FIELD_SAME_TYPE, FIELD_WIRE_COMPATIBLE_TYPE",
    );
    assert_eq!(code, 1);
    assert_eq!(
        counts,
        vec![
            ("FIELD_SAME_TYPE".to_string(), 100_000),
            // int32 -> sint32: plain varint to zigzag, a HAZARD (on in every config).
            ("FIELD_VARINT_ENCODING_CHANGED".to_string(), 100_000),
            ("FIELD_WIRE_COMPATIBLE_TYPE".to_string(), 100_000)
        ]
    );
}

#[test]
fn fifty_thousand_fields_deleted_from_one_message() {
    let (code, counts) = count_findings(
        &hundred_thousand_fields("int32", &|_| true),
        &hundred_thousand_fields("int32", &|i| i % 2 == 1),
        "FIELD_NO_DELETE",
    );
    assert_eq!(code, 1);
    assert_eq!(counts, vec![("FIELD_NO_DELETE".to_string(), 50_000)]);
}

/// 100,000 declarations in one file, `each` writing the i-th.
fn hundred_thousand(each: &dyn Fn(usize) -> String) -> String {
    let mut text = String::from("syntax = \"proto3\";\npackage big.v1;\n");
    for i in 0..100_000 {
        text.push_str(&each(i));
    }
    text
}

#[test]
fn a_hundred_thousand_messages_renamed() {
    // All of one shape: rename detection hands out the new names in order instead of
    // comparing every old message with every new one.
    let (code, counts) = count_findings(
        &hundred_thousand(&|i| format!("message M{i} {{ int32 a = 1; }}\n")),
        &hundred_thousand(&|i| format!("message R{i} {{ int32 a = 1; }}\n")),
        "MESSAGE_NO_DELETE",
    );
    assert_eq!(code, 1);
    assert_eq!(counts, vec![("MESSAGE_NO_DELETE".to_string(), 100_000)]);
}

#[test]
fn fifty_thousand_rpcs_deleted_from_one_service() {
    let service = |keep: fn(usize) -> bool| {
        let rpcs: String = (0..100_000)
            .filter(|&i| keep(i))
            .map(|i| format!("  rpc R{i}(Q) returns (Q);\n"))
            .collect();
        format!("syntax = \"proto3\";\npackage big.v1;\nmessage Q {{}}\nservice S {{\n{rpcs}}}\n")
    };
    let (code, counts) = count_findings(
        &service(|_| true),
        &service(|i| i % 2 == 1),
        "RPC_NO_DELETE",
    );
    assert_eq!(code, 1);
    assert_eq!(counts, vec![("RPC_NO_DELETE".to_string(), 50_000)]);
}

// ---- imports and symbols -----------------------------------------------------------------------

/// The same files on both sides.
fn same(files: &[(&str, &str)]) -> TempDir {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    trees(&files, &files)
}

#[test]
fn an_import_cycle() {
    let dir = same(&[
        (
            "a.proto",
            "syntax = \"proto3\";\nimport \"b.proto\";\nmessage A { B b = 1; }\n",
        ),
        (
            "b.proto",
            "syntax = \"proto3\";\nimport \"a.proto\";\nmessage B { A a = 1; }\n",
        ),
    ]);
    fails(
        dir.path(),
        &[],
        &["import cycle: a.proto -> b.proto -> a.proto"],
    );
}

#[test]
fn a_file_importing_itself() {
    let dir = same(&[(
        "a.proto",
        "syntax = \"proto3\";\nimport \"a.proto\";\nmessage A { int32 x = 1; }\n",
    )]);
    fails(dir.path(), &[], &["import cycle: a.proto -> a.proto"]);
}

#[test]
fn an_unresolved_import_is_an_error_unless_allowed() {
    let old = "syntax = \"proto3\";\nimport \"missing/dep.proto\";\nmessage A { dep.D d = 1; int32 x = 2; }\n";
    let new = "syntax = \"proto3\";\nimport \"missing/dep.proto\";\nmessage A { dep.D d = 1; string x = 2; }\n";
    let dir = trees(
        &[("a.proto", old.as_bytes())],
        &[("a.proto", new.as_bytes())],
    );
    // Types from the missing file cannot be checked: no verdict, exit 2, on both sides.
    fails(
        dir.path(),
        &[],
        &[
            "import \"missing/dep.proto\" was not found",
            "a.proto @ working tree:2:1",
            "2 imports could not be found",
            "--allow-missing-imports",
        ],
    );
    // Accepted on request: a warning, and the rest is compared correctly.
    let out = check(dir.path(), &["--allow-missing-imports", "--format", "json"]);
    let stderr = no_panic(&out);
    assert!(
        stderr.contains("import \"missing/dep.proto\" was not found"),
        "{stderr}"
    );
    let (code, found, _) = check_json(
        dir.path(),
        &["new", "--against", "old", "--allow-missing-imports"],
    );
    assert_eq!(
        (code, brief(&found)),
        (1, vec!["FIELD_SAME_TYPE a.proto:3:26-3:32".to_string()])
    );
}

#[test]
fn two_files_declaring_the_same_symbol() {
    let dir = same(&[
        (
            "a.proto",
            "syntax = \"proto3\";\npackage p;\nmessage A { int32 x = 1; }\n",
        ),
        (
            "b.proto",
            "syntax = \"proto3\";\npackage p;\nmessage A { int32 y = 1; }\n",
        ),
    ]);
    fails(
        dir.path(),
        &[],
        &["b.proto @ working tree", "`p.A` is already defined"],
    );
}

// ---- numbers and literals ----------------------------------------------------------------------

fn one_file(text: &str) -> TempDir {
    same(&[("a.proto", text)])
}

#[test]
fn field_numbers_out_of_range_or_reserved_for_the_implementation() {
    for (number, message) in [
        ("0", "out of range"),
        ("536870912", "out of range"),
        ("19000", "reserved for the protobuf implementation"),
        ("19999", "reserved for the protobuf implementation"),
        ("-1", "field numbers must be positive"),
    ] {
        let dir = one_file(&format!(
            "syntax = \"proto3\";\nmessage M {{ int32 f = {number}; }}\n"
        ));
        fails(dir.path(), &[], &[message]);
    }
    for number in ["1", "18999", "20000", "536870911"] {
        let dir = one_file(&format!(
            "syntax = \"proto3\";\nmessage M {{ int32 f = {number}; }}\n"
        ));
        assert_eq!(findings(dir.path()), (0, Vec::new()), "{number}");
    }
}

#[test]
fn huge_number_literals() {
    for (text, message) in [
        (
            "syntax = \"proto3\";\nmessage M { int32 f = 99999999999999999999999999999999999999; }\n",
            "field number is out of range",
        ),
        (
            "syntax = \"proto3\";\nenum E { A = 0; B = 2147483648; }\n",
            "out of the int32 range",
        ),
        (
            "syntax = \"proto2\";\nmessage M { optional uint64 a = 1 [default = 18446744073709551616]; }\n",
            // Past u64 the literal is still a number (a valid float default); for uint64 it is
            // out of range.
            "default value 18446744073709551616 is out of range for `uint64`",
        ),
        (
            "syntax = \"proto2\";\nmessage M { optional int64 a = 1 [default = -9223372036854775809]; }\n",
            "out of range for `int64`",
        ),
        (
            "syntax = \"proto2\";\nmessage M { optional int32 a = 1 [default = 2147483648]; }\n",
            "out of range for `int32`",
        ),
        (
            "syntax = \"proto2\";\nmessage M { optional uint32 a = 1 [default = -1]; }\n",
            "out of range for `uint32`",
        ),
    ] {
        let dir = one_file(text);
        fails(dir.path(), &[], &[message]);
    }
    // A float literal past f64 is infinity, as in buf.
    let dir = one_file(
        "syntax = \"proto2\";\nmessage M { optional double a = 1 [default = 1e99999]; }\n",
    );
    assert_eq!(findings(dir.path()), (0, Vec::new()));
}

#[test]
fn default_values_of_the_wrong_type() {
    for (default, ty) in [
        ("0x10", "float"),
        ("0x10", "double"),
        ("1.5", "int32"),
        ("1", "bool"),
        ("\"x\"", "int64"),
        ("true", "string"),
    ] {
        let dir = one_file(&format!(
            "syntax = \"proto2\";\nmessage M {{ optional {ty} a = 1 [default = {default}]; }}\n"
        ));
        fails(dir.path(), &[], &["default"]);
    }
    let dir = one_file(
        "syntax = \"proto2\";\nmessage M {\n  optional float a = 1 [default = 16];\n  optional double b = 2 [default = 0777];\n  optional double c = 3 [default = inf];\n  optional float d = 4 [default = -inf];\n  optional int32 e = 5 [default = 0x7fffffff];\n  optional int32 f = 6 [default = -0x80000000];\n  optional bool g = 7 [default = true];\n  optional bytes h = 8 [default = \"\\377\"];\n}\n",
    );
    assert_eq!(findings(dir.path()), (0, Vec::new()));
}

#[test]
fn a_proto2_map_whose_enum_value_does_not_start_at_zero() {
    let dir = one_file(
        "syntax = \"proto2\";\nenum E { A = 1; B = 0; }\nmessage M { map<string, E> m = 1; }\n",
    );
    fails(dir.path(), &[], &["enum `E` cannot be a map value"]);
    let dir = one_file(
        "syntax = \"proto2\";\nenum E { B = 0; A = 1; }\nmessage M { map<string, E> m = 1; optional E e = 2; }\n",
    );
    assert_eq!(findings(dir.path()), (0, Vec::new()));
}

#[test]
fn a_string_with_every_escape_form() {
    // The same bytes written with every escape protobuf knows: no change.
    let plain = "syntax = \"proto3\";\noption java_package = \"\\a\\b\\f\\n\\r\\t\\v\\\\\\'\\\"\\?A\\u00e9\\U0001F600\\0\";\n";
    let escaped = "syntax = \"proto3\";\noption java_package = \"\\x07\\x08\\x0c\\x0a\\x0d\\x09\\x0b\\x5c\\x27\\x22\\x3f\\101\\xc3\\xa9\\360\\237\\230\\200\\000\";\n";
    let dir = trees(
        &[("a.proto", plain.as_bytes())],
        &[("a.proto", escaped.as_bytes())],
    );
    assert_eq!(findings(dir.path()), (0, Vec::new()));
    let other = escaped.replace("\\101", "\\102");
    let dir = trees(
        &[("a.proto", plain.as_bytes())],
        &[("a.proto", other.as_bytes())],
    );
    assert_eq!(
        findings(dir.path()),
        (
            1,
            vec!["FILE_SAME_JAVA_PACKAGE a.proto:2:1-2:102".to_string()]
        )
    );
    let dir = one_file("syntax = \"proto3\";\noption java_package = \"\\q\";\n");
    fails(dir.path(), &[], &["invalid escape sequence"]);
}

// ---- the working tree and git ------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn symlink_loops_in_the_working_tree_are_skipped() {
    let dir = against_old(NEW.as_bytes());
    let new = dir.path().join("new");
    std::os::unix::fs::symlink(".", new.join("self")).expect("symlink");
    std::os::unix::fs::symlink("../new", new.join("up")).expect("symlink");
    std::os::unix::fs::symlink("loop2.proto", new.join("loop1.proto")).expect("symlink");
    std::os::unix::fs::symlink("loop1.proto", new.join("loop2.proto")).expect("symlink");
    assert_eq!(
        findings(dir.path()),
        (1, vec!["FIELD_SAME_TYPE a.proto:4:3-4:9".to_string()])
    );
}

fn repo_with(files: &[(&str, &str)]) -> Repo {
    let repo = Repo::new();
    for (path, text) in files {
        repo.write(path, text);
    }
    repo.commit("c1");
    repo
}

/// Runs `check ARGS` in the repository and returns (exit code, findings).
fn check_repo(repo: &Repo, args: &[&str]) -> (i32, Vec<String>) {
    let (code, found, _) = check_json(repo.path(), args);
    (code, brief(&found))
}

fn fails_in(cwd: &Path, args: &[&str], parts: &[&str]) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    let out = run(cwd, &all);
    let stderr = no_panic(&out);
    assert_eq!(out.status.code(), Some(2), "expected exit 2:\n{stderr}");
    for part in parts {
        assert!(stderr.contains(part), "stderr lacks {part:?}:\n{stderr}");
    }
}

/// Submodules (gitlink entries) are not part of the compared tree: their files belong to
/// another repository, as for `buf breaking` against a git input without
/// `recurse_submodules`.
#[test]
fn a_submodule_is_skipped() {
    let repo = repo_with(&[("proto/a.proto", OLD)]);
    let commit = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    let gitlink = format!("160000,{commit},proto/vendor");
    repo.git(&["update-index", "--add", "--cacheinfo", &gitlink]);
    repo.git(&["commit", "-q", "-m", "c2: a submodule"]);
    repo.write("proto/a.proto", NEW);
    assert_eq!(
        check_repo(&repo, &["proto", "--against", "HEAD"]),
        (1, vec!["FIELD_SAME_TYPE a.proto:4:3-4:9".to_string()])
    );
    assert_eq!(
        check_repo(&repo, &["proto", "--against", "HEAD~1", "--rev", "HEAD"]),
        (0, Vec::new())
    );
}

#[test]
fn an_object_missing_from_a_shallow_clone() {
    let origin = repo_with(&[("proto/a.proto", OLD)]);
    origin.write("proto/a.proto", NEW);
    origin.commit("c2");
    let clone = support::tempdir();
    let url = format!("file://{}", origin.path().display());
    support::git_in(clone.path(), &["clone", "-q", "--depth", "1", &url, "c"]);
    let cwd = clone.path().join("c");
    fails_in(
        &cwd,
        &["proto", "--against", "HEAD~1"],
        &["HEAD~1", "cannot be resolved"],
    );
    assert_shallow_help(&cwd, &["proto", "--against", "HEAD~1"]);
}

/// A merge base beyond a shallow clone's depth: `origin/feature` and `main` were both fetched
/// one commit deep, their common commit was not.
#[test]
fn a_merge_base_missing_from_a_shallow_clone() {
    let origin = repo_with(&[("proto/a.proto", OLD)]);
    origin.git(&["checkout", "-q", "-b", "feature"]);
    origin.write("proto/b.proto", OLD);
    origin.commit("feature");
    origin.git(&["checkout", "-q", "main"]);
    origin.write("proto/a.proto", NEW);
    origin.commit("main");
    let clone = support::tempdir();
    let url = format!("file://{}", origin.path().display());
    support::git_in(
        clone.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-single-branch",
            &url,
            "c",
        ],
    );
    let cwd = clone.path().join("c");
    let args = ["proto", "--against", "origin/feature", "--merge-base"];
    fails_in(&cwd, &args, &["no merge base", "origin/feature"]);
    assert_shallow_help(&cwd, &args);
}

/// The error names the cure in GitHub Actions' terms (whitespace squashed: help text wraps).
fn assert_shallow_help(cwd: &Path, args: &[&str]) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    let out = run(cwd, &all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let squashed: String = stderr
        .split(|c: char| c.is_whitespace() || c == '│')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    for part in ["shallow clone", "git fetch --unshallow", "`fetch-depth: 0`"] {
        assert!(squashed.contains(part), "stderr lacks {part:?}:\n{stderr}");
    }
}

#[test]
fn an_object_missing_from_a_partial_clone() {
    let origin = repo_with(&[("proto/a.proto", OLD)]);
    origin.git(&["config", "uploadpack.allowFilter", "true"]);
    origin.write("proto/a.proto", NEW);
    origin.commit("c2");
    let clone = support::tempdir();
    let url = format!("file://{}", origin.path().display());
    support::git_in(
        clone.path(),
        &["clone", "-q", "--filter=blob:none", &url, "c"],
    );
    let cwd = clone.path().join("c");
    // The old blob was never fetched: the error names the file, the revision and the cure.
    fails_in(
        &cwd,
        &["proto", "--against", "HEAD~1"],
        &["a.proto @ HEAD~1", "partial or shallow clone"],
    );
}

#[test]
fn a_revspec_naming_a_blob() {
    let repo = repo_with(&[("proto/a.proto", OLD)]);
    fails_in(
        repo.path(),
        &["proto", "--against", "HEAD:proto/a.proto"],
        &["HEAD:proto/a.proto", "blob"],
    );
}

#[test]
fn an_empty_repository() {
    let repo = Repo::new();
    repo.write("proto/a.proto", OLD);
    fails_in(
        repo.path(),
        &["proto", "--against", "main"],
        &["the repository has no commits yet"],
    );
    // `--against HEAD` on the first commit (the pre-commit hook's case) has nothing to
    // break, and says so.
    let out = run(repo.path(), &["check", "proto", "--against", "HEAD"]);
    let stderr = no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("HEAD has no commit yet"), "{stderr}");
}

// ---- configuration -----------------------------------------------------------------------------

#[test]
fn configs_with_unknown_keys_or_wrong_types() {
    for (name, text, part) in [
        (
            "buf.yaml",
            "version: v1\nbreakin:\n  use: [FILE]\n",
            "breakin",
        ),
        (
            "buf.yaml",
            "version: v1\nbreaking:\n  use: FILE\n",
            "breaking.use",
        ),
        (
            "buf.yaml",
            "version: v1\nbreaking:\n  use: [{a: b}]\n",
            "breaking.use",
        ),
        ("buf.yaml", "version: v1\nbreaking: 5\n", "breaking"),
        ("buf.yaml", "version: 3\n", "version"),
        (
            "buf.yaml",
            "version: v1\nbreaking:\n  ignore_unstable_packages: maybe\n",
            "ignore_unstable_packages",
        ),
        ("buf.yaml", "version: v2\nmodules: 5\n", "modules"),
        (
            "buf.yaml",
            "version: v1\nbreaking:\n  use: [FILE]\n  use: [WIRE]\n",
            "duplicate",
        ),
        (
            "buf.yaml",
            "version: v1\nbreaking:\n  use: [1]\n",
            "not a known rule",
        ),
        ("buf.yaml", "\0", "buf.yaml"),
        (
            "protocompat.toml",
            "[breaking]\nuse = \"FILE\"\n",
            "protocompat.toml",
        ),
        (
            "protocompat.toml",
            "[breaking]\nusee = [\"FILE\"]\n",
            "usee",
        ),
        ("protocompat.toml", "[breaking\n", "protocompat.toml"),
    ] {
        let dir = trees(
            &[("a.proto", OLD.as_bytes())],
            &[("a.proto", OLD.as_bytes()), (name, text.as_bytes())],
        );
        fails(dir.path(), &[], &[part]);
    }
}

// ---- inputs that fuzzing once broke --------------------------------------------------------------

/// Replays every input under `testdata/fuzz-regressions/<target>/` through its harness.
#[test]
fn fuzz_regressions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz-regressions");
    type Harness = fn(&[u8]);
    let targets: [(&str, Harness); 4] = [
        ("parse", harness::parse_bytes),
        ("model", harness::build_files),
        ("compare", harness::compare_schemas),
        ("config", harness::load_config),
    ];
    for (target, run_one) in targets {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for entry in entries.flatten() {
            let bytes = std::fs::read(entry.path()).expect("read regression input");
            run_one(&bytes);
        }
    }
}
