//! buf's own `--error-format` outputs, byte for byte, for `protocompat breaking` (the alias
//! that takes `buf breaking`'s command line): text, json, msvs, junit, github-actions and
//! gitlab-code-quality. Nothing is printed when there is no finding, as buf does.
//!
//! A deleted file has no place in the new revision: buf names it `<input>` at 1:1.

use std::fmt::Write as _;

use serde::Serialize;

use super::{fingerprint, Context};
use crate::finding::Finding;

/// buf's `--error-format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufFormat {
    Text,
    Json,
    Msvs,
    Junit,
    GithubActions,
    GitlabCodeQuality,
}

impl BufFormat {
    /// The format buf calls `name`.
    pub fn from_name(name: &str) -> Option<BufFormat> {
        Some(match name {
            "text" => BufFormat::Text,
            "json" => BufFormat::Json,
            "msvs" => BufFormat::Msvs,
            "junit" => BufFormat::Junit,
            "github-actions" => BufFormat::GithubActions,
            "gitlab-code-quality" => BufFormat::GitlabCodeQuality,
            _ => return None,
        })
    }

    pub const NAMES: &'static str = "text, json, msvs, junit, github-actions, gitlab-code-quality";
}

/// Where buf reports a finding: (path or None for `<input>`, start line, start column, end
/// line, end column).
struct Place {
    path: Option<String>,
    start: (u32, u32),
    end: (u32, u32),
}

/// One line of buf's output: a finding, or a file that could not be compiled (`COMPILE`).
struct Entry<'a> {
    rule: &'a str,
    message: &'a str,
    place: Place,
}

fn place(f: &Finding, ctx: &Context) -> Place {
    match &f.location {
        Some(l) => Place {
            path: Some(format!("{}{}", ctx.new_prefix, l.path)),
            start: (l.start_line, l.start_column),
            end: (l.end_line, l.end_column),
        },
        None => Place {
            path: None,
            start: (1, 1),
            end: (1, 1),
        },
    }
}

/// A file that could not be compiled, where buf reports it: a parse error, a missing import,
/// a name that does not resolve. buf prints these in the `--error-format` as `COMPILE`
/// entries and exits 100, as for breaking changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// From the working directory, as finding paths.
    pub path: String,
    pub start: (u32, u32),
    pub end: (u32, u32),
    pub message: String,
}

impl CompileError {
    /// The first labelled position of `diagnostic` in its `.proto` file; None when it has
    /// none (a revision that cannot be read) or is about another file (a `buf.yaml` that
    /// does not parse: buf's `Failure`, not a compile error).
    pub fn from_diagnostic(diagnostic: &miette::Report) -> Option<CompileError> {
        let source = diagnostic.source_code()?;
        let span = *diagnostic.labels()?.next()?.inner();
        let at = |offset: usize| source.read_span(&offset.into(), 0, 0).ok();
        let start = at(span.offset())?;
        let end = at(span.offset() + span.len())?;
        // Diagnostics name a file `path @ revision`; buf prints the path alone.
        let name = start.name()?;
        let path = name.rsplit_once(" @ ").map_or(name, |(path, _)| path);
        if !path.ends_with(".proto") {
            return None;
        }
        let position = |c: &dyn miette::SpanContents| (c.line() as u32 + 1, c.column() as u32 + 1);
        Some(CompileError {
            path: path.to_string(),
            start: position(start.as_ref()),
            end: position(end.as_ref()),
            message: diagnostic.to_string(),
        })
    }
}

/// buf's output for files that could not be compiled.
pub fn render_compile_errors(format: BufFormat, errors: &[CompileError]) -> String {
    let entries: Vec<Entry> = errors
        .iter()
        .map(|e| Entry {
            rule: "COMPILE",
            message: &e.message,
            place: Place {
                path: Some(e.path.clone()),
                start: e.start,
                end: e.end,
            },
        })
        .collect();
    render_entries(format, &entries)
}

const INPUT: &str = "<input>";

pub fn render(format: BufFormat, findings: &[Finding], ctx: &Context) -> String {
    let entries: Vec<Entry> = findings
        .iter()
        .map(|f| Entry {
            rule: f.rule,
            message: &f.message,
            place: place(f, ctx),
        })
        .collect();
    render_entries(format, &entries)
}

fn render_entries(format: BufFormat, entries: &[Entry]) -> String {
    if entries.is_empty() {
        return String::new();
    }
    match format {
        BufFormat::Text => lines(entries, text_line),
        BufFormat::Json => lines(entries, json_line),
        BufFormat::Msvs => lines(entries, msvs_line),
        BufFormat::GithubActions => lines(entries, github_line),
        BufFormat::Junit => junit(entries),
        BufFormat::GitlabCodeQuality => gitlab(entries),
    }
}

fn lines(entries: &[Entry], line: fn(&Entry) -> String) -> String {
    let mut out = String::new();
    for e in entries {
        out.push_str(&line(e));
        out.push('\n');
    }
    out
}

fn text_line(e: &Entry) -> String {
    let (f, p) = (e, &e.place);
    let path = p.path.as_deref().unwrap_or(INPUT);
    format!("{path}:{}:{}:{}", p.start.0, p.start.1, f.message)
}

fn msvs_line(e: &Entry) -> String {
    let (f, p) = (e, &e.place);
    let path = p.path.as_deref().unwrap_or(INPUT);
    format!(
        "{path}({},{}) : error {} : {}",
        p.start.0, p.start.1, f.rule, f.message
    )
}

fn github_line(e: &Entry) -> String {
    let (f, p) = (e, &e.place);
    match &p.path {
        Some(path) => format!(
            "::error file={path},line={},col={},endLine={},endColumn={}::{}",
            p.start.0, p.start.1, p.end.0, p.end.1, f.message
        ),
        None => format!("::error file={INPUT}::{}", f.message),
    }
}

/// buf's JSON line: keys in its order, `path` left out for a deleted file.
#[derive(Serialize)]
struct JsonLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
    #[serde(rename = "type")]
    rule: &'a str,
    message: &'a str,
}

fn json_line(e: &Entry) -> String {
    let (f, p) = (e, &e.place);
    let line = JsonLine {
        path: p.path.as_deref(),
        start_line: p.start.0,
        start_column: p.start.1,
        end_line: p.end.0,
        end_column: p.end.1,
        rule: f.rule,
        message: f.message,
    };
    // Go's encoding/json escapes <, > and & in strings; serde_json does not.
    go_html_escape(&serde_json::to_string(&line).unwrap_or_default())
}

/// `<`, `>` and `&` as Go's encoding/json writes them inside strings (they only occur there).
fn go_html_escape(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// A testsuite per file (path without `.proto`, `<input>` for deleted files) in order of
/// first appearance, a failing testcase per finding, indented as Go's encoder does.
fn junit(entries: &[Entry]) -> String {
    let mut suites: Vec<(String, Vec<&Entry>)> = Vec::new();
    for e in entries {
        let name = e.place.path.clone().unwrap_or_else(|| INPUT.to_string());
        match suites.iter_mut().find(|(n, _)| *n == name) {
            Some((_, members)) => members.push(e),
            None => suites.push((name, vec![e])),
        }
    }
    let mut out = String::from("<testsuites>\n");
    for (path, members) in &suites {
        let suite = path.strip_suffix(".proto").unwrap_or(path);
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{n}\" failures=\"{n}\" errors=\"0\">",
            super::junit::escape(suite),
            n = members.len()
        );
        for e in members {
            let (f, p) = (e, &e.place);
            // A deleted file has no position: buf names the testcase by the rule alone.
            let name = match p.path {
                Some(_) => format!("{}_{}_{}", f.rule, p.start.0, p.start.1),
                None => f.rule.to_string(),
            };
            let _ = writeln!(
                out,
                "    <testcase name=\"{}\">",
                super::junit::escape(&name)
            );
            let _ = writeln!(
                out,
                "      <failure message=\"{}\" type=\"{}\"></failure>",
                super::junit::escape(&text_line(e)),
                super::junit::escape(f.rule)
            );
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[derive(Serialize)]
struct Violation<'a> {
    description: &'a str,
    check_name: &'a str,
    fingerprint: String,
    location: ViolationLocation,
    severity: &'static str,
}

/// buf leaves out what it does not have: a deleted file's location is `{"positions":
/// {"begin":{},"end":{}}}`.
#[derive(Serialize)]
struct ViolationLocation {
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    positions: Positions,
}

#[derive(Serialize)]
struct Positions {
    begin: Position,
    end: Position,
}

#[derive(Serialize)]
struct Position {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
}

/// buf's layout (one line, every finding `minor`). The fingerprint is protocompat's own
/// (SHA-256 of rule, path and message): buf's hash input is not documented, so that one
/// value differs from buf's.
fn gitlab(entries: &[Entry]) -> String {
    let violations: Vec<Violation> = entries
        .iter()
        .map(|f| {
            let p = &f.place;
            let known = p.path.is_some();
            let position = |(line, column): (u32, u32)| Position {
                line: known.then_some(line),
                column: known.then_some(column),
            };
            Violation {
                description: f.message,
                check_name: f.rule,
                fingerprint: fingerprint(f.rule, p.path.as_deref().unwrap_or(""), f.message),
                location: ViolationLocation {
                    path: p.path.clone(),
                    positions: Positions {
                        begin: position(p.start),
                        end: position(p.end),
                    },
                },
                severity: "minor",
            }
        })
        .collect();
    let mut out = go_html_escape(&serde_json::to_string(&violations).unwrap_or_default());
    out.push('\n');
    out
}
