//! `--format text`: `path:line:col: RULE_ID message`, one line per finding, then a summary.

use std::fmt::Write as _;

use super::counts;
use crate::compare::Finding;

pub fn render(findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        let (path, line, col) = match (&f.location, &f.previous) {
            (Some(l), _) => (l.path.as_str(), l.start_line, l.start_column),
            // A deleted file: point at where it was.
            (None, Some(p)) => (p.path.as_str(), 1, 1),
            (None, None) => ("<unknown>", 1, 1),
        };
        let _ = writeln!(out, "{path}:{line}:{col}: {} {}", f.rule, f.message);
    }
    let (errors, warnings) = counts(findings);
    let _ = match (errors, warnings) {
        (0, 0) => writeln!(out, "No breaking changes."),
        _ => writeln!(
            out,
            "{} breaking change{} ({errors} error{}, {warnings} warning{}).",
            errors + warnings,
            plural(errors + warnings),
            plural(errors),
            plural(warnings)
        ),
    };
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
