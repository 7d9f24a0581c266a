//! An image input: a buf image or a protoc descriptor set (`FileDescriptorSet`, `.binpb` /
//! `.bin` / `.pb`), for builds (Bazel, protoc) that already produce one.
//!
//! The set is decoded with `prost-types` (no protoc at runtime) and each file is written back
//! as `.proto` text ([`decompile`]), which the normal pipeline then reads: one front end, one
//! model, whatever the input. That text is a reconstruction, so its positions are not the
//! user's: [`Tree::positions`] is false and `check` reports this side's findings at 1:1 of
//! each file, with a warning saying positions are unavailable.

mod decompile;

use std::collections::BTreeMap;
use std::path::Path;

use miette::{miette, Report};
use prost::Message as _;
use prost_types::FileDescriptorSet;

use super::{is_within, normalize, Tree};

/// File extensions read as images.
const IMAGE_EXTENSIONS: [&str; 3] = ["binpb", "bin", "pb"];

/// Whether `path` names an image: an existing file with an image extension (or `.json`,
/// which is refused with a precise error when opened).
pub fn is_image(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    path.is_file() && (IMAGE_EXTENSIONS.contains(&ext) || ext == "json")
}

/// The files of an image, as `.proto` text keyed by their paths in the set.
pub struct ImageTree {
    label: String,
    files: BTreeMap<String, String>,
}

impl ImageTree {
    /// Reads and decodes the image at `path`; `label` names it in diagnostics.
    pub fn open(path: &Path, label: &str) -> Result<ImageTree, Report> {
        if path.extension().is_some_and(|e| e == "json") {
            return Err(miette!(
                help = "write a binary image instead: `buf build -o image.binpb`, or \
                        `protoc --include_imports --descriptor_set_out=image.binpb ...`",
                "{label}: JSON images are not supported"
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| miette!("{label}: cannot read: {e}"))?;
        let set = FileDescriptorSet::decode(bytes.as_slice()).map_err(|e| {
            miette!(
                help = "an image is a serialized google.protobuf.FileDescriptorSet (`buf build \
                        -o x.binpb`, `protoc --descriptor_set_out=x.binpb`)",
                "{label}: not a descriptor set: {e}"
            )
        })?;
        if set.file.is_empty() {
            return Err(miette!("{label}: the descriptor set holds no file"));
        }
        let mut files = BTreeMap::new();
        for file in &set.file {
            let name = normalize(file.name());
            let text = decompile::file(file).map_err(|why| miette!("{name} @ {label}: {why}"))?;
            if files.insert(name.clone(), text).is_some() {
                return Err(miette!("{label}: the descriptor set holds {name} twice"));
            }
        }
        Ok(ImageTree {
            label: label.to_string(),
            files,
        })
    }
}

impl Tree for ImageTree {
    fn label(&self) -> &str {
        &self.label
    }

    fn read(&self, path: &str) -> Result<Option<String>, Report> {
        Ok(self.files.get(&normalize(path)).cloned())
    }

    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report> {
        let dir = normalize(dir);
        let listed: Vec<String> = self
            .files
            .keys()
            .filter(|p| is_within(p, &dir))
            .cloned()
            .collect();
        Ok((dir.is_empty() || !listed.is_empty()).then_some(listed))
    }

    fn positions(&self) -> bool {
        false
    }
}

/// What `check` says about an image side.
pub fn positions_warning(label: &str) -> Report {
    miette!(
        severity = miette::Severity::Warning,
        "{label}: an image has no source positions, so findings on this side are reported at \
         1:1 of each file; custom options (extensions of the descriptor options) are not read \
         from it"
    )
}
