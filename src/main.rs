//! The `protocompat` command line.

#![forbid(unsafe_code)]

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

mod examples;

use clap::{Args, CommandFactory as _, Parser, Subcommand};
use protocompat::config::Config;
use protocompat::report::{self, FailOn, Format};
use protocompat::rules::{DirectionFilter, RuleMeta, RULES};
use protocompat::{CheckOptions, NewSide};

mod fix_cli;

/// Finds breaking changes in Protocol Buffers schemas between git revisions or directories.
#[derive(Parser)]
#[command(name = "protocompat", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compare ROOT (the working tree, or --rev / --staged) against a revision or directory.
    #[command(after_help = examples::CHECK)]
    // Boxed: the check's many options would make every other command as large.
    Check(Box<CheckArgs>),
    /// List the rules: id, categories, default, summary.
    #[command(after_help = examples::RULES)]
    Rules(RulesArgs),
    /// Show a rule's documentation: what it detects, why it breaks, an example, the fix.
    #[command(after_help = examples::EXPLAIN)]
    Explain(ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = examples::COMPLETIONS)]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) for man(1).
    #[command(after_help = examples::MAN)]
    Man,
}

#[derive(Args)]
struct ExplainArgs {
    /// The rule id, e.g. FIELD_NO_DELETE.
    rule: String,
    #[command(flatten)]
    display: DisplayArgs,
}

/// How text output is drawn.
#[derive(Args)]
struct DisplayArgs {
    /// Colour: auto (when stdout is a terminal and NO_COLOR is unset), always, never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// Draw with plain ASCII instead of Unicode box characters.
    #[arg(long)]
    ascii: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl DisplayArgs {
    fn style(&self) -> report::Style {
        use std::io::IsTerminal as _;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !no_color && std::io::stdout().is_terminal(),
        };
        report::Style {
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

#[derive(Args)]
struct CheckArgs {
    /// The directory holding the schema (a subdirectory of the repository is fine).
    #[arg(default_value = ".")]
    root: PathBuf,
    /// The old side: a git revision (main, origin/main, v1.2.0, HEAD~3, a short SHA) or an
    /// existing directory.
    #[arg(long, value_name = "REV|DIR", required_unless_present = "pre_push")]
    against: Option<String>,
    /// Read the new side from this git revision instead of the working tree.
    #[arg(long, value_name = "REV", conflicts_with = "staged")]
    rev: Option<String>,
    /// Read the new side from the git index (staged changes).
    #[arg(long)]
    staged: bool,
    /// For pre-commit's pre-push stage: compare PRE_COMMIT_TO_REF (the pushed commit) with
    /// PRE_COMMIT_FROM_REF (what the remote has). Without them, --against (with the working
    /// tree) if given, else there is nothing to compare and the check passes.
    #[arg(long, conflicts_with_all = ["rev", "staged"])]
    pre_push: bool,
    /// Compare against the merge base of the new side's commit (HEAD unless --rev) and --against.
    #[arg(long)]
    merge_base: bool,
    /// The git directory to read (e.g. a bare repository).
    #[arg(long, value_name = "DIR")]
    git_dir: Option<PathBuf>,
    /// An include root for imports, read from the same revision as each side.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Only compare files under this path (relative to ROOT). Repeatable.
    #[arg(long, value_name = "PATH")]
    path: Vec<String>,
    /// Leave out files under this path (relative to ROOT). Repeatable.
    #[arg(long, value_name = "PATH")]
    exclude_path: Vec<String>,
    /// A configuration file (protocompat .toml or buf .yaml); overrides those at ROOT.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// buf's `--against-config`: a buf.yaml giving the layout (roots, modules) of the
    /// `--against` side instead of the configuration stored there; the rules still come from
    /// the new side.
    #[arg(long, value_name = "FILE")]
    against_config: Option<PathBuf>,
    /// Compare even when an import cannot be found: names from the missing files are compared
    /// as written and each missing import is a warning. Without it, that is an error (exit 2).
    #[arg(long)]
    allow_missing_imports: bool,
    /// Output format (people, editors, scripts, CI systems; see the values below).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Which findings make the exit code 1: errors, any finding, or none.
    #[arg(long, value_enum, default_value = "error", value_name = "LEVEL")]
    fail_on: FailOn,
    /// Keep the findings that break this way: `backward` (new code reading old data),
    /// `forward` (old code reading new data) or `full` (all). Findings of direction `both`
    /// break either way and are always kept; `source` findings (generated code only, no data
    /// breaks) are kept only by `full`.
    #[arg(long, value_enum, default_value = "full", value_name = "DIRECTION")]
    direction: DirectionFilter,
    /// Base URL for file links in `--format markdown`
    /// (e.g. https://github.com/OWNER/REPO/blob/SHA/).
    #[arg(long, value_name = "URL")]
    link_base: Option<String>,
    /// Add the missing `reserved` numbers and names for deleted fields and enum values to
    /// the files on disk, then check again (the exit code reflects what remains).
    #[arg(long)]
    fix: bool,
    /// With --fix: print the unified diff of the fixes and change nothing.
    #[arg(long, requires = "fix")]
    dry_run: bool,
    /// List the findings silenced by `// protocompat:ignore` comments.
    #[arg(long)]
    show_ignored: bool,
    /// buf's `--error-format`: its value names are accepted (`text` is buf's one-line format,
    /// our `short`), as are ours.
    #[arg(long, value_name = "FORMAT", conflicts_with = "format", value_parser = parse_buf_format)]
    error_format: Option<Format>,
    #[command(flatten)]
    display: DisplayArgs,
}

fn parse_buf_format(value: &str) -> Result<Format, String> {
    Format::from_buf_name(value).ok_or_else(|| format!("unknown format `{value}`"))
}

#[derive(Args)]
struct RulesArgs {
    /// Show the rules as this configuration file selects them (version, categories, used).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Include deprecated rule ids.
    #[arg(long)]
    all: bool,
}

fn main() -> ExitCode {
    // Long paths and messages stay on one line so they can be searched and copied.
    miette::set_hook(Box::new(|_| {
        Box::new(
            miette::MietteHandlerOpts::new()
                .wrap_lines(false)
                .width(200)
                .build(),
        )
    }))
    .ok();
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => run_check(*args),
        Command::Rules(args) => run_rules(args),
        Command::Explain(args) => run_explain(args),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "protocompat", &mut out);
            print(&String::from_utf8_lossy(&out));
            ExitCode::SUCCESS
        }
        Command::Man => {
            let mut out = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut out) {
                Ok(()) => {
                    print(&String::from_utf8_lossy(&out));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: could not render the manual page: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// Whether ROOT is in a git repository whose current branch has no commit yet.
fn head_is_unborn(root: &std::path::Path) -> bool {
    git2::Repository::discover(root)
        .and_then(|repo| repo.head().map(|_| ()))
        .is_err_and(|e| e.code() == git2::ErrorCode::UnbornBranch)
}

/// The old side and the new side's revision, from the flags or, with --pre-push, from the
/// refs pre-commit passes. None: nothing to compare (a pre-push without a previous revision).
fn resolve_sides(args: &CheckArgs) -> Option<(String, Option<String>)> {
    if !args.pre_push {
        return Some((args.against.clone()?, args.rev.clone()));
    }
    let from = std::env::var("PRE_COMMIT_FROM_REF")
        .ok()
        .filter(|r| !r.is_empty());
    let to = std::env::var("PRE_COMMIT_TO_REF")
        .ok()
        .filter(|r| !r.is_empty());
    match (from, to) {
        (Some(from), Some(to)) => Some((from, Some(to))),
        (Some(from), None) => Some((from, None)),
        (None, _) => args.against.clone().map(|against| (against, None)),
    }
}

fn run_check(args: CheckArgs) -> ExitCode {
    let Some((against, rev)) = resolve_sides(&args) else {
        eprintln!("protocompat: no previous revision to compare with (PRE_COMMIT_FROM_REF is not set): nothing to check");
        return ExitCode::SUCCESS;
    };
    if against == "HEAD" && args.git_dir.is_none() && head_is_unborn(&args.root) {
        // The first commit of a repository (the pre-commit hook's --against HEAD): there is
        // no earlier schema that it could break.
        eprintln!("protocompat: HEAD has no commit yet: nothing to compare with");
        return ExitCode::SUCCESS;
    }
    let new_prefix = report::path_prefix(&args.root);
    let old_prefix = if std::path::Path::new(&against).is_dir() && !args.merge_base {
        report::path_prefix(std::path::Path::new(&against))
    } else {
        new_prefix.clone()
    };
    let options = CheckOptions {
        root: args.root,
        against: against.clone(),
        new_side: match (rev, args.staged) {
            (Some(rev), _) => NewSide::Rev(rev),
            (None, true) => NewSide::Staged,
            (None, false) => NewSide::Worktree,
        },
        merge_base: args.merge_base,
        git_dir: args.git_dir,
        includes: args.include,
        paths: args.path,
        exclude_paths: args.exclude_path,
        config: args.config,
        against_config: args.against_config,
        allow_missing_imports: args.allow_missing_imports,
    };
    if args.fix {
        if let Err(code) = fix_cli::refuse_unless_on_disk(&options) {
            return code;
        }
    }
    let mut result = protocompat::check(&options);
    if let (true, Ok(outcome)) = (args.fix, &result) {
        match fix_cli::run(&options, outcome, args.dry_run, &new_prefix) {
            Err(code) => return code,
            Ok(fix_cli::Then::CheckAgain) => result = protocompat::check(&options),
            Ok(fix_cli::Then::Report) => {}
            Ok(fix_cli::Then::Exit) => {
                for warning in &outcome.warnings {
                    eprintln!("{warning:?}");
                }
                return fail_code(args.fail_on.fails(&outcome.findings));
            }
        }
    }
    match result {
        Ok(mut outcome) => {
            outcome
                .findings
                .retain(|f| args.direction.keeps(f.direction));
            if args.error_format.is_some() {
                // buf's formats show what buf reports: protocompat's own hazards stay out.
                outcome.findings.retain(|f| !is_hazard(f.rule));
            }
            for warning in &outcome.warnings {
                eprintln!("{warning:?}");
            }
            let ctx = report::Context {
                config_version: &outcome.config_version,
                sources: Some(&outcome.sources),
                groups: &outcome.groups,
                stats: Some(outcome.stats),
                style: args.display.style(),
                against: &against,
                new_prefix: &new_prefix,
                old_prefix: &old_prefix,
                link_base: args.link_base.as_deref(),
                ignored: &outcome.ignored,
                show_ignored: args.show_ignored,
            };
            let format = args.error_format.unwrap_or(args.format);
            print(&report::render(format, &outcome.findings, &ctx));
            if args.fail_on.fails(&outcome.findings) {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(error) => {
            for diagnostic in &error.diagnostics {
                eprintln!("{diagnostic:?}");
            }
            ExitCode::from(2)
        }
    }
}

fn is_hazard(rule: &str) -> bool {
    protocompat::rules::find(rule).is_some_and(|r| r.categories.contains(&protocompat::rules::HAZARD))
}

fn fail_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run_rules(args: RulesArgs) -> ExitCode {
    let config = match &args.config {
        Some(path) => match Config::from_path(path) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("{e:?}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let version = config.as_ref().map_or("v2", |c| c.version.as_str());
    let used: Option<Vec<&str>> = match config.as_ref().map(Config::select) {
        Some(Ok(selection)) => Some(selection.rules.iter().map(|r| r.id).collect()),
        Some(Err(e)) => {
            eprintln!("{e:?}");
            return ExitCode::from(2);
        }
        None => None,
    };
    let shown: Vec<&RuleMeta> = RULES
        .iter()
        .filter(|r| r.versions.contains(&version) && (args.all || !r.deprecated))
        .collect();
    let mut out = String::new();
    let width = shown.iter().map(|r| r.id.len()).max().unwrap_or(2);
    let cat_width = shown
        .iter()
        .map(|r| report::categories(r.id, version).join(",").len())
        .max()
        .unwrap_or(0)
        .max("CATEGORIES".len());
    let header = match used {
        Some(_) => format!(
            "{:width$}  {:cat_width$}  {:7}  {:4}  SUMMARY\n",
            "ID", "CATEGORIES", "DEFAULT", "USED"
        ),
        None => format!(
            "{:width$}  {:cat_width$}  {:7}  SUMMARY\n",
            "ID", "CATEGORIES", "DEFAULT"
        ),
    };
    out.push_str(&header);
    for rule in shown {
        let categories = report::categories(rule.id, version).join(",");
        let default = if rule.default { "yes" } else { "no" };
        let summary = if rule.deprecated {
            format!("(deprecated) {}", rule.summary)
        } else {
            rule.summary.to_string()
        };
        match &used {
            Some(used) => {
                let on = if used.contains(&rule.id) { "yes" } else { "no" };
                out.push_str(&format!(
                    "{:width$}  {categories:cat_width$}  {default:7}  {on:4}  {summary}\n",
                    rule.id
                ));
            }
            None => out.push_str(&format!(
                "{:width$}  {categories:cat_width$}  {default:7}  {summary}\n",
                rule.id
            )),
        }
    }
    print(&out);
    ExitCode::SUCCESS
}

fn run_explain(args: ExplainArgs) -> ExitCode {
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

/// Writes to stdout, ignoring a closed pipe (`protocompat rules | head`).
fn print(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}
