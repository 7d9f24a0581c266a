//! The config's `ignore`, `ignore_only` and `ignore_unstable_packages`.

use crate::config::{is_unstable_package, Selection};
use crate::finding::{Finding, Location};
use crate::model::Schema;
use crate::source::is_within;

/// Whether the config ignores a finding: buf drops it when either of its locations is
/// ignored.
pub fn ignored_by_config(f: &Finding, sel: &Selection, new: &Schema, old: &Schema) -> bool {
    let at = |loc: &Location, schema: &Schema| {
        let path = loc.path.as_str();
        sel.ignore.iter().any(|p| is_within(path, p))
            || sel
                .ignore_only
                .get(f.rule)
                .is_some_and(|ps| ps.iter().any(|p| is_within(path, p)))
            || (sel.ignore_unstable_packages
                && schema
                    .files
                    .get(path)
                    .is_some_and(|file| is_unstable_package(&file.package)))
    };
    f.location.as_ref().is_some_and(|l| at(l, new))
        || f.previous.as_ref().is_some_and(|l| at(l, old))
}
