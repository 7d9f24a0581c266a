//! Renderers: each formats findings; none decides anything.

mod json;
mod text;

use crate::compare::Finding;
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
}

pub fn render(format: Format, findings: &[Finding], ctx: &Context) -> String {
    match format {
        Format::Text => text::render(findings),
        Format::Json => json::render(findings, ctx),
    }
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
