//! `--format github`: GitHub Actions workflow commands, one annotation per root cause.
//!
//! `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=RULE_ID::message`, escaped as
//! the actions toolkit (`@actions/core`) escapes them, so any message or path survives.
//!
//! GitHub shows at most [`SHOWN_PER_SEVERITY`] error and as many warning annotations per step
//! and drops the rest without a word. So findings sharing a cause become one annotation (as
//! the text format groups them), the most important come first (errors, then the causes
//! explaining the most findings, then file order), and when more remain than fit, the last
//! annotation of that severity says how many and lists them.

use std::fmt::Write as _;

use super::{severity, Context};
use crate::finding::{Finding, Location};
use crate::passes::group::Group;
use crate::rules::Severity;

/// Annotations of one severity GitHub displays per step.
pub const SHOWN_PER_SEVERITY: usize = 10;

/// Lines listing the annotations that did not fit: enough to find them; the job summary and
/// the text format have them all.
const LISTED_BEYOND_CAP: usize = 50;

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let mut annotations = annotations(findings, ctx);
    // Stable: equal ranks keep the report's order (path, line).
    annotations.sort_by_key(|a| (a.severity != Severity::Error, std::cmp::Reverse(a.findings)));
    let mut out = String::new();
    for severity in [Severity::Error, Severity::Warning, Severity::Info] {
        let of_severity: Vec<&Annotation> = annotations
            .iter()
            .filter(|a| a.severity == severity)
            .collect();
        let (shown, hidden) = split_at_cap(&of_severity);
        for a in shown {
            let _ = writeln!(out, "{}", a.command());
        }
        if !hidden.is_empty() {
            let _ = writeln!(out, "{}", more(severity, hidden));
        }
    }
    out
}

/// All of them when they fit; else one fewer than the cap, the last slot saying what is left.
fn split_at_cap<'a, 'b>(all: &'b [&'a Annotation]) -> (&'b [&'a Annotation], &'b [&'a Annotation]) {
    match all.len() <= SHOWN_PER_SEVERITY {
        true => (all, &[]),
        false => all.split_at(SHOWN_PER_SEVERITY - 1),
    }
}

/// One annotation to emit.
struct Annotation {
    severity: Severity,
    /// None: on the run itself (the place is gone from the new revision).
    place: Option<Place>,
    /// The rule ids, comma-separated.
    title: String,
    message: String,
    /// How many findings it stands for.
    findings: usize,
}

struct Place {
    path: String,
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

impl Annotation {
    fn command(&self) -> String {
        let properties = match &self.place {
            Some(p) => place_properties(
                &p.path,
                (p.start_line, p.start_column),
                (p.end_line, p.end_column),
            ),
            None => Vec::new(),
        };
        command(
            command_name(self.severity),
            properties,
            &self.title,
            &self.message,
        )
    }

    /// `path:line: TITLE: first line of the message`, for the list of those not shown.
    fn one_line(&self) -> String {
        let first = self.message.lines().next().unwrap_or_default();
        match &self.place {
            Some(p) => format!("{}:{}: {}: {first}", p.path, p.start_line, self.title),
            None => format!("{}: {first}", self.title),
        }
    }
}

/// `file`, `line`, `col`, `endLine`, `endColumn` of an annotation at `start`..`end` (line,
/// column).
pub(super) fn place_properties(
    path: &str,
    start: (u32, u32),
    end: (u32, u32),
) -> Vec<(&'static str, String)> {
    let single_line = start.0 == end.0;
    let mut properties = vec![("file", path.to_string()), ("line", start.0.to_string())];
    // The toolkit sends columns only for single-line annotations.
    if single_line {
        properties.push(("col", start.1.to_string()));
    }
    properties.push(("endLine", end.0.to_string()));
    if single_line {
        properties.push(("endColumn", end.1.to_string()));
    }
    properties
}

/// `::NAME PROPERTIES,title=TITLE::MESSAGE`, escaped.
pub(super) fn command(
    name: &str,
    mut properties: Vec<(&'static str, String)>,
    title: &str,
    message: &str,
) -> String {
    properties.push(("title", title.to_string()));
    let properties: Vec<String> = properties
        .into_iter()
        .map(|(k, v)| format!("{k}={}", escape_property(&v)))
        .collect();
    format!(
        "::{name} {}::{}",
        properties.join(","),
        escape_data(message)
    )
}

fn command_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// The last annotation of a severity when `hidden` did not fit.
fn more(severity: Severity, hidden: &[&Annotation]) -> String {
    let findings: usize = hidden.iter().map(|a| a.findings).sum();
    let (kind, plural) = match severity {
        Severity::Error => ("error", "errors"),
        Severity::Warning => ("warning", "warnings"),
        Severity::Info => ("notice", "notices"),
    };
    let mut message = format!(
        "{} more {} ({findings} {}) not shown as annotations: GitHub shows {SHOWN_PER_SEVERITY} \
         per step. The job summary and `protocompat check --format text` list every one:",
        hidden.len(),
        if hidden.len() == 1 { kind } else { plural },
        if findings == 1 { "finding" } else { "findings" },
    );
    for a in hidden.iter().take(LISTED_BEYOND_CAP) {
        message.push('\n');
        message.push_str(&a.one_line());
    }
    if hidden.len() > LISTED_BEYOND_CAP {
        let _ = write!(message, "\n… and {} more", hidden.len() - LISTED_BEYOND_CAP);
    }
    format!(
        "::{} title={}::{}",
        command_name(severity),
        escape_property(&format!("protocompat: {} more", hidden.len())),
        escape_data(&message)
    )
}

/// One annotation per cause shown as a group (as the text format shows them: several
/// findings, or a rename or move that has a place in the new revision), one per other
/// finding, in the findings' order.
fn annotations(findings: &[Finding], ctx: &Context) -> Vec<Annotation> {
    super::shown(findings, ctx.groups)
        .into_iter()
        .map(|item| match item {
            super::Shown::Cause(g, members) => for_group(g, &members, ctx),
            super::Shown::Alone(f, _) => for_finding(f, ctx),
        })
        .collect()
}

fn for_finding(f: &Finding, ctx: &Context) -> Annotation {
    let p = ctx.primary(f);
    let mut message = f.message.clone();
    if let Some(help) = &f.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    Annotation {
        severity: severity(f),
        // A deleted file is not in the pull request's head: an annotation pointing into it
        // could not be placed, so it goes on the run itself (the message names the file).
        place: f.location.as_ref().map(|_| Place {
            path: p.path,
            start_line: p.start_line,
            start_column: p.start_column,
            end_line: p.end_line,
            end_column: p.end_column,
        }),
        title: f.rule.to_string(),
        message,
        findings: 1,
    }
}

/// The cause's title, each finding on a line of its own (with where it is), and the cause's
/// fix; placed where the cause shows in the new revision.
fn for_group(group: &Group, members: &[&Finding], ctx: &Context) -> Annotation {
    let mut rules: Vec<&str> = Vec::new();
    for f in members {
        if !rules.contains(&f.rule) {
            rules.push(f.rule);
        }
    }
    let mut message = group.title.clone();
    for f in members {
        let _ = write!(message, "\n{}: {}{}", f.rule, f.message, at(f, ctx));
    }
    message.push_str("\nhelp: ");
    message.push_str(&group.help);
    Annotation {
        severity: members
            .iter()
            .map(|f| severity(f))
            .max()
            .unwrap_or(Severity::Error),
        place: group.location.as_ref().map(|l| place(l, ctx.new_prefix)),
        title: rules.join(", "),
        message,
        findings: members.len(),
    }
}

fn place(l: &Location, prefix: &str) -> Place {
    Place {
        path: format!("{prefix}{}", l.path),
        start_line: l.start_line,
        start_column: l.start_column,
        end_line: l.end_line,
        end_column: l.end_column,
    }
}

/// ` (path:line:col)` for a group member, or ` (was path:line:col)` when only the old
/// revision has it, so each can still be found.
fn at(f: &Finding, ctx: &Context) -> String {
    match (&f.location, &f.previous) {
        (Some(l), _) if l.span.is_some() => format!(
            " ({}{}:{}:{})",
            ctx.new_prefix, l.path, l.start_line, l.start_column
        ),
        (_, Some(p)) => format!(
            " (was {}:{}:{})",
            ctx.old_path(p),
            p.start_line,
            p.start_column
        ),
        (Some(l), None) => format!(
            " ({}{}:{}:{})",
            ctx.new_prefix, l.path, l.start_line, l.start_column
        ),
        (None, None) => String::new(),
    }
}

/// A warning about the check itself (a missing import under `--allow-missing-imports`, an
/// ignore directive without a reason) as a warning annotation on the run, so the Action shows
/// it instead of burying it in the log. Its first line is the title.
pub fn warning_annotation(message: &str) -> String {
    format!(
        "::warning title=protocompat::{}",
        escape_data(message.trim_end())
    )
}

/// The toolkit's `escapeData`: `%`, CR and LF.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The toolkit's `escapeProperty`: as data, plus `:` and `,`.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_escapes_percent_cr_lf_only() {
        assert_eq!(escape_data("50%\r\nx: a,b"), "50%25%0D%0Ax: a,b");
    }

    fn annotation(n: usize) -> Annotation {
        Annotation {
            severity: Severity::Error,
            place: None,
            title: format!("R{n}"),
            message: format!("m{n}"),
            findings: 1,
        }
    }

    #[test]
    fn ten_fit_and_eleven_leave_the_last_slot_for_the_rest() {
        let all: Vec<Annotation> = (0..11).map(annotation).collect();
        let refs: Vec<&Annotation> = all.iter().collect();
        let (shown, hidden) = split_at_cap(&refs[..10]);
        assert_eq!((shown.len(), hidden.len()), (10, 0));
        let (shown, hidden) = split_at_cap(&refs);
        assert_eq!((shown.len(), hidden.len()), (9, 2));
        assert_eq!(
            more(Severity::Error, hidden),
            "::error title=protocompat%3A 2 more::2 more errors (2 findings) not shown as \
             annotations: GitHub shows 10 per step. The job summary and `protocompat check \
             --format text` list every one:%0AR9: m9%0AR10: m10"
        );
    }

    #[test]
    fn properties_also_escape_colon_and_comma() {
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
