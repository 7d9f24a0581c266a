//! The well-known types and feature definitions bundled in the binary, so imports of
//! `google/protobuf/*.proto` resolve without include roots: the set protoc's include
//! directory ships. Texts come unmodified from the protobuf v36.0 release (tag v36.0, commit
//! 3f17acbf7ffb; BSD-3-Clause, license header kept in each file; see `wkt/LICENSE-protobuf`):
//! `src/google/protobuf/`, except `java_features.proto`
//! (`java/core/src/main/resources/google/protobuf/`) and `go_features.proto`
//! (`go/google/protobuf/`).

use std::sync::{Arc, OnceLock};

use super::imports::{visible_files, Unit};
use super::input::SourceFile;
use super::lower::lower_file;
use super::symbols::{collect_symbols, file_package, Symbols};
use crate::model::File;
use crate::parse::{self, ParsedFile};

/// The bundled text of `google/protobuf/<name>.proto`, if we have it.
pub fn bundled(path: &str) -> Option<&'static str> {
    Some(match path {
        "google/protobuf/any.proto" => include_str!("wkt/google/protobuf/any.proto"),
        "google/protobuf/api.proto" => include_str!("wkt/google/protobuf/api.proto"),
        "google/protobuf/descriptor.proto" => include_str!("wkt/google/protobuf/descriptor.proto"),
        "google/protobuf/duration.proto" => include_str!("wkt/google/protobuf/duration.proto"),
        "google/protobuf/empty.proto" => include_str!("wkt/google/protobuf/empty.proto"),
        "google/protobuf/field_mask.proto" => include_str!("wkt/google/protobuf/field_mask.proto"),
        "google/protobuf/source_context.proto" => {
            include_str!("wkt/google/protobuf/source_context.proto")
        }
        "google/protobuf/struct.proto" => include_str!("wkt/google/protobuf/struct.proto"),
        "google/protobuf/timestamp.proto" => include_str!("wkt/google/protobuf/timestamp.proto"),
        "google/protobuf/type.proto" => include_str!("wkt/google/protobuf/type.proto"),
        "google/protobuf/wrappers.proto" => include_str!("wkt/google/protobuf/wrappers.proto"),
        "google/protobuf/cpp_features.proto" => {
            include_str!("wkt/google/protobuf/cpp_features.proto")
        }
        "google/protobuf/java_features.proto" => {
            include_str!("wkt/google/protobuf/java_features.proto")
        }
        "google/protobuf/go_features.proto" => {
            include_str!("wkt/google/protobuf/go_features.proto")
        }
        "google/protobuf/compiler/plugin.proto" => {
            include_str!("wkt/google/protobuf/compiler/plugin.proto")
        }
        _ => return None,
    })
}

/// A bundled file's text and syntax tree.
pub type Bundled = (Arc<str>, Arc<ParsedFile>);

/// The bundled file at `path` with its syntax tree, parsed once per process: every build
/// that imports a well-known type (thousands, when `audit` walks history) shares it.
pub fn bundled_parsed(path: &str) -> Option<Bundled> {
    static PARSED: OnceLock<Vec<OnceLock<Bundled>>> = OnceLock::new();
    let index = BUNDLED.iter().position(|p| *p == path)?;
    let slots = PARSED.get_or_init(|| BUNDLED.iter().map(|_| OnceLock::new()).collect());
    let (text, parsed) = slots[index].get_or_init(|| {
        let text: Arc<str> = Arc::from(bundled(path).expect("every BUNDLED path is bundled"));
        let parsed = Arc::new(parse::parse(&text));
        (text, parsed)
    });
    Some((Arc::clone(text), Arc::clone(parsed)))
}

/// Whether `text` is the bundled copy of `path` itself (not a file of the build that happens
/// to have the same name or bytes).
pub(super) fn is_bundled_copy(path: &str, text: &Arc<str>) -> bool {
    bundled_parsed(path).is_some_and(|(bundled, _)| Arc::ptr_eq(&bundled, text))
}

/// The package of descriptor.proto: every name it declares starts with it.
pub(super) const DESCRIPTOR_PACKAGE: &str = "google.protobuf";

/// Every bundled path, in the order of [`bundled`].
pub const BUNDLED: &[&str] = &[
    "google/protobuf/any.proto",
    "google/protobuf/api.proto",
    "google/protobuf/descriptor.proto",
    "google/protobuf/duration.proto",
    "google/protobuf/empty.proto",
    "google/protobuf/field_mask.proto",
    "google/protobuf/source_context.proto",
    "google/protobuf/struct.proto",
    "google/protobuf/timestamp.proto",
    "google/protobuf/type.proto",
    "google/protobuf/wrappers.proto",
    "google/protobuf/cpp_features.proto",
    "google/protobuf/java_features.proto",
    "google/protobuf/go_features.proto",
    "google/protobuf/compiler/plugin.proto",
];

/// The bundled descriptor.proto lowered into the model, once per process: the types of the
/// built-in options (`FileOptions`, `FeatureSet`, `ExtensionRangeOptions.Declaration`, ...)
/// for the checker that types custom options, so that both are checked by one checker.
/// Lowered on its own (it imports nothing), never validated: it is protobuf's own file.
pub(super) fn descriptor_model() -> &'static File {
    static MODEL: OnceLock<File> = OnceLock::new();
    MODEL.get_or_init(|| {
        let path = "google/protobuf/descriptor.proto";
        let (text, parsed) = bundled_parsed(path).expect("descriptor.proto is bundled");
        let source = SourceFile {
            path: path.to_string(),
            display_name: path.to_string(),
            text,
        };
        let units = vec![Unit::new(source, parsed)];
        let mut symbols = Symbols {
            paths: vec![path.to_string()],
            packages: vec![file_package(&units[0].parsed.ast).to_string()],
            lite: vec![false],
            ..Symbols::default()
        };
        let mut errors = Vec::new();
        collect_symbols(&units[0].parsed.ast, 0, &mut symbols, &mut errors);
        let visible = visible_files(&units, 0);
        let (file, errors, _, _) = lower_file(&units[0], (0, false), &visible, &symbols);
        debug_assert!(
            errors.is_empty(),
            "descriptor.proto lowers cleanly: {errors:?}"
        );
        file
    })
}

#[cfg(test)]
mod tests {
    use super::{bundled, BUNDLED};
    use crate::link::{build_schema, NoImports, SourceFile};

    /// The bundled set is exactly the files under `wkt/` (so adding one there without
    /// listing it, or the reverse, fails), and each one parses.
    #[test]
    fn the_bundled_set_is_the_wkt_folder_and_every_file_parses() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/link/wkt");
        let mut on_disk = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "proto") {
                    let relative = path.strip_prefix(&root).unwrap();
                    on_disk.push(relative.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        on_disk.sort();
        let mut listed: Vec<String> = BUNDLED.iter().map(|p| p.to_string()).collect();
        listed.sort();
        assert_eq!(listed, on_disk);
        assert_eq!(
            listed,
            [
                "google/protobuf/any.proto",
                "google/protobuf/api.proto",
                "google/protobuf/compiler/plugin.proto",
                "google/protobuf/cpp_features.proto",
                "google/protobuf/descriptor.proto",
                "google/protobuf/duration.proto",
                "google/protobuf/empty.proto",
                "google/protobuf/field_mask.proto",
                "google/protobuf/go_features.proto",
                "google/protobuf/java_features.proto",
                "google/protobuf/source_context.proto",
                "google/protobuf/struct.proto",
                "google/protobuf/timestamp.proto",
                "google/protobuf/type.proto",
                "google/protobuf/wrappers.proto",
            ]
        );
        for path in BUNDLED {
            let text = bundled(path).expect("bundled");
            let parsed = crate::parse::parse(text);
            assert!(parsed.errors.is_empty(), "{path}: {:?}", parsed.errors);
        }
    }

    /// Each bundled file also links: built as a compared file, with its imports bundled.
    #[test]
    fn every_bundled_file_links() {
        for path in BUNDLED {
            let source = SourceFile {
                path: path.to_string(),
                display_name: path.to_string(),
                text: std::sync::Arc::from(bundled(path).unwrap()),
            };
            if let Err(e) = build_schema(vec![source], &NoImports) {
                panic!("{path}: {:?}", e.diagnostics);
            }
        }
    }

    /// The lowered descriptor.proto has the options messages with their fields typed.
    #[test]
    fn descriptor_model_has_the_options_messages() {
        use crate::model::FieldType;
        let model = super::descriptor_model();
        let messages = model.all_messages();
        let features = messages
            .iter()
            .find(|m| m.full_name == "google.protobuf.FileOptions")
            .and_then(|m| m.fields.iter().find(|f| f.name == "features"))
            .expect("FileOptions.features");
        assert_eq!(features.ty, FieldType::Message);
        assert_eq!(
            features.type_name.as_deref(),
            Some("google.protobuf.FeatureSet")
        );
        assert!(messages
            .iter()
            .any(|m| m.full_name == "google.protobuf.ExtensionRangeOptions.Declaration"));
    }

    /// The protobuf release is v36.0: descriptor.proto has edition 2024's features and the
    /// extension ranges for language features on every options message.
    #[test]
    fn descriptor_proto_is_the_v36_release() {
        let text = bundled("google/protobuf/descriptor.proto").unwrap();
        assert!(text.contains("optional EnforceNamingStyle enforce_naming_style = 7"));
        assert!(text.contains("default_symbol_visibility"));
        assert_eq!(text.matches("extensions 990 to 998").count(), 9);
    }
}
