//! Image inputs: protoc descriptor sets and buf images (testdata/images, made as its READMEs
//! say) on either side. An image is written back as .proto text and read by the normal front
//! end; its positions are not the user's, so its side's findings are placed by the image's
//! source info when it has some, else at 1:1 with a warning saying so.

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
    // `{}` is an empty set in JSON; a JSON document of another shape is not an image.
    let stderr = support::check_fails(dir.path(), &["new", "--against", "image.json"]);
    assert!(
        stderr.contains("image.json: the descriptor set holds no file"),
        "{stderr}"
    );
    std::fs::write(dir.path().join("image.json"), b"{\"file\": 3}").unwrap();
    let stderr = support::check_fails(dir.path(), &["new", "--against", "image.json"]);
    assert!(stderr.contains("image.json: not a JSON image"), "{stderr}");
}

fn sourceinfo() -> PathBuf {
    images().join("sourceinfo")
}

/// buf's default image: source info, and the dependency module's file marked as an import.
#[test]
fn buf_images_keep_imports_out_and_place_findings_by_source_info() {
    let (out, stderr, code) = run(
        &sourceinfo(),
        &[
            "breaking",
            "buf-new.binpb",
            "--against",
            "buf-old.binpb",
            "--error-format",
            "json",
        ],
    );
    assert_eq!(code, 100, "{stderr}");
    // buf 1.75.0 with --exclude-imports (protocompat never compares imported files): the
    // change to the imported ext/money.proto is not reported, and every span is buf's.
    let recorded = std::fs::read_to_string(sourceinfo().join("buf-breaking.json.out")).unwrap();
    assert_eq!(out, recorded);
    assert!(!stderr.contains(POSITIONS), "{stderr}");
}

/// protoc's `--include_source_info`: the same spans; a descriptor set has no import
/// markers, so every file in it is compared, as buf does.
#[test]
fn protoc_sets_with_source_info_give_what_buf_gives() {
    let (out, stderr, code) = run(
        &sourceinfo(),
        &[
            "breaking",
            "protoc-new.binpb",
            "--against",
            "protoc-old.binpb",
            "--error-format",
            "json",
        ],
    );
    assert_eq!(code, 100, "{stderr}");
    let recorded =
        std::fs::read_to_string(sourceinfo().join("buf-breaking-protoc.json.out")).unwrap();
    assert_eq!(out, recorded);
}

/// Sources against an image with source info: every old-side location is where the same
/// comparison against the sources of that image puts it (only the path differs: the image
/// names its files as its module does), not 1:1.
#[test]
fn the_old_side_of_an_image_with_source_info_points_at_its_lines() {
    let previous = |against: &[&str]| {
        let args = [&["new/proto", "-I", "new/vendor", "--against"][..], against].concat();
        let (code, _, doc) = support::check_json(&sourceinfo(), &args);
        assert_eq!(code, 1, "{against:?}");
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let p = &f["previous"];
                format!(
                    "{} {}:{}-{}:{}",
                    f["rule"], p["start_line"], p["start_column"], p["end_line"], p["end_column"]
                )
            })
            .collect::<Vec<_>>()
    };
    let from_image = previous(&["buf-old.binpb"]);
    assert_eq!(from_image, previous(&["old/proto", "-I", "old/vendor"]));
    assert_eq!(
        from_image,
        [
            "\"FIELD_NO_DELETE\" 8:1-12:2",
            "\"FIELD_SAME_TYPE\" 9:3-9:8",
            "\"FIELD_SAME_JSON_NAME\" 9:3-9:16",
            "\"FIELD_SAME_JSON_NAME\" 10:3-10:23",
            "\"FIELD_SAME_NAME\" 10:13-10:18",
        ]
    );
}

/// `buf build -o x.json`: the same image in protobuf's JSON mapping gives the same findings,
/// import markers and source info included, on either side and mixed with a binary one.
#[test]
fn json_images_give_what_binary_images_give() {
    let recorded = std::fs::read_to_string(sourceinfo().join("buf-breaking.json.out")).unwrap();
    for (new, old) in [
        ("buf-new.json", "buf-old.json"),
        ("buf-new.json", "buf-old.binpb"),
        ("buf-new.binpb", "buf-old.json"),
    ] {
        let (out, stderr, code) = run(
            &sourceinfo(),
            &["breaking", new, "--against", old, "--error-format", "json"],
        );
        assert_eq!(
            (out.as_str(), code),
            (recorded.as_str(), 100),
            "{new} {old}: {stderr}"
        );
    }
}
