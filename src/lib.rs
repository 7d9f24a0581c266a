//! protocompat: finds breaking changes between two revisions of a Protocol Buffers schema.
//!
//! The pipeline, one module per stage, each importing only the stages before it:
//! `source` (read files at a revision) -> `parse` (syntax tree) -> `model` (resolved schema)
//! -> `diff` (pair old and new elements once) -> `rules` (one handler per rule) -> `passes`
//! (ignores, grouping by cause, `--fix` edits) -> `engine` (what every command calls) ->
//! `report` (rendering only). [`finding`] is the data every stage after the diff shares.
//!
//! [`check`] runs the whole pipeline; the CLI and the integration tests use it.

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

pub use check::{check, CheckOptions, Error, NewSide, Outcome};
