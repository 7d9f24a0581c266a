//! `--format gitlab`: a GitLab code quality report (a JSON array of issues).
//!
//! Each issue has description, check_name, fingerprint, severity and a location with path
//! and lines (begin/end). Severity: errors are `major`, warnings `minor` (buf marks every
//! finding `minor`; a breaking change is more than that).

use serde::Serialize;

use super::{fingerprint, severity, Context};
use crate::finding::Finding;
use crate::rules::Severity;

#[derive(Serialize)]
struct Issue<'a> {
    description: &'a str,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: IssueLocation,
}

#[derive(Serialize)]
struct IssueLocation {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
    end: u32,
}

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let issues: Vec<Issue> = findings.iter().map(|f| issue(f, ctx)).collect();
    // Serializing plain structs of strings and numbers cannot fail.
    let mut out = serde_json::to_string_pretty(&issues).unwrap_or_default();
    out.push('\n');
    out
}

fn issue<'a>(f: &'a Finding, ctx: &Context) -> Issue<'a> {
    let primary = ctx.primary(f);
    Issue {
        description: &f.message,
        check_name: f.rule,
        fingerprint: fingerprint(f.rule, &primary.path, &f.message),
        severity: match severity(f) {
            Severity::Error => "major",
            Severity::Warning => "minor",
        },
        location: IssueLocation {
            path: primary.path,
            lines: Lines {
                begin: primary.start_line,
                end: primary.end_line,
            },
        },
    }
}
