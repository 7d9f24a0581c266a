//! `review` as text: the verdict, then by file and element every change with its class,
//! and under it the findings that class it (their help included, as `check` shows it).

use std::fmt::Write as _;

use super::super::text::{paint, review_snippets, who_breaks, wrap};
use super::super::Context;
use super::{by_file, counts_words, unstable_notes, verdict_name, ReviewContext};
use crate::engine::severity;
use std::collections::HashMap;

use crate::engine::Sources;
use crate::model::Span;
use crate::review::{Change, Class, Kind, Review, Shown};
use crate::source::SourceText;

pub fn render(review: &Review, ctx: &ReviewContext) -> String {
    let mut out = String::new();
    let style = ctx.style;
    let snippets = Context {
        sources: ctx.sources,
        style,
        against: ctx.against,
        new_prefix: ctx.new_prefix,
        old_prefix: ctx.old_prefix,
        ..Context::new("")
    };
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
                change_lines(&mut out, change, &snippets);
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

fn change_lines(out: &mut String, change: &Change, ctx: &Context) {
    let style = ctx.style;
    let class = format!("{:<5}", change.class.name());
    let _ = writeln!(
        out,
        "    {} {:<7} {}: {}",
        paint(style, class_colour(Some(change.class)), &class),
        change.kind.name(),
        super::line_words(change),
        change.description
    );
    if let Some(sources) = ctx.sources {
        let snippet = snippet(change, sources, ctx);
        for line in snippet.lines() {
            let _ = writeln!(out, "      {line}");
        }
    }
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
        let help = f.help.iter().map(|h| ("help:", h.clone()));
        let note = std::iter::once(("note:", who_breaks(f)));
        for (label, text) in help.chain(note) {
            for (i, line) in text.lines().flat_map(|l| wrap(l, width)).enumerate() {
                let lead = if i == 0 { label } else { "     " };
                let _ = writeln!(out, "            {} {line}", paint(style, "36", lead));
            }
        }
    }
}

/// A side of a change and the first line of its element; None for a whole file.
fn element_line<'a>(
    at: &'a Option<(String, Span)>,
    texts: &'a HashMap<String, SourceText>,
) -> Option<((&'a str, Span), &'a str)> {
    let (path, span) = at.as_ref()?;
    let text = texts.get(path)?.text();
    let whole = span.start == 0 && span.end as usize >= text.len();
    let start = (span.start as usize).min(text.len());
    let line = text[start..].lines().next().unwrap_or_default().trim_end();
    (!whole).then_some(((path.as_str(), *span), line))
}

/// The change's snippets: the new side where it is (an addition, a change), the old side
/// labelled with its revision where it was (a removal, what a change replaced). A side that
/// is the whole file (a file added or deleted, a package changed) or only the place of a
/// change made on the other side is left out, as is an old side that reads as the new one.
fn snippet(change: &Change, sources: &Sources, ctx: &Context) -> String {
    let new = element_line(&change.new_at, &sources.new).filter(|_| change.shown != Shown::Old);
    let old = element_line(&change.old_at, &sources.old).filter(|_| change.shown != Shown::New);
    let old = match (new, old) {
        (Some((_, new_line)), Some((_, old_line))) if new_line == old_line => None,
        (_, old) => old,
    };
    let labels = match change.kind {
        Kind::Added => ("added", ""),
        Kind::Removed => ("", "removed"),
        Kind::Renamed => ("renamed here", "was this"),
        Kind::Changed => ("changed here", "was this"),
    };
    review_snippets(ctx, new.map(|(at, _)| at), old.map(|(at, _)| at), labels)
}

fn class_colour(class: Option<Class>) -> &'static str {
    match class {
        Some(Class::Major) => "1;31",
        Some(Class::Minor) => "1;33",
        Some(Class::Patch) => "1;32",
        None => "1",
    }
}
