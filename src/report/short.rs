//! `--format short`: `path:line:col: severity[RULE_ID]: message`, one line per finding, for
//! editors' error parsers and grep. No summary line, so every line has the same shape.

use std::fmt::Write as _;

use super::severity;
use crate::compare::Finding;

pub fn render(findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        let (path, line, col) = match (&f.location, &f.previous) {
            (Some(l), _) => (l.path.as_str(), l.start_line, l.start_column),
            // A deleted file: name it where it was.
            (None, Some(p)) => (p.path.as_str(), 1, 1),
            (None, None) => ("<unknown>", 1, 1),
        };
        let _ = writeln!(
            out,
            "{path}:{line}:{col}: {}[{}]: {}",
            severity(f).name(),
            f.rule,
            f.message
        );
    }
    out
}
