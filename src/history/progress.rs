//! The progress bar of long walks (indicatif, on stderr): drawn only when the caller asks
//! for it (text output, never a machine format), stderr is a terminal and the stage is long
//! enough to watch; hidden otherwise, so scripts and CI logs stay clean.

use std::io::IsTerminal as _;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Stages shorter than this (commits or blobs) finish before a bar would be read.
const WORTH_A_BAR: usize = 200;

/// A bar for `total` steps of `what`, or a hidden one.
pub fn bar(enabled: bool, what: &'static str, total: usize) -> ProgressBar {
    if !enabled || total < WORTH_A_BAR || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{msg:>16} [{bar:40}] {pos}/{len} ({eta} left)")
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what);
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_bar_unless_asked_long_and_on_a_terminal() {
        assert!(bar(false, "walking commits", 100_000).is_hidden());
        assert!(bar(true, "walking commits", WORTH_A_BAR - 1).is_hidden());
        // The test harness captures stderr: not a terminal, so no bar either.
        if !std::io::stderr().is_terminal() {
            assert!(bar(true, "walking commits", 100_000).is_hidden());
        }
    }
}
