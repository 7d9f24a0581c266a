//! `protocompat review`: every change between ROOT and a revision or directory, breaking or
//! not, classed major/minor/patch, with the SemVer verdict and a conventional-commit type.
//! It runs the same check as `check` (sources, flags, configuration) and lists the diff
//! around its findings.

use std::process::ExitCode;

use clap::Args;
use protocompat::report::review::{self, ReviewContext, ReviewFormat};
use protocompat::review::Class;

use super::check::{distinct, prepare, Prepared, SourceArgs};
use super::{fail_code, print, DisplayArgs};

#[derive(Args)]
pub struct ReviewArgs {
    /// The old side: a git revision, an existing directory, or buf's `.git#branch=main`
    /// syntax (as for `check`).
    #[arg(long, value_name = "REV|DIR")]
    against: String,
    #[command(flatten)]
    source: SourceArgs,
    /// Output format: text (people), markdown (a pull-request description), json (scripts;
    /// see docs/json.md).
    #[arg(long, value_enum, default_value = "text")]
    format: ReviewFormatArg,
    /// Exit 1 when the verdict is at least this class (`major`: a breaking change). Without
    /// it the review exits 0 whatever it lists.
    #[arg(long, value_enum, value_name = "CLASS")]
    fail_on: Option<ClassArg>,
    #[command(flatten)]
    display: DisplayArgs,
}

/// `--format` of `review`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReviewFormatArg {
    /// By file and element, each change with its class and the findings behind it.
    Text,
    /// The verdict first, then a table per file: ready to paste as a pull-request description.
    Markdown,
    /// `{"version":1,"verdict":…,"conventional_commit":…,"changes":[…]}` (docs/json.md).
    Json,
}

/// `--fail-on` of `review`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClassArg {
    Major,
    Minor,
    Patch,
}

impl From<ClassArg> for Class {
    fn from(arg: ClassArg) -> Class {
        match arg {
            ClassArg::Major => Class::Major,
            ClassArg::Minor => Class::Minor,
            ClassArg::Patch => Class::Patch,
        }
    }
}

impl From<ReviewFormatArg> for ReviewFormat {
    fn from(arg: ReviewFormatArg) -> ReviewFormat {
        match arg {
            ReviewFormatArg::Text => ReviewFormat::Text,
            ReviewFormatArg::Markdown => ReviewFormat::Markdown,
            ReviewFormatArg::Json => ReviewFormat::Json,
        }
    }
}

/// `protocompat review`.
pub fn run(args: ReviewArgs) -> ExitCode {
    let rev = args.source.rev();
    let Prepared {
        mut options,
        against,
        direction,
        new_prefix,
        old_prefix,
    } = match prepare(args.source, &args.against, rev) {
        Ok(prepared) => prepared,
        Err(code) => return code,
    };
    options.list_changes = true;
    let mut outcome = match protocompat::check(&options) {
        Ok(outcome) => outcome,
        Err(error) => {
            super::print_errors(error.diagnostics);
            return ExitCode::from(2);
        }
    };
    for warning in distinct(&outcome.warnings) {
        eprintln!("{warning:?}");
    }
    outcome.findings.retain(|f| direction.keeps(f.direction));
    let changes = std::mem::take(&mut outcome.changes);
    let review = protocompat::review::review(changes, &outcome.modules, &outcome.findings);
    let ctx = ReviewContext {
        against: &against,
        new_label: &outcome.sources.new_label,
        style: args.display.style(),
        sources: Some(&outcome.sources),
        new_prefix: &new_prefix,
        old_prefix: &old_prefix,
    };
    print(&review::render(args.format.into(), &review, &ctx));
    let failed = match (args.fail_on, review.verdict()) {
        (Some(level), Some(verdict)) => verdict >= Class::from(level),
        _ => false,
    };
    super::leave_at_exit((outcome, review));
    fail_code(failed)
}
