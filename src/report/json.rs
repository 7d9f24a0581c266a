//! `--format json`: the machine interface, documented in docs/json.md.

use std::collections::HashSet;

use serde::Serialize;

use super::{categories, counts, severity, Context};
use crate::finding::{Finding, Location};

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    findings: Vec<JsonFinding<'a>>,
    /// With `--show-ignored`: the findings silenced by `protocompat:ignore` directives.
    #[serde(skip_serializing_if = "Option::is_none")]
    ignored: Option<Vec<JsonIgnored<'a>>>,
    summary: Summary,
}

#[derive(Serialize)]
struct JsonIgnored<'a> {
    #[serde(flatten)]
    finding: JsonFinding<'a>,
    reason: &'a str,
    directive: Span,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    rule: &'a str,
    categories: Vec<&'static str>,
    severity: &'a str,
    /// Who breaks: backward, forward, both or source.
    direction: &'static str,
    /// Where binary and JSON readers differ, how (absent when they do not).
    #[serde(skip_serializing_if = "str::is_empty")]
    direction_note: &'static str,
    /// From the working directory, as every other format (and buf) shows it.
    path: Option<String>,
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
    message: &'a str,
    previous: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    /// The root cause shared with other findings (a stable key), null when alone.
    group: Option<&'a str>,
}

#[derive(Serialize)]
struct Span {
    path: String,
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

impl Span {
    /// `l` with its path from the working directory (`prefix` is its side's).
    fn at(l: &Location, prefix: &str) -> Self {
        Span {
            path: format!("{prefix}{}", l.path),
            start_line: l.start_line,
            start_column: l.start_column,
            end_line: l.end_line,
            end_column: l.end_column,
        }
    }
}

#[derive(Serialize)]
struct Summary {
    errors: usize,
    warnings: usize,
    /// Advice (`info` findings), which never fail a run.
    infos: usize,
    /// Findings silenced by `protocompat:ignore` directives (not in `errors`/`warnings`).
    ignored: usize,
}

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let (errors, warnings) = counts(findings);
    let shared = shared_groups(ctx);
    let doc = Document {
        version: 1,
        findings: findings.iter().map(|f| finding(f, ctx, &shared)).collect(),
        ignored: ctx.show_ignored.then(|| {
            ctx.ignored
                .iter()
                .map(|i| JsonIgnored {
                    finding: finding(&i.finding, ctx, &shared),
                    reason: &i.reason,
                    directive: Span::at(&i.directive, ctx.new_prefix),
                })
                .collect()
        }),
        summary: Summary {
            errors,
            warnings,
            infos: super::infos(findings),
            ignored: ctx.ignored.len(),
        },
    };
    // Serializing plain structs of strings and numbers cannot fail.
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}

fn finding<'a>(f: &'a Finding, ctx: &Context, shared: &HashSet<&str>) -> JsonFinding<'a> {
    // A deleted file has no new-side location; buf reports it at 1:1.
    let (start_line, start_column, end_line, end_column) =
        f.location.as_ref().map_or((1, 1, 1, 1), |l| {
            (l.start_line, l.start_column, l.end_line, l.end_column)
        });
    JsonFinding {
        rule: f.rule,
        categories: categories(f.rule, ctx.config_version),
        severity: severity(f).name(),
        direction: f.direction.name(),
        direction_note: super::direction_note(f),
        path: f
            .location
            .as_ref()
            .map(|l| format!("{}{}", ctx.new_prefix, l.path)),
        start_line,
        start_column,
        end_line,
        end_column,
        message: &f.message,
        previous: f.previous.as_ref().map(|l| Span::at(l, ctx.old_prefix)),
        help: f.help.as_deref(),
        group: f.group.as_deref().filter(|k| shared.contains(k)),
    }
}

/// Keys of the groups with more than one finding (a finding alone gets a null group).
fn shared_groups<'a>(ctx: &Context<'a>) -> HashSet<&'a str> {
    ctx.groups
        .iter()
        .filter(|g| g.members > 1)
        .map(|g| g.key.as_str())
        .collect()
}
