//! The linker: parsed files -> the schema model. Loads imports (compared files, include
//! roots, bundled well-known types), collects every file's symbols, resolves names with
//! protobuf's scoping, lowers each syntax tree into `crate::model`, computes effective
//! editions features, and validates the result as protoc does (a schema protoc refuses is
//! an error here too). Depends on `syntax`, `parse` and `model`.

mod build;
mod diagnostic;
mod features;
mod imports;
mod input;
mod lower;
mod replay;
mod resolve;
mod reuse;
mod symbols;
mod validate;
mod wkt;

pub use build::{
    build_parsed, build_parsed_reusing, build_schema, prepare_parsed, BuildError, BuildOutput,
    Prepared,
};
pub use imports::MissingImport;
pub use input::{ImportResolver, NoImports, SourceFile};
/// A float as protoc prints it in descriptors (`1e+20`, `0.1`, `inf`).
pub use lower::protoc_float;
pub use reuse::Reuse;
/// The text of a bundled well-known type, by import path.
pub use wkt::bundled as bundled_well_known_type;
/// The import paths resolved from the well-known types bundled in the binary.
pub use wkt::BUNDLED as BUNDLED_WELL_KNOWN_TYPES;

#[cfg(test)]
mod tests;
