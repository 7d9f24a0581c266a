//! `review` as text: the verdict, then by file and element every change with its class,
//! and under it the findings that class it (their help included, as `check` shows it).

use std::fmt::Write as _;

use super::super::text::{paint, wrap};
use super::super::Style;
use super::{by_file, counts_words, unstable_notes, verdict_name, ReviewContext};
use crate::engine::severity;
use crate::review::{Change, Class, Review};

pub fn render(review: &Review, ctx: &ReviewContext) -> String {
    let mut out = String::new();
    let style = ctx.style;
    for (path, changes) in by_file(review) {
        let _ = writeln!(out, "{}", paint(style, "1", path));
        for note in unstable_notes(&changes) {
            let _ = writeln!(
                out,
                "  {} {note}; breaking changes there count as minor",
                paint(style, "36", "note:")
            );
        }
        for group in by_element(&changes) {
            let _ = writeln!(out, "  {}", element_heading(&group));
            for change in group {
                change_lines(&mut out, change, style);
            }
        }
        out.push('\n');
    }
    let commit = review
        .conventional_commit()
        .map_or(String::new(), |c| format!(", suggested commit type `{c}`"));
    let verdict = verdict_name(review);
    let _ = writeln!(
        out,
        "{}: {} against {} ({}){commit}",
        paint(
            style,
            class_colour(review.verdict()),
            &format!("Verdict {verdict}")
        ),
        counts_words(review),
        ctx.against,
        ctx.new_label
    );
    out
}

/// A file's changes in runs of one element each.
fn by_element<'a>(changes: &[&'a Change]) -> Vec<Vec<&'a Change>> {
    let mut out: Vec<Vec<&Change>> = Vec::new();
    for &change in changes {
        match out.last_mut() {
            Some(run) if run[0].element == change.element => run.push(change),
            _ => out.push(vec![change]),
        }
    }
    out
}

/// The element's name and kind (options, reservations, comments and imports belong to the
/// element they name, so they do not say what it is).
fn element_heading(run: &[&Change]) -> String {
    let kind = run
        .iter()
        .map(|c| c.element_kind)
        .find(|k| !matches!(*k, "option" | "reservation" | "comment" | "import"));
    match kind {
        Some(kind) => format!("{} ({kind})", run[0].element),
        None => run[0].element.clone(),
    }
}

fn change_lines(out: &mut String, change: &Change, style: Style) {
    let class = format!("{:<5}", change.class.name());
    let _ = writeln!(
        out,
        "    {} {:<7} {}: {}",
        paint(style, class_colour(Some(change.class)), &class),
        change.kind.name(),
        super::line_words(change),
        change.description
    );
    for f in &change.findings {
        let level = severity(f);
        let head = format!("{}[{}]", level.name(), f.rule);
        let colour = match level {
            crate::rules::Severity::Error => "31",
            crate::rules::Severity::Warning => "33",
            crate::rules::Severity::Info => "36",
        };
        let width = style.width.saturating_sub(12).max(40);
        let _ = writeln!(
            out,
            "          {} {}",
            paint(style, colour, &head),
            f.message
        );
        if let Some(help) = &f.help {
            for (i, line) in help.lines().flat_map(|l| wrap(l, width)).enumerate() {
                let lead = if i == 0 { "help:" } else { "     " };
                let _ = writeln!(out, "            {} {line}", paint(style, "36", lead));
            }
        }
    }
}

fn class_colour(class: Option<Class>) -> &'static str {
    match class {
        Some(Class::Major) => "1;31",
        Some(Class::Minor) => "1;33",
        Some(Class::Patch) => "1;32",
        None => "1",
    }
}
