//! `--format text`: one miette diagnostic per root cause, like rustc's output.
//!
//! Each finding shows its rule id as the code, the new revision's snippet underlined at the
//! exact span, the old revision's snippet (a related diagnostic labelled with the revision),
//! and the fix. For a deletion the old snippet leads and the new side shows where the element
//! used to live. Findings sharing a root cause (see `passes::group`) render as one
//! diagnostic naming the cause, with each rule's finding as a note. A summary ends the output.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode,
    ThemeCharacters, ThemeStyles,
};

use super::{categories, counts, plural, severity, short_revision, Context, Style};
use crate::finding::{Finding, Location};
use crate::model::Span;
use crate::passes::Group;
use crate::rules::Severity;
use crate::source::IndexedText;

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let handler = handler(ctx.style);
    let mut out = String::new();
    let items = super::shown(findings, ctx.groups);
    for item in &items {
        match item {
            super::Shown::Cause(g, members) => render_group(&mut out, &handler, g, members, ctx),
            super::Shown::Alone(f, group) => render_finding(&mut out, &handler, f, *group, ctx),
        }
    }
    let shown = items.len();
    summary(&mut out, findings, shown, ctx);
    out
}

fn handler(style: Style) -> GraphicalReportHandler {
    let characters = if style.unicode {
        ThemeCharacters::unicode()
    } else {
        ThemeCharacters::ascii()
    };
    let styles = if style.color {
        ThemeStyles::ansi()
    } else {
        ThemeStyles::none()
    };
    GraphicalReportHandler::new_themed(GraphicalTheme { characters, styles })
        .with_width(style.width)
        .with_urls(false)
        .with_context_lines(1)
}

/// One snippet-bearing diagnostic; the old or new side of a finding.
struct Part {
    message: String,
    code: Option<String>,
    severity: miette::Severity,
    source: Option<NamedSource<IndexedText>>,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    related: Vec<Part>,
}

impl fmt::Debug for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Part {}

impl Diagnostic for Part {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(self.related.iter().map(|p| p as &dyn Diagnostic)))
        }
    }
}

/// Which revision a location belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Old,
    New,
}

/// A finding removes something when its rule is a deletion rule or the new side is gone.
fn is_deletion(f: &Finding) -> bool {
    f.rule.contains("_NO_DELETE") || f.location.is_none()
}

fn render_finding(
    out: &mut String,
    handler: &GraphicalReportHandler,
    f: &Finding,
    cause: Option<&Group>,
    ctx: &Context,
) {
    let severity = severity(f);
    let mut main = if is_deletion(f) {
        let mut main = part_focused(
            ctx,
            Side::Old,
            f.previous.as_ref(),
            f.focus,
            f.message.clone(),
            deleted_label(ctx),
        );
        // The new side is worth showing only where something of it survives (a parent).
        if let Some(loc) = f.location.as_ref().filter(|l| l.span.is_some()) {
            main.related.push(part_at(
                ctx,
                Side::New,
                Some(loc),
                format!("where it used to be, in {}:", new_side_name(ctx)),
                "no longer here".to_string(),
            ));
        }
        main
    } else {
        let mut main = part_at(
            ctx,
            Side::New,
            f.location.as_ref(),
            f.message.clone(),
            "changed here".to_string(),
        );
        if let Some(prev) = &f.previous {
            main.related.push(part_at(
                ctx,
                Side::Old,
                Some(prev),
                format!("before, in `{}`:", old_label(ctx)),
                "was this".to_string(),
            ));
        }
        main
    };
    main.code = Some(f.rule.to_string());
    main.severity = miette_severity(severity);
    // The help goes on the last part rendered so it closes the diagnostic.
    let help = f.help.clone().or_else(|| Some(generic_help(f.rule)));
    match main.related.last_mut() {
        Some(last) => last.help = help,
        None => main.help = help,
    }
    emit(out, handler, &main);
    note(out, ctx.style, &who_breaks(f));
    if let Some(cause) = cause.filter(|c| adds_to_a_lone_finding(c)) {
        note(out, ctx.style, &format!("cause: {}", cause.title));
    }
}

/// `who breaks: backward (new readers of old data); binary: ...; JSON: ...`.
pub(super) fn who_breaks(f: &Finding) -> String {
    let mut text = format!("who breaks: {} ({})", f.direction, f.direction.who());
    let note = super::direction_note(f);
    if !note.is_empty() {
        text.push_str("; ");
        text.push_str(note);
    }
    text
}

/// Whether a cause says more than the one finding it explains: a deletion alone (a field, an
/// enum value, a file whose types went nowhere) is already said by the finding itself.
fn adds_to_a_lone_finding(cause: &Group) -> bool {
    let deletion = ["field-deleted:", "enum-value-deleted:"]
        .iter()
        .any(|k| cause.key.starts_with(k));
    !deletion && !cause.title.ends_with("was deleted")
}

fn render_group(
    out: &mut String,
    handler: &GraphicalReportHandler,
    group: &Group,
    members: &[&Finding],
    ctx: &Context,
) {
    let worst = members
        .iter()
        .map(|f| severity(f))
        .max()
        .unwrap_or(Severity::Error);
    let rules: Vec<&str> = {
        let mut seen = Vec::new();
        for f in members {
            if !seen.contains(&f.rule) {
                seen.push(f.rule);
            }
        }
        seen
    };
    let mut main = match (&group.location, &group.previous) {
        (Some(new), previous) => {
            let mut main = part_at(
                ctx,
                Side::New,
                Some(new),
                group.title.clone(),
                "now".to_string(),
            );
            if let Some(prev) = previous {
                main.related.push(part_at(
                    ctx,
                    Side::Old,
                    Some(prev),
                    format!("before, in `{}`:", old_label(ctx)),
                    "was".to_string(),
                ));
            }
            main
        }
        (None, previous) => part_at(
            ctx,
            Side::Old,
            previous.as_ref(),
            group.title.clone(),
            deleted_label(ctx),
        ),
    };
    main.code = Some(rules.join(", "));
    main.severity = miette_severity(worst);
    match main.related.last_mut() {
        Some(last) => last.help = Some(group.help.clone()),
        None => main.help = Some(group.help.clone()),
    }
    emit(out, handler, &main);
    for f in members {
        note(
            out,
            ctx.style,
            &format!("{} [{}]: {}{}", f.rule, f.direction, f.message, at(f, ctx)),
        );
    }
}

/// ` (at path:line:col)` for a group member, so each can still be found.
fn at(f: &Finding, ctx: &Context) -> String {
    let (new, old) = (ctx.new_prefix, ctx.old_prefix);
    match (&f.location, &f.previous) {
        (Some(l), _) if l.span.is_some() => {
            format!(" ({new}{}:{}:{})", l.path, l.start_line, l.start_column)
        }
        (_, Some(p)) => format!(" (was {old}{}:{}:{})", p.path, p.start_line, p.start_column),
        (Some(l), None) => format!(" ({new}{}:{}:{})", l.path, l.start_line, l.start_column),
        (None, None) => String::new(),
    }
}

fn emit(out: &mut String, handler: &GraphicalReportHandler, part: &Part) {
    let mut rendered = String::new();
    if super::long_lines::render(handler, &mut rendered, part).is_err() {
        // Rendering into a String only fails on a broken Display impl; fall back to one line.
        rendered = format!("{}: {}\n", part.code.as_deref().unwrap_or(""), part.message);
    }
    // miette introduces each related diagnostic with its severity word on a line of its own;
    // the `☞` line under it says the same.
    let rendered = rendered.replace("Advice: \n", "");
    out.push_str(rendered.trim_end());
    out.push_str("\n\n");
}

/// A note line under a diagnostic, styled like miette's help.
fn note(out: &mut String, style: Style, text: &str) {
    // Notes sit under the diagnostic just emitted: replace its blank separator line.
    if out.ends_with("\n\n") {
        out.pop();
    }
    let label = "note:";
    let lines = wrap(
        text,
        style.width.saturating_sub(2 + label.len() + 1).max(20),
    );
    for (i, line) in lines.iter().enumerate() {
        if i == 0 {
            let _ = writeln!(out, "  {} {line}", paint(style, "36", label));
        } else {
            let _ = writeln!(out, "        {line}");
        }
    }
    out.push('\n');
}

/// Greedy word wrap; a word longer than the width gets a line of its own.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

pub(super) fn paint(style: Style, ansi: &str, text: &str) -> String {
    if style.color {
        format!("\u{1b}[{ansi}m{text}\u{1b}[0m")
    } else {
        text.to_string()
    }
}

fn miette_severity(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    }
}

fn old_label(ctx: &Context) -> String {
    ctx.sources.map_or_else(
        || "the old revision".to_string(),
        |s| short_revision(&s.old_label).to_string(),
    )
}

/// The new side in a sentence: the working tree of a repository, the staged changes, a
/// revision, or (compared with a directory) ROOT as given.
fn new_side_name(ctx: &Context) -> String {
    let Some(sources) = ctx.sources else {
        return "the working tree".to_string();
    };
    match sources.new_label.as_str() {
        "working tree" if sources.old_is_dir => format!("`{}`", root_as_given(ctx)),
        "working tree" => "the working tree".to_string(),
        "index" => "the staged changes".to_string(),
        label => format!("`{}`", short_revision(label)),
    }
}

/// ROOT as the user gave it (the new-side path prefix without its `/`).
fn root_as_given<'a>(ctx: &Context<'a>) -> &'a str {
    match ctx.new_prefix.trim_end_matches('/') {
        "" => ".",
        root => root,
    }
}

fn deleted_label(ctx: &Context) -> String {
    format!("deleted in {}", new_side_name(ctx))
}

/// The snippet of one side at a location: the file's text named `path @ revision` (the new
/// side of a working-tree check is just `path`, as compilers print it).
fn part_at(
    ctx: &Context,
    side: Side,
    loc: Option<&Location>,
    message: String,
    label: String,
) -> Part {
    part_focused(ctx, side, loc, None, message, label)
}

/// [`part_at`], underlining `focus` (the deleted field) rather than the whole location when
/// the finding has one (buf points deleted fields at their message; the reader wants the
/// field).
fn part_focused(
    ctx: &Context,
    side: Side,
    loc: Option<&Location>,
    focus: Option<Span>,
    message: String,
    label: String,
) -> Part {
    let mut part = Part {
        message,
        code: None,
        severity: miette::Severity::Advice,
        source: None,
        labels: Vec::new(),
        help: None,
        related: Vec::new(),
    };
    let Some(loc) = loc else { return part };
    let (texts, revision) = match (ctx.sources, side) {
        (Some(s), Side::Old) => (Some(&s.old), Some(s.old_label.as_str())),
        (Some(s), Side::New) => (Some(&s.new), Some(s.new_label.as_str())),
        (None, _) => (None, None),
    };
    let text = texts.and_then(|t| t.get(&loc.path));
    let Some(text) = text else {
        // No source text: name the place in the message instead.
        let _ = write!(
            part.message,
            " ({}:{}:{})",
            loc.path, loc.start_line, loc.start_column
        );
        return part;
    };
    // Paths start from the working directory, so terminals and editors can open them.
    let prefix = match side {
        Side::Old => ctx.old_prefix,
        Side::New => ctx.new_prefix,
    };
    let path = format!("{prefix}{}", loc.path);
    // A directory's files are named as on disk, so `path:line:col` opens them; a revision's
    // files carry the revision.
    let on_disk = match side {
        Side::New => matches!(revision, Some("working tree") | None),
        Side::Old => ctx.sources.is_some_and(|s| s.old_is_dir),
    };
    let name = match revision {
        Some(rev) if !on_disk => format!("{path} @ {}", short_revision(rev)),
        _ => path,
    };
    let span = match focus {
        Some(focus) => shown_span(text.text(), focus.start as usize, focus.end as usize),
        None => location_span(text.text(), loc),
    };
    part.labels.push(LabeledSpan::new_primary_with_span(
        Some(label),
        span.0..span.1,
    ));
    part.source = Some(NamedSource::new(name, text.indexed()));
    part
}

/// The byte range to underline: the finding's span, cut to its first line so a finding on
/// a 200-line message shows one line, not the whole message. A location without a span (a
/// whole file) underlines the file's first non-blank line.
fn location_span(text: &str, loc: &Location) -> (usize, usize) {
    let (start, end) = match loc.span {
        Some(s) => (s.start as usize, s.end as usize),
        None => first_line(text),
    };
    shown_span(text, start, end)
}

/// `start..end` cut to its first line and trimmed.
fn shown_span(text: &str, start: usize, end: usize) -> (usize, usize) {
    let start = start.min(text.len());
    let end = end.clamp(start, text.len());
    let end = text[start..end]
        .find('\n')
        .map_or(end, |nl| start + nl)
        .max(start);
    // Trim trailing whitespace of a cut span (`message Foo {` rather than `message Foo {  `).
    let trimmed = text[start..end].trim_end().len();
    (start, start + trimmed.max(if end > start { 1 } else { 0 }))
}

fn first_line(text: &str) -> (usize, usize) {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            let lead = line.len() - line.trim_start().len();
            return (offset + lead, offset + line.trim_end().len());
        }
        offset += line.len();
    }
    (0, 0)
}

/// Help for a finding whose handler set none: point at the rule's doc.
fn generic_help(rule: &str) -> String {
    format!("see `protocompat explain {rule}` for why this breaks and how to fix it")
}

/// Counts by severity and category, files checked and time taken.
fn summary(out: &mut String, findings: &[Finding], shown: usize, ctx: &Context) {
    let (errors, warnings) = counts(findings);
    let infos = super::infos(findings);
    let checked = ctx.stats.map(|s| {
        format!(
            "{} file{} checked in {}",
            s.files_checked,
            plural(s.files_checked),
            duration(s.elapsed)
        )
    });
    let advice = match infos {
        0 => String::new(),
        n => format!("; {n} info{}", plural(n)),
    };
    if errors + warnings == 0 {
        let _ = match checked {
            Some(c) => writeln!(out, "No breaking changes{advice} ({c})."),
            None => writeln!(out, "No breaking changes{advice}."),
        };
        return;
    }
    let total = errors + warnings;
    let head = format!(
        "{total} breaking change{} ({errors} error{}, {warnings} warning{})",
        plural(total),
        plural(errors),
        plural(warnings)
    );
    let color = if errors > 0 { "1;31" } else { "1;33" };
    let _ = write!(out, "{}", paint(ctx.style, color, &head));
    if shown < total {
        let _ = write!(out, " from {shown} cause{}", plural(shown));
    }
    let _ = write!(out, "{advice}");
    let _ = match checked {
        Some(c) => writeln!(out, "; {c}."),
        None => writeln!(out, "."),
    };
    let mut by_category: BTreeMap<usize, (&str, usize)> = BTreeMap::new();
    for f in findings {
        let ran = |c: &&str| ctx.categories_run.is_none_or(|run| run.contains(c));
        for c in categories(f.rule, ctx.config_version)
            .into_iter()
            .filter(ran)
        {
            let order = crate::rules::CATEGORIES
                .iter()
                .position(|k| *k == c)
                .unwrap_or(usize::MAX);
            by_category.entry(order).or_insert((c, 0)).1 += 1;
        }
    }
    if !by_category.is_empty() {
        let list: Vec<String> = by_category
            .values()
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        let _ = writeln!(out, "By category: {}.", list.join(", "));
    }
}

fn duration(d: std::time::Duration) -> String {
    if d.as_secs() >= 1 {
        format!("{:.2} s", d.as_secs_f64())
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// The source snippets of one `review` change, each side underlined at the element's first
/// line (`new`, `old`: path relative to ROOT and span). The new side comes first, unnamed
/// beyond its path; the old side is introduced with its revision (`before, in `main`:`, or
/// `in `main`:` when it is the only side shown, as for a removal). Empty when neither side's
/// text is at hand.
pub(super) fn review_snippets(
    ctx: &Context,
    new: Option<(&str, Span)>,
    old: Option<(&str, Span)>,
    (new_label, old_label_words): (&str, &str),
) -> String {
    let location = |(path, span): (&str, Span)| Location {
        path: path.to_string(),
        span: Some(span),
        start_line: 0,
        start_column: 0,
        end_line: 0,
        end_column: 0,
    };
    let (new, old) = (new.map(location), old.map(location));
    let revision = old_label(ctx);
    let old_part = |message: String| {
        part_at(
            ctx,
            Side::Old,
            old.as_ref(),
            message,
            old_label_words.to_string(),
        )
    };
    let mut main = match &new {
        Some(loc) => {
            let mut main = part_at(ctx, Side::New, Some(loc), String::new(), new_label.into());
            if old.is_some() {
                main.related
                    .push(old_part(format!("before, in `{revision}`:")));
            }
            main
        }
        None => old_part(format!("in `{revision}`:")),
    };
    main.related.retain(|p| p.source.is_some());
    if main.source.is_none() {
        return String::new();
    }
    let handler = handler(ctx.style).with_context_lines(0);
    let mut out = String::new();
    emit(&mut out, &handler, &main);
    // The first line is the diagnostic's own (empty) message: the change line above says it.
    let body = if new.is_some() {
        out.split_once('\n').map_or("", |(_, rest)| rest)
    } else {
        out.as_str()
    };
    // Parts are separated by a blank line in `check`; under a change line they read as one.
    body.lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}
