//! `--format msvs`: `path(line,col) : error RULE_ID : message`, as buf prints it.

use std::fmt::Write as _;

use super::{severity, Context};
use crate::finding::Finding;

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let mut out = String::new();
    for f in findings {
        // buf prints `<input>(1,1)` for a deleted file; its old path is more useful.
        let p = ctx.primary(f);
        let (path, line, column) = (p.path, p.start_line, p.start_column);
        let _ = writeln!(
            out,
            "{path}({line},{column}) : {} {} : {}",
            severity(f).name(),
            f.rule,
            f.message
        );
    }
    out
}
