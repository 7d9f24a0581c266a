//! protocompat: finds breaking changes between two revisions of a Protocol Buffers schema.
//!
//! The pipeline, one module per stage:
//! `source` (read files at a revision) -> `parse` (syntax tree) -> `model` (resolved schema)
//! -> `compare` (pair old and new elements) -> `rules` (one handler per rule) -> `report`.
//!
//! [`check`] runs the whole pipeline; the CLI and the integration tests use it.

// No `unsafe` anywhere: the fuzzers rely on Rust's own checks instead of a sanitizer.
#![forbid(unsafe_code)]

mod check;
pub mod compare;
pub mod config;
pub mod fix;
pub mod history;
pub mod ignore;
pub mod link;
pub mod model;
pub mod parse;
pub mod report;
pub mod rules;
pub mod source;
pub mod syntax;
#[cfg(test)]
mod test_support;

pub use check::{check, CheckOptions, Error, NewSide, Outcome};
