//! `--format github`: GitHub Actions workflow commands, one annotation per finding.
//!
//! `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=RULE_ID::message`, escaped as
//! the actions toolkit (`@actions/core`) escapes them, so any message or path survives.

use std::fmt::Write as _;

use super::{severity, Context};
use crate::compare::Finding;
use crate::rules::Severity;

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let mut out = String::new();
    for f in findings {
        let _ = writeln!(out, "{}", annotation(f, ctx));
    }
    out
}

fn annotation(f: &Finding, ctx: &Context) -> String {
    let command = match severity(f) {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut properties: Vec<(&str, String)> = Vec::new();
    let p = ctx.primary(f);
    // A deleted file is not in the pull request's head: an annotation pointing into it could
    // not be placed, so it goes on the run itself (the message names the file).
    if f.location.is_some() {
        let single_line = p.start_line == p.end_line;
        properties.push(("file", p.path));
        properties.push(("line", p.start_line.to_string()));
        // The toolkit sends columns only for single-line annotations.
        if single_line {
            properties.push(("col", p.start_column.to_string()));
        }
        properties.push(("endLine", p.end_line.to_string()));
        if single_line {
            properties.push(("endColumn", p.end_column.to_string()));
        }
    }
    properties.push(("title", f.rule.to_string()));
    let properties: Vec<String> = properties
        .into_iter()
        .map(|(k, v)| format!("{k}={}", escape_property(&v)))
        .collect();
    let mut message = f.message.clone();
    if let Some(help) = &f.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&message)
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

    #[test]
    fn properties_also_escape_colon_and_comma() {
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
