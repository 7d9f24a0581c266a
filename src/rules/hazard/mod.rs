//! protocompat's own category `HAZARD`: changes that buf accepts (or does not look at) and
//! that still change values: the proto3 zero-default trap, presence, zigzag and fixed-width
//! swaps, integer reinterpretation, string/bytes, closed enums, and a tag-size hint. On by
//! default in every configuration, severity warning (two are info), so they never change the
//! exit code unless `--fail-on warning`.

pub(super) mod enum_values;
pub(super) mod integers;
pub(super) mod presence;
pub(super) mod string_bytes;
pub(super) mod tag_size;

mod added;
mod encoding;
