//! `--format short`: `path:line:col: severity[RULE_ID]: message`, one line per finding, for
//! editors' error parsers and grep. No summary line, so every line has the same shape. Paths
//! start from the working directory (ROOT's prefix), so editors can open them.

use std::fmt::Write as _;

use super::{severity, Context};
use crate::finding::Finding;

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let mut out = String::new();
    for f in findings {
        let (path, line, col) = match (&f.location, &f.previous) {
            (Some(l), _) => (
                format!("{}{}", ctx.new_prefix, l.path),
                l.start_line,
                l.start_column,
            ),
            // A deleted file: name it where it was.
            (None, Some(p)) => (format!("{}{}", ctx.old_prefix, p.path), 1, 1),
            (None, None) => ("<unknown>".to_string(), 1, 1),
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
