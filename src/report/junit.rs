//! `--format junit`: JUnit XML as buf prints it — a testsuite per file (named by its path
//! without `.proto`), a failing testcase per finding (`RULE_ID_LINE_COL`).
//!
//! Unlike buf, which prints nothing when there is no finding, an empty `<testsuites>` is
//! printed so that CI steps reading the report always find a valid document.

use std::fmt::Write as _;

use super::Context;
use crate::finding::Finding;

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let mut out = String::from("<testsuites>\n");
    for (path, group) in by_path(findings, ctx) {
        let suite = path.strip_suffix(".proto").unwrap_or(&path);
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{n}\" failures=\"{n}\" errors=\"0\">",
            escape(suite),
            n = group.len()
        );
        for f in group {
            testcase(&mut out, f, ctx);
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Findings grouped by reported path, groups in order of first appearance (as buf does).
fn by_path<'f>(findings: &'f [Finding], ctx: &Context) -> Vec<(String, Vec<&'f Finding>)> {
    let mut groups: Vec<(String, Vec<&Finding>)> = Vec::new();
    for f in findings {
        let path = ctx.primary(f).path;
        match groups.iter_mut().find(|(p, _)| *p == path) {
            Some((_, group)) => group.push(f),
            None => groups.push((path, vec![f])),
        }
    }
    groups
}

fn testcase(out: &mut String, f: &Finding, ctx: &Context) {
    let primary = ctx.primary(f);
    // A deleted file has no line of its own: buf names the testcase by the rule alone.
    let name = if f.location.is_some() {
        format!("{}_{}_{}", f.rule, primary.start_line, primary.start_column)
    } else {
        f.rule.to_string()
    };
    let message = format!(
        "{}:{}:{}:{}",
        primary.path, primary.start_line, primary.start_column, f.message
    );
    let _ = writeln!(out, "    <testcase name=\"{}\">", escape(&name));
    let _ = writeln!(
        out,
        "      <failure message=\"{}\" type=\"{}\"></failure>",
        escape(&message),
        escape(f.rule)
    );
    out.push_str("    </testcase>\n");
}

/// XML attribute escaping as Go's encoding/xml does it (so the bytes match buf's), with
/// characters XML cannot carry replaced by U+FFFD.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' => out.push_str("&#x9;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            c if is_xml_char(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_like_go_encoding_xml() {
        assert_eq!(
            escape("a\"b'c&<>\t\n\r\u{1}"),
            "a&#34;b&#39;c&amp;&lt;&gt;&#x9;&#xA;&#xD;\u{FFFD}"
        );
    }
}
