//! The renderers of `protocompat review`: text (people), Markdown (a pull-request
//! description) and JSON (docs/json.md, "review").

mod json;
mod markdown;
mod text;

use super::Style;
use crate::review::{Change, Class, Review};

/// What the review renderers need besides the review.
pub struct ReviewContext<'a> {
    /// The old side as the user named it (a revision or a directory).
    pub against: &'a str,
    /// What the new side is (`working tree`, a revision, `index`).
    pub new_label: &'a str,
    pub style: Style,
    /// Both sides' texts, for the text format's snippets (none: lines only).
    pub sources: Option<&'a crate::engine::Sources>,
    /// Prefixed to new-side and old-side paths in snippets, as `check`'s text format does.
    pub new_prefix: &'a str,
    pub old_prefix: &'a str,
}

/// The review formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewFormat {
    Text,
    Markdown,
    Json,
}

pub fn render(format: ReviewFormat, review: &Review, ctx: &ReviewContext) -> String {
    match format {
        ReviewFormat::Text => text::render(review, ctx),
        ReviewFormat::Markdown => markdown::render(review, ctx),
        ReviewFormat::Json => json::render(review),
    }
}

/// The verdict's name (`none` when nothing changed).
fn verdict_name(review: &Review) -> &'static str {
    review.verdict().map_or("none", Class::name)
}

/// "2 major, 1 minor, 3 patch" (classes without changes left out), or "no change".
fn counts_words(review: &Review) -> String {
    let (major, minor, patch) = review.counts();
    let parts: Vec<String> = [(major, "major"), (minor, "minor"), (patch, "patch")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, name)| format!("{n} {name}"))
        .collect();
    if parts.is_empty() {
        "no change".to_string()
    } else {
        format!(
            "{} change{}",
            parts.join(", "),
            super::plural(review.changes.len())
        )
    }
}

/// The changes by file, in order, each file's changes as they come.
fn by_file(review: &Review) -> Vec<(&str, Vec<&Change>)> {
    let mut out: Vec<(&str, Vec<&Change>)> = Vec::new();
    for change in &review.changes {
        match out.last_mut() {
            Some((path, list)) if *path == change.path => list.push(change),
            _ => out.push((&change.path, vec![change])),
        }
    }
    out
}

/// The distinct unstable-package notes of a file's changes.
fn unstable_notes<'a>(changes: &[&'a Change]) -> Vec<&'a str> {
    let mut notes: Vec<&str> = changes
        .iter()
        .filter_map(|c| c.unstable.as_deref())
        .collect();
    notes.dedup();
    notes
}

/// `line 7`, or `old line 7` for a removal (its line is on the old side).
fn line_words(change: &Change) -> String {
    match change.kind {
        crate::review::Kind::Removed => format!("old line {}", change.start_line),
        _ => format!("line {}", change.start_line),
    }
}
