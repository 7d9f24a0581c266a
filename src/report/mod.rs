//! Renderers: each formats findings; none decides anything.

pub mod explain;
mod json;
mod short;
mod text;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::compare::{Finding, Group};
use crate::ignore::Ignored;
use crate::rules::{self, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Rich diagnostics: both revisions' snippets, the rule id, the fix, a summary.
    Text,
    /// One line per finding: `path:line:col: severity[RULE_ID]: message` (editors, grep).
    Short,
    /// One JSON document (see DESIGN.md: version, findings, summary).
    Json,
}

impl Format {
    /// Maps a `--error-format` value, buf's names first (`text` is buf's one-line format,
    /// so it maps to `short`), then ours.
    pub fn from_buf_name(name: &str) -> Option<Format> {
        use clap::ValueEnum as _;
        match name {
            "text" => Some(Format::Short),
            _ => Format::from_str(name, true).ok(),
        }
    }
}

/// The text of every compared file on both sides, keyed by the path findings report, and
/// what to call each side (`main`, `working tree`, `index`).
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub old_label: String,
    pub new_label: String,
    pub old: HashMap<String, Arc<str>>,
    pub new: HashMap<String, Arc<str>>,
}

/// Facts about the check shown in the text summary.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    pub files_checked: usize,
    pub elapsed: Duration,
}

/// How the text formats draw: colour, Unicode box characters, line width.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    pub unicode: bool,
    pub width: usize,
}

impl Default for Style {
    /// Plain and stable: no colour, Unicode, 100 columns (what the snapshot tests use).
    fn default() -> Self {
        Style {
            color: false,
            unicode: true,
            width: 100,
        }
    }
}

/// What a renderer needs besides the findings.
pub struct Context<'a> {
    /// The buf config version whose categories are reported.
    pub config_version: &'a str,
    /// Findings silenced by `// protocompat:ignore` directives: counted in every summary.
    pub ignored: &'a [Ignored],
    /// `--show-ignored`: list them too.
    pub show_ignored: bool,
    /// Both sides' texts, for snippets; without them the text format shows locations only.
    pub sources: Option<&'a Sources>,
    /// Root causes shared by several findings (`Finding.group` keys into this).
    pub groups: &'a [Group],
    pub stats: Option<Stats>,
    pub style: Style,
}

impl<'a> Context<'a> {
    /// A context with no sources, groups or stats, and the default style.
    pub fn new(config_version: &'a str) -> Self {
        Context {
            config_version,
            sources: None,
            groups: &[],
            stats: None,
            style: Style::default(),
            ignored: &[],
            show_ignored: false,
        }
    }
}

pub fn render(format: Format, findings: &[Finding], ctx: &Context) -> String {
    match format {
        Format::Text => {
            let mut out = text::render(findings, ctx);
            out.push_str(&ignored_text(ctx));
            out
        }
        Format::Short => {
            let mut out = short::render(findings);
            out.push_str(&ignored_text(ctx));
            out
        }
        Format::Json => json::render(findings, ctx),
    }
}

/// The text summary of ignored findings (and their list with `--show-ignored`).
pub fn ignored_text(ctx: &Context) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    if ctx.ignored.is_empty() {
        return out;
    }
    if ctx.show_ignored {
        for i in ctx.ignored {
            let f = &i.finding;
            let (path, line, col) = f.location.as_ref().map_or(("<unknown>", 1, 1), |l| {
                (l.path.as_str(), l.start_line, l.start_column)
            });
            let _ = writeln!(
                out,
                "ignored: {path}:{line}:{col}: {} {} (by {}:{}: {})",
                f.rule, f.message, i.directive.path, i.directive.start_line, i.reason
            );
        }
    }
    let n = ctx.ignored.len();
    let _ = write!(
        out,
        "{n} finding{} ignored by protocompat:ignore comments",
        if n == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        out,
        "{}",
        if ctx.show_ignored {
            "."
        } else {
            " (--show-ignored lists them)."
        }
    );
    out
}

/// The severity a finding is reported with (its rule's default).
pub fn severity(finding: &Finding) -> Severity {
    rules::find(finding.rule).map_or(Severity::Error, |r| r.severity)
}

/// A rule's categories under a config version, in buf's order (FILE, PACKAGE, WIRE_JSON,
/// WIRE, CSR).
pub fn categories(rule: &str, config_version: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = rules::find(rule)
        .map(|r| r.categories_for(config_version).to_vec())
        .unwrap_or_default();
    out.sort_by_key(|c| rules::CATEGORIES.iter().position(|k| k == c));
    out
}

/// (errors, warnings)
pub fn counts(findings: &[Finding]) -> (usize, usize) {
    let errors = findings
        .iter()
        .filter(|f| severity(f) == Severity::Error)
        .count();
    (errors, findings.len() - errors)
}
