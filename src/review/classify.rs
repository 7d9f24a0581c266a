//! Classes, the verdict and the conventional-commit type.
//!
//! A change is `major` when a finding of severity error (under the configured categories)
//! is about it, else its own class: additions and visible changes `minor`; comments, layout,
//! reservations and options no generator reads `patch`. In an unstable package a would-be
//! major change is `minor`: buf's `ignore_unstable_packages` skips breaking changes there,
//! and Google's versioning guide (AIP-181, AIP-185) lets alpha and beta channels break;
//! SemVer's major version zero (`v0`) allows anything.

use super::{element, Change, Class, Kind, Review};
use crate::config::is_unstable_package;
use crate::engine::severity;
use crate::rules::Severity;

pub fn class(change: &mut Change) {
    let breaks = change
        .findings
        .iter()
        .any(|f| severity(f) == Severity::Error);
    change.unstable = unstable_reason(&change.package);
    change.class = match (breaks, &change.unstable) {
        (true, None) => Class::Major,
        (true, Some(_)) => {
            change
                .description
                .push_str(" (breaking, allowed: the package is unstable)");
            Class::Minor.max(change.base)
        }
        (false, _) => change.base,
    };
}

/// The elements of a deleted file go with it: their removal is as major as the file's (the
/// rules report the file once, not every message in it).
pub fn with_their_file(changes: &mut [Change]) {
    let major_removed_files: std::collections::HashSet<String> = changes
        .iter()
        .filter(|c| c.kind == Kind::Removed && c.element_kind == "file" && c.class == Class::Major)
        .map(|c| c.path.clone())
        .collect();
    for change in changes.iter_mut() {
        let in_removed_file = change.kind == Kind::Removed
            && change.element_kind != "file"
            && major_removed_files.contains(&change.path);
        if in_removed_file && change.class < Class::Major {
            change.class = Class::Major;
            change.description.push_str(" with its file");
        }
    }
}

/// Whether the package's last component is an unstable version.
pub fn is_unstable(package: &str) -> bool {
    unstable_reason(package).is_some()
}

/// Why breaking changes are allowed in this package, if they are.
pub fn unstable_reason(package: &str) -> Option<String> {
    let last = package.rsplit('.').next().unwrap_or_default();
    if is_unstable_package(package) {
        return Some(format!(
            "unstable package `{package}`: `{last}` is an alpha, beta or test version \
             (buf's ignore_unstable_packages; AIP-181/185 let such channels break)"
        ));
    }
    let zero = last
        .strip_prefix("v0")
        .is_some_and(|rest| rest.is_empty() || !rest.starts_with(|c: char| c.is_ascii_digit()));
    (zero && package.contains('.')).then(|| {
        format!(
            "unstable package `{package}`: major version zero (`{last}`) may change in any \
             way (SemVer; AIP-185)"
        )
    })
}

/// Options that change nothing on the wire, in JSON or in generated code: custom options
/// (`(acme.foo)`: only plugins that read them care) and the descriptor-only ones. Every
/// other built-in option (`deprecated`, `java_package`, `packed`, `features.*`, ...)
/// changes generated code or encoding: minor.
pub fn option_class(name: &str) -> Class {
    const NO_EFFECT: &[&str] = &[
        "retention",
        "targets",
        "debug_redact",
        "edition_defaults",
        "feature_support",
        "verification",
        "declaration",
        "uninterpreted_option",
    ];
    if name.starts_with('(') || NO_EFFECT.contains(&name) {
        Class::Patch
    } else {
        Class::Minor
    }
}

/// `feat!` for a major release, `feat` for a minor one; for a patch `docs` when only doc
/// comments changed, `fix` when reservations were added (they guard deleted numbers and
/// names), else `refactor`.
pub fn conventional_commit(review: &Review) -> Option<&'static str> {
    let only = |kind: &str| review.changes.iter().all(|c| c.element_kind == kind);
    Some(match review.verdict()? {
        Class::Major => "feat!",
        Class::Minor => "feat",
        Class::Patch if only(element::COMMENT) => "docs",
        Class::Patch
            if review
                .changes
                .iter()
                .any(|c| c.element_kind == element::RESERVATION) =>
        {
            "fix"
        }
        Class::Patch => "refactor",
    })
}
