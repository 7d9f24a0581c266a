//! Renderers: each formats findings; none decides anything.

mod json;
mod text;

use crate::compare::Finding;
use crate::ignore::Ignored;
use crate::rules::{self, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per finding: `path:line:col: RULE_ID message`, then a summary line.
    Text,
    /// One JSON document (see DESIGN.md: version, findings, summary).
    Json,
}

/// What a renderer needs besides the findings: the buf config version whose categories
/// are reported.
pub struct Context<'a> {
    pub config_version: &'a str,
    /// Findings silenced by `// protocompat:ignore` directives: counted in every summary.
    pub ignored: &'a [Ignored],
    /// `--show-ignored`: list them too.
    pub show_ignored: bool,
}

pub fn render(format: Format, findings: &[Finding], ctx: &Context) -> String {
    match format {
        Format::Text => {
            let mut out = text::render(findings);
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
