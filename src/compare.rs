//! Temporary shim: the old home of the diff and the findings, kept so `rules/` compiles
//! while it moves to `crate::diff` and `crate::finding`. Remove once both have landed.

pub use crate::diff::*;
pub use crate::finding::*;

/// Runs the given rules over a pair of schemas (see [`crate::engine::run_rules`]).
#[doc(hidden)]
pub fn run(
    old: &crate::model::Schema,
    new: &crate::model::Schema,
    rules: &[&'static crate::rules::RuleMeta],
) -> Vec<Finding> {
    crate::engine::run_rules(&Diff::new(old, new), rules)
}
