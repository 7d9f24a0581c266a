//! `--format markdown`: a heading with the verdict, a summary table by rule, and the
//! findings with links to the lines — for pull request comments and `$GITHUB_STEP_SUMMARY`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{categories, counts, plural, severity, Context, Primary};
use crate::finding::Finding;
use crate::rules::Severity;

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let mut out = String::new();
    let (errors, warnings) = counts(findings);
    // A missing import allowed by `--allow-missing-imports` is a warning too: a summary
    // saying "0 warnings" next to one would hide that part of the schema went unchecked.
    let warnings = warnings + ctx.check_warnings.len();
    // A full object id (the Action passes the base commit's) reads as git abbreviates it.
    let against = code(super::short_revision(ctx.against));
    if findings.is_empty() {
        let _ = writeln!(out, "## protocompat: no breaking changes\n");
        match warnings {
            0 => {
                let _ = writeln!(out, "Compared against {against}.");
            }
            n => {
                let _ = writeln!(out, "Compared against {against}: {n} warning{}.", plural(n));
            }
        }
        check_warnings(&mut out, ctx);
        return out;
    }
    let _ = writeln!(
        out,
        "## protocompat: {} breaking change{}\n",
        findings.len(),
        plural(findings.len())
    );
    let _ = writeln!(
        out,
        "Compared against {against}: {errors} error{}, {warnings} warning{}.\n",
        plural(errors),
        plural(warnings)
    );
    summary_table(&mut out, findings, ctx);
    check_warnings(&mut out, ctx);
    let _ = writeln!(out, "\n### Findings\n");
    for f in findings {
        finding(&mut out, f, ctx);
    }
    out
}

/// The warnings about the check itself, one item each (first line: the message).
fn check_warnings(out: &mut String, ctx: &Context) {
    if ctx.check_warnings.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n### Warnings about the check\n");
    for w in ctx.check_warnings {
        let first = w.lines().next().unwrap_or_default();
        let _ = writeln!(out, "- :warning: {}", escape(first));
    }
}

/// One row per rule: categories, severity, how many findings.
fn summary_table(out: &mut String, findings: &[Finding], ctx: &Context) {
    let mut by_rule: BTreeMap<(&str, Severity), usize> = BTreeMap::new();
    for f in findings {
        *by_rule.entry((f.rule, severity(f))).or_default() += 1;
    }
    out.push_str("| Rule | Categories | Severity | Findings |\n");
    out.push_str("| --- | --- | --- | ---: |\n");
    for ((rule, severity), n) in by_rule {
        let _ = writeln!(
            out,
            "| `{rule}` | {} | {} | {n} |",
            categories(rule, ctx.config_version).join(", "),
            severity.name()
        );
    }
}

fn finding(out: &mut String, f: &Finding, ctx: &Context) {
    let icon = match severity(f) {
        Severity::Error => ":x:",
        Severity::Warning => ":warning:",
        Severity::Info => ":information_source:",
    };
    let primary = ctx.primary(f);
    let place = if primary.deleted {
        format!("{} (deleted)", code(&primary.path))
    } else {
        link(&primary, ctx)
    };
    let _ = writeln!(
        out,
        "- {icon} **`{}`** {place}: {}",
        f.rule,
        escape(&f.message)
    );
    if let Some(help) = &f.help {
        // Our own help text uses backticks for code: keep them, escape only what would
        // turn into HTML or break a table.
        let _ = writeln!(out, "  <br>help: {}", escape_html(help));
    }
}

/// `[`path:line:col`](base/path#Lstart-Lend)`.
fn link(p: &Primary, ctx: &Context) -> String {
    let anchor = if p.start_line == p.end_line {
        format!("#L{}", p.start_line)
    } else {
        format!("#L{}-L{}", p.start_line, p.end_line)
    };
    let target = format!("{}{}{anchor}", ctx.link_base.unwrap_or(""), p.path)
        .replace(' ', "%20")
        .replace(')', "%29");
    format!(
        "[{}]({target})",
        code(&format!("{}:{}:{}", p.path, p.start_line, p.start_column))
    )
}

/// Inline code that survives backticks in the text.
fn code(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// Backslash-escapes the characters Markdown (and GitHub's HTML) would interpret.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#'
        ) {
            out.push('\\');
        }
        if c == '\n' {
            out.push_str("<br>");
        } else {
            out.push(c);
        }
    }
    out
}

/// Escapes what GitHub would read as HTML or a table cell boundary.
fn escape_html(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('<', "\\<")
        .replace('>', "\\>")
        .replace('|', "\\|")
        .replace('\n', "<br>")
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markdown_characters_are_escaped() {
        assert_eq!(escape("a_b *c* <d> |e|"), "a\\_b \\*c\\* \\<d\\> \\|e\\|");
    }
}
