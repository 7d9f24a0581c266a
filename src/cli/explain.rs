//! `protocompat explain RULE`: a rule's documentation, rendered for the terminal.

use std::process::ExitCode;

use clap::Args;
use protocompat::report;

use super::{print, DisplayArgs};

#[derive(Args)]
pub struct ExplainArgs {
    /// The rule id, e.g. FIELD_NO_DELETE.
    rule: String,
    #[command(flatten)]
    display: DisplayArgs,
}

/// `protocompat explain RULE`.
pub fn run(args: ExplainArgs) -> ExitCode {
    if let Some(rule) = report::explain::lookup(&args.rule) {
        print(&report::explain::render(rule, args.display.style()));
        return ExitCode::SUCCESS;
    }
    let suggestions = report::explain::suggestions(&args.rule);
    let hint = match suggestions.as_slice() {
        [] => "run `protocompat rules --all` to list the rule ids".to_string(),
        [one] => format!("did you mean `{one}`?"),
        many => format!(
            "did you mean one of {}?",
            many.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    eprintln!(
        "{:?}",
        miette::miette!(help = hint, "unknown rule id `{}`", args.rule)
    );
    ExitCode::from(2)
}
