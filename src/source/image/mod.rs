//! An image input: a buf image or a protoc descriptor set (`FileDescriptorSet`, `.binpb` /
//! `.bin` / `.pb`), for builds (Bazel, protoc) that already produce one.
//!
//! The set is decoded with `prost-types` (no protoc at runtime), what prost-types drops
//! (editions, custom options) is decoded apart from the same bytes ([`raw`], [`features`],
//! [`custom`]), and each file is written back as `.proto` text ([`decompile`]), which the
//! normal pipeline then reads: one front end, one model, whatever the input. A JSON image is
//! turned into the binary form first, so both read the same way. That text is a reconstruction, so its positions are not the
//! user's: [`Tree::positions`] is false, and `check` moves this side's findings to the
//! image's source info ([`Tree::original_span`]) when it has some, else to 1:1 of each file
//! with a warning saying positions are unavailable. Files that buf marked as imports resolve
//! names but are not listed as the module's.

mod custom;
mod decompile;
mod features;
mod raw;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use miette::{miette, Report};
use prost::Message as _;
use prost_types::FileDescriptorSet;

use super::{is_within, normalize, Tree};

/// File extensions read as images.
const IMAGE_EXTENSIONS: [&str; 3] = ["binpb", "bin", "pb"];

/// Whether `path` names an image: an existing file with an image extension, or `.json` (buf's
/// JSON image).
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
    files: BTreeMap<String, Arc<str>>,
    /// Files buf marked as imports (`ImageFileExtension.is_import`): dependencies of the
    /// module, there to resolve names, not compared (as `buf breaking --exclude-imports`).
    imports: HashSet<String>,
    /// For each file with source info, where its reconstructed lines came from.
    sources: HashMap<String, SourceMap>,
}

/// Traces a line of a reconstructed file to the user's: the descriptor path of the element
/// each line belongs to, and each path's span from the image's `SourceCodeInfo`.
struct SourceMap {
    origins: Vec<Vec<i32>>,
    parts: Vec<Vec<decompile::Part>>,
    /// 1-based (start line, start column, end line, end column exclusive).
    spans: HashMap<Vec<i32>, [u32; 4]>,
}

impl SourceMap {
    fn new(decompiled: decompile::Decompiled, info: &prost_types::SourceCodeInfo) -> SourceMap {
        let mut spans = HashMap::new();
        for location in &info.location {
            let one_based = |n: i32| u32::try_from(n).map_or(1, |n| n + 1);
            let span = match location.span[..] {
                [line, start, end] => [line, start, line, end],
                [start_line, start, end_line, end] => [start_line, start, end_line, end],
                _ => continue,
            };
            // The first location of a path is the element's; later ones (a second
            // `reserved` statement, say) do not replace it.
            spans
                .entry(location.path.clone())
                .or_insert(span.map(one_based));
        }
        SourceMap {
            origins: decompiled.origins,
            parts: decompiled.parts,
            spans,
        }
    }

    /// The user's span of what reconstructed `start`..`end` (1-based line, column) shows:
    /// a part of a declaration (a field's type, name, number, `json_name`) when the range
    /// is exactly that part, else the element the line belongs to.
    fn span_of(&self, start: (u32, u32), end: (u32, u32)) -> Option<[u32; 4]> {
        if start.0 == end.0 {
            let line = usize::try_from(start.0).ok()?.checked_sub(1)?;
            let part = self.parts.get(line).and_then(|parts| {
                parts
                    .iter()
                    .find(|(from, to, _)| (*from, *to) == (start.1, end.1))
            });
            if let Some((_, _, tag)) = part {
                let mut path = self.origins.get(line)?.clone();
                path.push(*tag);
                if let Some(span) = self.spans.get(&path) {
                    return Some(*span);
                }
            }
        }
        self.span_of_line(start.0)
    }

    /// The span of the element that reconstructed `line` (1-based) belongs to, or of the
    /// closest enclosing element that has one.
    fn span_of_line(&self, line: u32) -> Option<[u32; 4]> {
        let origin = self
            .origins
            .get(usize::try_from(line).ok()?.checked_sub(1)?)?;
        let mut path = origin.as_slice();
        loop {
            if let Some(span) = self.spans.get(path) {
                return Some(*span);
            }
            path = path.get(..path.len().checked_sub(2)?)?;
        }
    }
}

/// The part of buf's `buf.alpha.image.v1.Image` that a `FileDescriptorSet` lacks: each
/// file's `buf_extension` (field 8042 of `ImageFile`, which is otherwise a
/// `FileDescriptorProto`). prost-types skips it as an unknown field, so it is read apart.
#[derive(Clone, PartialEq, prost::Message)]
struct BufImage {
    #[prost(message, repeated, tag = "1")]
    file: Vec<BufImageFile>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct BufImageFile {
    #[prost(string, optional, tag = "1")]
    name: Option<String>,
    #[prost(message, optional, tag = "8042")]
    buf_extension: Option<BufImageFileExtension>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct BufImageFileExtension {
    #[prost(bool, optional, tag = "1")]
    is_import: Option<bool>,
}

/// A binary image: the descriptor set, and the files buf marked as imports.
fn binary_image(bytes: &[u8], label: &str) -> Result<(FileDescriptorSet, HashSet<String>), Report> {
    let set = FileDescriptorSet::decode(bytes).map_err(|e| {
        miette!(
            help = "an image is a serialized google.protobuf.FileDescriptorSet (`buf build \
                    -o x.binpb`, `protoc --descriptor_set_out=x.binpb`), or its JSON form \
                    (`buf build -o x.json`)",
            "{label}: not a descriptor set: {e}"
        )
    })?;
    Ok((set, buf_imports(bytes)))
}

/// A JSON image (`buf build -o x.json`: the image in protobuf's JSON mapping) in the binary
/// form, and the files buf marked as imports (its `bufExtension`, which descriptor.proto does
/// not define). Read twice through prost-reflect: once for the types, then against a pool
/// of descriptor.proto (with editions) and those types, so that custom options (`"[acme.v1.
/// audited]": true`) and editions fields are read too; a key neither defines is an error.
fn json_image(bytes: &[u8], label: &str) -> Result<(Vec<u8>, HashSet<String>), Report> {
    use prost_reflect::{DeserializeOptions, DynamicMessage};
    let not_an_image = |e: &dyn std::fmt::Display| {
        miette!(
            help = "a JSON image is what `buf build -o x.json` writes: a \
                    google.protobuf.FileDescriptorSet in protobuf's JSON mapping",
            "{label}: not a JSON image: {e}"
        )
    };
    let mut value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| not_an_image(&e))?;
    let mut imports = HashSet::new();
    for file in value["file"].as_array_mut().into_iter().flatten() {
        let Some(file) = file.as_object_mut() else {
            continue;
        };
        let extension = file.remove("bufExtension");
        if extension.is_some_and(|e| e["isImport"] == true) {
            imports.extend(file.get("name").and_then(|n| n.as_str()).map(normalize));
        }
    }
    let read = |pool: &prost_reflect::DescriptorPool, deny_unknown: bool| {
        let descriptor = pool
            .get_message_by_name("google.protobuf.FileDescriptorSet")
            .ok_or_else(|| not_an_image(&"google.protobuf.FileDescriptorSet is not defined"))?;
        let options = DeserializeOptions::new().deny_unknown_fields(deny_unknown);
        DynamicMessage::deserialize_with_options(descriptor, value.clone(), &options)
            .map_err(|e| not_an_image(&e))
    };
    let types = read(custom::descriptor_pool(), false)?
        .transcode_to::<FileDescriptorSet>()
        .map_err(|e| not_an_image(&e))?;
    let pool = custom::image_pool(&types).map_err(|e| miette!("{label}: {e}"))?;
    Ok((prost::Message::encode_to_vec(&read(&pool, true)?), imports))
}

/// The files of `bytes` (already decoded as a descriptor set) that buf marked as imports;
/// empty for a protoc descriptor set, whose files are all the module's.
fn buf_imports(bytes: &[u8]) -> HashSet<String> {
    let Ok(image) = BufImage::decode(bytes) else {
        return HashSet::new();
    };
    image
        .file
        .into_iter()
        .filter(|f| f.buf_extension.as_ref().and_then(|e| e.is_import) == Some(true))
        .map(|f| normalize(f.name()))
        .collect()
}

impl ImageTree {
    /// Reads and decodes the image at `path`; `label` names it in diagnostics.
    pub fn open(path: &Path, label: &str) -> Result<ImageTree, Report> {
        let bytes = std::fs::read(path).map_err(|e| miette!("{label}: cannot read: {e}"))?;
        let (bytes, json_imports) = match path.extension().is_some_and(|e| e == "json") {
            true => {
                let (binary, imports) = json_image(&bytes, label)?;
                (binary, Some(imports))
            }
            false => (bytes, None),
        };
        let (set, buf_imports) = binary_image(&bytes, label)?;
        let imports = json_imports.unwrap_or(buf_imports);
        if set.file.is_empty() {
            return Err(miette!("{label}: the descriptor set holds no file"));
        }
        let raw_files = raw::decode(&bytes).map_err(|e| miette!("{label}: {e}"))?;
        let mut custom_options =
            custom::read(&set, &raw_files).map_err(|e| miette!("{label}: {e}"))?;
        let mut files = BTreeMap::new();
        let mut sources = HashMap::new();
        for (file, raw_file) in set.file.iter().zip(&raw_files) {
            let name = normalize(file.name());
            let editions = features::of(raw_file).map_err(|e| miette!("{name} @ {label}: {e}"))?;
            let custom = custom_options.remove(file.name()).unwrap_or_default();
            let mut decompiled = decompile::file(file, &editions, &custom)
                .map_err(|why| miette!("{name} @ {label}: {why}"))?;
            let text = std::mem::take(&mut decompiled.text);
            if files.insert(name.clone(), Arc::from(text)).is_some() {
                return Err(miette!("{label}: the descriptor set holds {name} twice"));
            }
            if let Some(info) = file.source_code_info.as_ref() {
                if !info.location.is_empty() {
                    sources.insert(name, SourceMap::new(decompiled, info));
                }
            }
        }
        Ok(ImageTree {
            label: label.to_string(),
            files,
            imports,
            sources,
        })
    }

    /// Whether the image has source info (`buf build` by default, `protoc
    /// --include_source_info`), so its findings can be placed in the user's files.
    pub fn has_source_info(&self) -> bool {
        !self.sources.is_empty()
    }
}

impl Tree for ImageTree {
    fn label(&self) -> &str {
        &self.label
    }

    fn read(&self, path: &str) -> Result<Option<Arc<str>>, Report> {
        Ok(self.files.get(&normalize(path)).cloned())
    }

    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report> {
        let dir = normalize(dir);
        let listed: Vec<String> = self
            .files
            .keys()
            .filter(|p| is_within(p, &dir) && !self.imports.contains(*p))
            .cloned()
            .collect();
        Ok((dir.is_empty() || !listed.is_empty()).then_some(listed))
    }

    fn positions(&self) -> bool {
        false
    }

    fn original_span(&self, path: &str, start: (u32, u32), end: (u32, u32)) -> Option<[u32; 4]> {
        self.sources.get(&normalize(path))?.span_of(start, end)
    }
}

/// What `check` says about an image side: nothing when its findings can be placed by the
/// image's source info, else that they are reported at 1:1.
pub fn image_warning(label: &str, tree: &ImageTree) -> Option<Report> {
    (!tree.has_source_info()).then(|| positions_warning(label))
}

/// What `check` says about an image side without source info.
pub fn positions_warning(label: &str) -> Report {
    miette!(
        severity = miette::Severity::Warning,
        "{label}: an image has no source positions, so findings on this side are reported at \
         1:1 of each file"
    )
}
