//! Image inputs: protoc descriptor sets (testdata/images, made as its README says) on either
//! side. An image is written back as .proto text and read by the normal front end; its
//! positions are not the user's, so its side's findings are at 1:1 and a warning says so.

use std::path::{Path, PathBuf};

use crate::support;

fn images() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/images")
}

fn run(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = support::run(dir, args);
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
        out.status.code().unwrap_or(-1),
    )
}

const POSITIONS: &str = "an image has no source positions";

#[test]
fn two_images_give_what_buf_gives() {
    let (out, stderr, code) = run(
        &images(),
        &[
            "breaking",
            "new.binpb",
            "--against",
            "old.binpb",
            "--error-format",
            "json",
        ],
    );
    assert_eq!(code, 100, "{stderr}");
    let recorded = std::fs::read_to_string(images().join("buf-breaking.json.out")).unwrap();
    assert_eq!(out, recorded);
    assert!(
        stderr.contains(&format!("new.binpb: {POSITIONS}")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("old.binpb: {POSITIONS}")),
        "{stderr}"
    );
}

#[test]
fn a_directory_against_an_image_finds_what_two_directories_find() {
    let integrations = images().join("../integrations");
    let (code, against_image, _) =
        support::check_json(&integrations, &["new", "--against", "../images/old.binpb"]);
    let (_, against_dir, _) = support::check_json(&integrations, &["new", "--against", "old"]);
    assert_eq!(code, 1);
    let rules = |findings: &[support::Finding]| {
        let mut r: Vec<(String, Option<String>, (u64, u64))> = findings
            .iter()
            .map(|f| (f.rule.clone(), f.path.clone(), f.start))
            .collect();
        r.sort();
        r
    };
    // New-side positions are the user's on both; only the old side is the image.
    assert_eq!(rules(&against_image), rules(&against_dir));
    let deleted = against_image
        .iter()
        .find(|f| f.rule == "FILE_NO_DELETE")
        .expect("FILE_NO_DELETE");
    assert_eq!(
        deleted.previous_path.as_deref(),
        Some("acme/v1/legacy.proto")
    );
}

#[test]
fn the_new_side_of_an_image_is_reported_at_1_1() {
    let (out, _, code) = run(
        &images(),
        &[
            "check",
            "new.binpb",
            "--against",
            "old.binpb",
            "--format",
            "short",
        ],
    );
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "acme/v1/order.proto:1:1: error[FIELD_SAME_TYPE]: Field \"2\" with name \"status\""
        ),
        "{out}"
    );
}

#[test]
fn a_rich_image_reads_back_as_the_schema_it_was_built_from() {
    for (new, against) in [("rich", "rich.binpb"), ("rich.binpb", "rich")] {
        let (out, stderr, code) = run(&images(), &["check", new, "--against", against]);
        assert_eq!(code, 0, "{new} against {against}: {out}{stderr}");
        assert!(out.starts_with("No breaking changes"), "{out}");
    }
}

#[test]
fn changes_against_a_rich_image_are_found_as_buf_finds_them() {
    let dir = support::tempdir();
    let copy = dir.path().join("rich/acme/rich/v1");
    std::fs::create_dir_all(&copy).unwrap();
    for name in ["shapes.proto", "legacy.proto"] {
        let text = std::fs::read_to_string(images().join("rich/acme/rich/v1").join(name))
            .unwrap()
            .replace("ctype = CORD", "ctype = STRING_PIECE")
            .replace("jstype = JS_STRING, ", "")
            .replace("NO_SIDE_EFFECTS", "IDEMPOTENT")
            .replace("UNIT_INCH = 2", "UNIT_INCH = 3");
        std::fs::write(copy.join(name), text).unwrap();
    }
    let image = images().join("rich.binpb");
    let (code, findings, _) =
        support::check_json(dir.path(), &["rich", "--against", image.to_str().unwrap()]);
    assert_eq!(code, 1);
    // buf 1.75.0 reports exactly these four on the same pair.
    assert_eq!(
        support::brief(&findings),
        [
            "ENUM_VALUE_NO_DELETE acme/rich/v1/shapes.proto:35:3-43:4",
            "FIELD_SAME_CPP_STRING_TYPE acme/rich/v1/legacy.proto:18:29-18:49",
            "FIELD_SAME_JSTYPE acme/rich/v1/shapes.proto:22:3-22:37",
            "RPC_SAME_IDEMPOTENCY_LEVEL acme/rich/v1/shapes.proto:50:5-50:43",
        ]
    );
}

#[test]
fn what_is_not_a_readable_image_is_an_error() {
    let dir = support::tempdir();
    std::fs::write(dir.path().join("junk.binpb"), b"\xff\xff\xff not protobuf").unwrap();
    std::fs::write(dir.path().join("image.json"), b"{}").unwrap();
    std::fs::create_dir(dir.path().join("new")).unwrap();
    std::fs::write(dir.path().join("new/a.proto"), "syntax = \"proto3\";\n").unwrap();
    let stderr = support::check_fails(dir.path(), &["new", "--against", "junk.binpb"]);
    assert!(
        stderr.contains("junk.binpb: not a descriptor set"),
        "{stderr}"
    );
    let stderr = support::check_fails(dir.path(), &["new", "--against", "image.json"]);
    assert!(
        stderr.contains("image.json: JSON images are not supported"),
        "{stderr}"
    );
}
