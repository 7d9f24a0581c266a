//! The command line: clap types and one module per command, each thin over the library
//! (`protocompat::check`, the engine, the renderers).

pub mod audit;
pub mod breaking;
pub mod check;
pub mod completions;
pub mod examples;
pub mod explain;
pub mod fix;
pub mod man;
pub mod review;
pub mod rules;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Args;
use protocompat::report::Style;

/// How text output is drawn.
#[derive(Args)]
pub struct DisplayArgs {
    /// Colour: auto (when stdout is a terminal, NO_COLOR is unset and TERM is not `dumb`),
    /// always, never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// Draw with plain ASCII instead of Unicode box characters.
    #[arg(long)]
    ascii: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl DisplayArgs {
    pub fn style(&self) -> Style {
        use std::io::IsTerminal as _;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        // A terminal that says it cannot do escape sequences (Emacs shells, some CI logs).
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        let color = match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !no_color && !dumb && std::io::stdout().is_terminal(),
        };
        Style {
            color,
            unicode: !self.ascii,
            width: terminal_width(),
        }
    }
}

/// `COLUMNS`, else the terminal's width, else 100 (piped output).
fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .or_else(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0)))
        .unwrap_or(100)
}

/// Exit 1 when findings fail the check.
pub fn fail_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes to stdout, ignoring a closed pipe (`protocompat rules | head`).
pub fn print(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    protocompat::engine::timing::phase("print");
}

/// Leaves `value` (a check's outcome, a history, a loader's cache) to the OS: the process
/// exits next, and freeing schemas, texts and syntax trees one allocation at a time would
/// cost ~10% of a large check's CPU on one thread, for memory the OS takes back at once.
pub fn leave_at_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Prints the errors that stopped a command on stderr, each file's text indexed once and
/// capped per file and in all (`report::diagnostics`); returns them indexed, for the formats
/// that list every one.
pub fn print_errors(diagnostics: Vec<miette::Report>) -> Vec<miette::Report> {
    let diagnostics = protocompat::report::diagnostics::indexed(diagnostics);
    let (shown, note) = protocompat::report::diagnostics::capped(&diagnostics);
    for diagnostic in shown {
        eprintln!("{diagnostic:?}");
    }
    if let Some(note) = note {
        eprintln!("{note}");
    }
    diagnostics
}
