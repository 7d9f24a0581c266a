//! What prost-types leaves out of an image, read all the same: custom options (extensions
//! of descriptor.proto's options messages) and editions, in binary and JSON images
//! (testdata/images/custom, testdata/images/editions, testdata/images/roundtrip; each
//! folder's README says how its images were made).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use protocompat::source::{ImageTree, Tree as _};

use crate::support;

fn images() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/images")
}

/// Each file of the image as the decompiler writes it back, but descriptor.proto and the
/// other well-known types (protoc's own, not the user's).
fn decompiled(image: &Path) -> BTreeMap<String, String> {
    let tree = ImageTree::open(image, "image").expect("the image opens");
    let paths = tree.list_protos("").unwrap().unwrap_or_default();
    paths
        .into_iter()
        .filter(|p| !p.starts_with("google/protobuf/"))
        .map(|p| {
            let text = tree.read(&p).unwrap().expect("listed");
            (p, text.to_string())
        })
        .collect()
}

fn run(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = support::run(dir, args);
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
        out.status.code().unwrap_or(-1),
    )
}

fn custom() -> PathBuf {
    images().join("custom")
}

/// `review --format json`'s changes, as JSON values.
fn review_changes(dir: &Path, new: &str, old: &str) -> Vec<serde_json::Value> {
    let (out, stderr, code) = run(dir, &["review", new, "--against", old, "--format", "json"]);
    assert_eq!(code, 0, "review {new} --against {old}: {stderr}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    json["changes"].as_array().expect("changes").clone()
}

/// Two revisions that differ only in custom options (on the file, a message, fields, a
/// oneof, an enum and its value, a service and a method; scalar, enum, bytes, repeated and
/// message values): the images give what the sources give, protoc's and buf's, binary and
/// JSON, lines placed by the source info. prost-types drops the options, so before they
/// were read the images gave no change at all.
#[test]
fn custom_options_in_images_give_what_the_sources_give() {
    let from_sources = review_changes(&custom(), "new", "old");
    let described: Vec<(&str, u64, &str)> = from_sources
        .iter()
        .map(|c| {
            (
                c["element"].as_str().unwrap(),
                c["start_line"].as_u64().unwrap(),
                c["description"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            ("acme/v1/order.proto", 7, "option `(acme.v1.owner)` `{ team: \"orders\" reviewers: \"ann\" reviewers: \"bob\" quotas {…` → `{ team: \"orders\" reviewers: \"ann\" reviewers: \"cy\" quotas { …`"),
            ("acme.v1.Order", 11, "option `(acme.v1.tier)` `TIER_GOLD` → `TIER_SILVER`"),
            ("acme.v1.Order.id", 13, "option `(acme.v1.tags)` `\"pk\"` → `\"id\"`"),
            ("acme.v1.Order.email", 14, "option `(acme.v1.weight)` `0.5` → `0.75`"),
            ("acme.v1.Status.STATUS_OPEN", 25, "option `(acme.v1.legacy_code)` `-7` → `-8`"),
            ("acme.v1.OrderService", 28, "option `(acme.v1.host)` removed (was `\"orders.acme.example\"`)"),
            ("acme.v1.OrderService.GetOrder", 31, "option `(acme.v1.timeout_ms)` `500` → `900`"),
        ]
    );
    for (new, old) in [
        ("new.binpb", "old.binpb"),
        ("buf-new.binpb", "buf-old.binpb"),
        ("buf-new.json", "buf-old.json"),
        ("buf-new.json", "old.binpb"),
    ] {
        assert_eq!(
            review_changes(&custom(), new, old),
            from_sources,
            "{new} --against {old}"
        );
        let (out, stderr, code) = run(&custom(), &["check", new, "--against", old]);
        assert_eq!(code, 0, "{new} --against {old}: {out}{stderr}");
        assert!(out.starts_with("No breaking changes"), "{out}");
        assert!(!stderr.contains("custom options"), "{stderr}");
    }
}

/// An image of a tree against the tree itself: no option of the user's files changes (the
/// image's descriptor.proto is compared too, as a protoc set marks no imports).
#[test]
fn an_image_keeps_the_custom_options_of_its_sources() {
    for (new, old) in [
        ("old", "old.binpb"),
        ("old.binpb", "old"),
        ("new", "buf-new.json"),
    ] {
        let options: Vec<serde_json::Value> = review_changes(&custom(), new, old)
            .into_iter()
            .filter(|c| c["element_kind"] == "option")
            .filter(|c| !c["path"].as_str().unwrap().starts_with("google/"))
            .collect();
        assert_eq!(
            options,
            Vec::<serde_json::Value>::new(),
            "{new} --against {old}"
        );
    }
}

fn protoc_available() -> bool {
    std::process::Command::new("python3")
        .args(["-m", "grpc_tools.protoc", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Every file under `dir`, by path relative to it.
fn files_under(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let path = entry.path().strip_prefix(dir).unwrap();
            let text = std::fs::read_to_string(entry.path()).unwrap();
            out.insert(path.to_string_lossy().replace('\\', "/"), text);
        }
    }
    out
}

/// Each file of a descriptor set but the well-known types, source info left out, as bytes
/// that keep the options' extensions (prost-reflect keeps unknown fields as read).
fn descriptors(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    use prost::Message as _;
    use prost_reflect::{DescriptorPool, DynamicMessage};
    let file = DescriptorPool::global()
        .get_message_by_name("google.protobuf.FileDescriptorProto")
        .unwrap();
    let set = prost_types::FileDescriptorSet::decode(bytes).unwrap();
    let raw = RawSet::decode(bytes).unwrap();
    set.file
        .iter()
        .zip(raw.file)
        .filter(|(f, _)| !f.name().starts_with("google/protobuf/"))
        .map(|(f, raw)| {
            let mut message = DynamicMessage::decode(file.clone(), raw.as_slice()).unwrap();
            message.clear_field_by_name("source_code_info");
            (f.name().to_string(), message.encode_to_vec())
        })
        .collect()
}

/// A `FileDescriptorSet` with each file kept as its bytes.
#[derive(Clone, PartialEq, prost::Message)]
struct RawSet {
    #[prost(bytes = "vec", repeated, tag = "1")]
    file: Vec<Vec<u8>>,
}

/// Images of the repository's testdata with custom options (testdata/images/roundtrip, each
/// from testdata/frontend or testdata/images/custom, built by protoc) read back as the
/// recorded `.proto` text, and protoc compiles that text to the image's descriptors, custom
/// options included (checked when protoc is installed; the recorded text is that verdict).
#[test]
fn images_of_the_testdata_with_custom_options_round_trip() {
    let protoc = protoc_available();
    let cases = std::fs::read_dir(images().join("roundtrip")).unwrap();
    let mut checked = 0;
    for case in cases {
        let case = case.unwrap().path();
        if !case.is_dir() {
            continue;
        }
        let image = case.join("image.binpb");
        let text = decompiled(&image);
        assert_eq!(text, files_under(&case.join("text")), "{}", case.display());
        assert!(
            text.values().any(|t| t.contains("(.")),
            "{}: no custom option",
            case.display()
        );
        checked += 1;
        if !protoc {
            continue;
        }
        let dir = support::tempdir();
        let back = dir.path().join("back.binpb");
        let out = std::process::Command::new("python3")
            .args(["-m", "grpc_tools.protoc"])
            .arg(format!("-I{}", case.join("text").display()))
            .arg(format!("--descriptor_set_out={}", back.display()))
            .args(text.keys())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            case.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            descriptors(&std::fs::read(&back).unwrap()),
            descriptors(&std::fs::read(&image).unwrap()),
            "{}",
            case.display()
        );
    }
    assert!(checked >= 9, "{checked} cases");
}

fn editions() -> PathBuf {
    images().join("editions")
}

/// An edition 2023 file inside a JSON image (`buf build -o x.json`): read as the binary
/// image is, editions fields and features included, on either side and mixed.
#[test]
fn editions_files_inside_json_images_read_as_in_binary_images() {
    for (new, against) in [("old", "buf-old.json"), ("buf-old.json", "old")] {
        let (out, stderr, code) = run(&editions(), &["check", new, "--against", against]);
        assert_eq!(code, 0, "{new} against {against}: {out}{stderr}");
        assert!(out.starts_with("No breaking changes"), "{out}");
    }
    let recorded = std::fs::read_to_string(editions().join("buf-breaking.json.out")).unwrap();
    for (new, old) in [
        ("buf-new.json", "buf-old.json"),
        ("buf-new.json", "old.binpb"),
        ("new.binpb", "buf-old.json"),
    ] {
        let (out, stderr, code) = run(
            &editions(),
            &["breaking", new, "--against", old, "--error-format", "json"],
        );
        assert_eq!(
            (out.as_str(), code),
            (recorded.as_str(), 100),
            "{new} {old}: {stderr}"
        );
    }
}

/// Writes the decompiled files of `PROTOCOMPAT_DUMP=image.binpb:out/` (for recording and
/// checking by hand).
#[test]
#[ignore = "a tool for recording testdata/images/roundtrip, run by hand"]
fn dump_decompiled_image() {
    let Ok(spec) = std::env::var("PROTOCOMPAT_DUMP") else {
        return;
    };
    let (image, out) = spec.split_once(':').expect("IMAGE:OUT");
    for (path, text) in decompiled(Path::new(image)) {
        let target = Path::new(out).join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, text).unwrap();
    }
}
