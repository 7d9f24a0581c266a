//! protocompat: finds breaking changes between two revisions of a Protocol Buffers schema.
//!
//! The pipeline, one module per stage, each importing only the stages before it:
//! `source` (read files at a revision) -> `parse` (syntax tree) -> `model` (resolved schema)
//! -> `diff` (pair old and new elements once) -> `rules` (one handler per rule) -> `passes`
//! (ignores, grouping by cause, `--fix` edits) -> `engine` (what every command calls) ->
//! `report` (rendering only). [`finding`] is the data every stage after the diff shares.
//!
//! [`check`] runs the whole pipeline; the CLI and the integration tests use it. A second
//! front end (an editor, a build-system plugin) that has the files in hand builds each side
//! with [`link::build_schema`] and calls [`engine::analyze`]:
//!
//! ```
//! use protocompat::{config::Config, engine, link};
//!
//! let side = |text: &str| {
//!     let file = link::SourceFile {
//!         path: "shop.proto".into(),
//!         display_name: "shop.proto".into(),
//!         text: text.into(),
//!     };
//!     let built = link::build_schema(vec![file], &link::NoImports).expect("valid schema");
//!     engine::Build::whole(built.schema, built.imports)
//! };
//! let old = side("syntax = \"proto3\";\nmessage Order { int64 id = 1; string note = 2; }\n");
//! let new = side("syntax = \"proto3\";\nmessage Order { int64 id = 1; }\n");
//! let config = Config::from_buf_yaml("version: v2\nbreaking:\n  use: [FILE]\n", "buf.yaml")
//!     .expect("valid config");
//! let selection = config.select().expect("known rules");
//! let shown = |path: &str| path.to_string();
//! let naming = engine::Naming { new_label: "new", shown: &shown };
//! let analysis = engine::analyze(&old, &new, &selection, &naming);
//! let rules: Vec<&str> = analysis.findings.iter().map(|f| f.rule).collect();
//! assert_eq!(rules, ["FIELD_NO_DELETE"]);
//! ```

// No `unsafe` anywhere: the fuzzers rely on Rust's own checks instead of a sanitizer.
#![forbid(unsafe_code)]

mod check;
pub mod config;
pub mod diff;
pub mod direction;
pub mod engine;
pub mod finding;
pub mod history;
pub mod link;
pub mod model;
pub mod parse;
pub mod passes;
pub mod report;
pub mod review;
pub mod rules;
pub mod source;
pub mod syntax;
#[cfg(test)]
mod test_support;

pub use check::{check, check_with, CheckOptions, Error, NewSide, Outcome};
