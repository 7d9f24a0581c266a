//! `--format short`: `path:line:col: severity[RULE_ID]: message`, one line per finding, for
//! editors' error parsers and grep. No summary line, so every line has the same shape. Paths
//! start from the working directory (ROOT's prefix), so editors can open them.

use std::fmt::Write as _;

use super::{severity, Context};
use crate::finding::Finding;

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let mut out = String::new();
    for f in findings {
        // A deleted file is named where it was, from the old side's directory.
        let at = ctx.place(f, ctx.old_prefix, "<unknown>");
        let _ = writeln!(
            out,
            "{}:{}:{}: {}[{}]: {}",
            at.path,
            at.start_line,
            at.start_column,
            severity(f).name(),
            f.rule,
            f.message
        );
    }
    out
}
