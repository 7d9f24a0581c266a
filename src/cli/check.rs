//! `protocompat check`: compare ROOT with a revision or directory and report the findings.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use protocompat::engine::{is_hazard, FailOn};
use protocompat::report::buf::BufFormat;
use protocompat::report::{self, Format};
use protocompat::rules::DirectionFilter;
use protocompat::{CheckOptions, NewSide};

use super::{fail_code, fix, print, DisplayArgs};
use formats::{DirectionArg, FailOnArg, FormatArg};

pub(super) mod buf_input;
pub mod formats;
mod transitive;

#[derive(Args)]
pub struct CheckArgs {
    /// The old side: a git revision (main, origin/main, v1.2.0, HEAD~3, a short SHA), an
    /// existing directory, an image (a buf image or protoc descriptor set: `.binpb`, `.bin`,
    /// `.pb`, or buf's JSON image `.json`), or buf's `.git#branch=main` / `#tag=v1.0.0` / `#ref=REV` (with
    /// `,subdir=ROOT`).
    #[arg(
        long,
        value_name = "REV|DIR",
        required_unless_present_any = ["pre_push", "transitive"]
    )]
    against: Option<String>,
    #[command(flatten)]
    source: SourceArgs,
    /// For pre-commit's pre-push stage: compare PRE_COMMIT_TO_REF (the pushed commit) with
    /// PRE_COMMIT_FROM_REF (what the remote has). Without them, --against (with the working
    /// tree) if given, else there is nothing to compare and the check passes.
    #[arg(long, conflicts_with_all = ["rev", "staged"])]
    pre_push: bool,
    /// Output format (people, editors, scripts, CI systems; see the values below).
    #[arg(long, value_enum, default_value = "text")]
    format: FormatArg,
    /// Which findings make the exit code 1: errors, any finding, or none.
    #[arg(long, value_enum, default_value = "error", value_name = "LEVEL")]
    fail_on: FailOnArg,
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
    /// buf's `--error-format`: buf's exact output (text, json, msvs, junit, github-actions,
    /// gitlab-code-quality), as `protocompat breaking` prints it; the exit code stays
    /// check's. protocompat's own formats are `--format`.
    #[arg(long, value_name = "FORMAT", conflicts_with = "format", value_parser = parse_buf_format)]
    error_format: Option<BufFormat>,
    /// buf's `--exclude-imports`: accepted so buf's command lines work; it changes nothing,
    /// since only files under ROOT are compared and imported files never are.
    #[arg(long)]
    exclude_imports: bool,
    /// Also judge the new side against the whole history of the --against revision: a number
    /// or name deleted there long ago and used again now fails although --against no longer
    /// has it. Needs the full history (a shallow clone is an error).
    #[arg(long)]
    history: bool,
    /// Check the new side against several revisions (BACKWARD_TRANSITIVE): every tag
    /// matching --tags, or every commit that touched ROOT since --since; each finding is
    /// reported once, with the oldest revision it breaks.
    #[arg(long, conflicts_with_all = ["against", "pre_push", "merge_base", "history", "fix"])]
    transitive: bool,
    /// With --transitive: the tags to check against (a glob, e.g. `v*`).
    #[arg(
        long,
        value_name = "GLOB",
        requires = "transitive",
        conflicts_with = "since"
    )]
    tags: Option<String>,
    /// With --transitive: every commit that touched ROOT from this commit or date
    /// (YYYY-MM-DD) on, on the first-parent history of HEAD (or --rev).
    #[arg(long, value_name = "REV|DATE", requires = "transitive")]
    since: Option<String>,
    #[command(flatten)]
    display: DisplayArgs,
}

/// Where both sides come from, which files are compared, the configuration and the
/// direction: the same for `check` and `review`.
#[derive(Args)]
pub struct SourceArgs {
    /// The directory holding the schema (a subdirectory of the repository is fine), or an
    /// image file (`.binpb`, `.bin`, `.pb`, or buf's JSON image `.json`).
    #[arg(default_value = ".")]
    root: PathBuf,
    /// Read the new side from this git revision instead of the working tree.
    #[arg(long, value_name = "REV", conflicts_with = "staged")]
    rev: Option<String>,
    /// Read the new side from the git index (staged changes).
    #[arg(long)]
    staged: bool,
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
    /// Compare only the files the new side has (buf's `--limit-to-input-files`): the
    /// --against side keeps just those, so a file that is gone is not reported.
    #[arg(long)]
    limit_to_input_files: bool,
    /// Keep the findings that break this way: `backward` (new code reading old data),
    /// `forward` (old code reading new data) or `full` (all). Findings of direction `both`
    /// break either way and are always kept; `source` findings (generated code only, no data
    /// breaks) are kept only by `full`.
    #[arg(long, value_enum, default_value = "full", value_name = "DIRECTION")]
    direction: DirectionArg,
}

impl SourceArgs {
    /// `--rev`: the new side's revision, when not the working tree or the index.
    pub fn rev(&self) -> Option<String> {
        self.rev.clone()
    }

    /// The check's options for these flags: the new side (`rev`, else the index with
    /// `--staged`, else the working tree) against `against`.
    fn into_options(self, against: String, rev: Option<String>) -> CheckOptions {
        CheckOptions {
            root: self.root,
            against,
            new_side: match (rev, self.staged) {
                (Some(rev), _) => NewSide::Rev(rev),
                (None, true) => NewSide::Staged,
                (None, false) => NewSide::Worktree,
            },
            merge_base: self.merge_base,
            git_dir: self.git_dir,
            includes: self.include,
            paths: self.path,
            exclude_paths: self.exclude_path,
            config: self.config,
            against_config: self.against_config,
            allow_missing_imports: self.allow_missing_imports,
            limit_to_input_files: self.limit_to_input_files,
            list_changes: false,
            // Same output as the full build (`engine::narrow`); PROTOCOMPAT_FULL_BUILD=1
            // turns it off.
            narrow: true,
            repo: None,
        }
    }
}

/// A comparison ready to run: the check's options and how to show paths of each side.
pub struct Prepared {
    pub options: CheckOptions,
    /// The old side, with buf's `.git#...` syntax mapped to a revision.
    pub against: String,
    pub new_prefix: String,
    pub old_prefix: String,
    pub direction: DirectionFilter,
}

/// Maps the source flags (and `rev`, the new side's revision when not the working tree) to
/// the check's options. Err: exit now with this code (2 for a bad `--against`, 0 when the
/// repository has no commit to compare with).
pub fn prepare(
    source: SourceArgs,
    against: &str,
    rev: Option<String>,
) -> Result<Prepared, ExitCode> {
    let against = match buf_input::parse(against, &source.root) {
        Ok(mapped) => {
            for note in &mapped.notes {
                eprintln!("protocompat: note: {note}");
            }
            mapped.against
        }
        Err(why) => {
            eprintln!("{:?}", miette::miette!("--against {why}"));
            return Err(ExitCode::from(2));
        }
    };
    // The repository the check reads is found here already, to tell an unborn HEAD: the
    // check takes it rather than opening it again.
    let repo = (against == "HEAD" && source.git_dir.is_none())
        .then(|| protocompat::source::Repo::discover(&source.root).ok())
        .flatten();
    if repo.as_ref().is_some_and(|repo| repo.head_is_unborn()) {
        // The first commit of a repository (the pre-commit hook's --against HEAD): there is
        // no earlier schema that it could break.
        eprintln!("protocompat: HEAD has no commit yet: nothing to compare with");
        return Err(ExitCode::SUCCESS);
    }
    // An image's paths are its own (as the descriptor set names its files), not under a
    // directory of the working tree.
    let new_prefix = match protocompat::source::is_image(&source.root) {
        true => String::new(),
        false => report::path_prefix(&source.root),
    };
    let old_prefix = if std::path::Path::new(&against).is_dir() && !source.merge_base {
        report::path_prefix(std::path::Path::new(&against))
    } else if protocompat::source::is_image(std::path::Path::new(&against)) {
        String::new()
    } else {
        new_prefix.clone()
    };
    let direction = DirectionFilter::from(source.direction);
    let mut options = source.into_options(against.clone(), rev);
    options.repo = repo;
    Ok(Prepared {
        options,
        against,
        new_prefix,
        old_prefix,
        direction,
    })
}

/// `check --transitive --tags GLOB | --since REV|DATE`.
fn run_transitive(args: CheckArgs) -> ExitCode {
    let source = args.source;
    let how = transitive::Reporting {
        format: Format::from(args.format),
        fail_on: FailOn::from(args.fail_on),
        direction: source.direction,
        style: args.display.style(),
        prefix: report::path_prefix(&source.root),
        buf_format: args.error_format,
    };
    // --transitive conflicts with --merge-base: every revision is compared as it is.
    let rev = source.rev.clone();
    let options = source.into_options(String::new(), rev);
    transitive::run(
        &options,
        (args.tags.as_deref(), args.since.as_deref()),
        &how,
    )
}

/// Warnings with distinct messages, first occurrence first: an import missing from both
/// sides is one problem, not two.
pub fn distinct(warnings: &[miette::Report]) -> Vec<&miette::Report> {
    let mut seen = std::collections::HashSet::new();
    warnings
        .iter()
        .filter(|w| seen.insert(w.to_string()))
        .collect()
}

/// buf's `--error-format` names, for `check` and `breaking`.
pub fn parse_buf_format(value: &str) -> Result<BufFormat, String> {
    BufFormat::from_name(value).ok_or_else(|| {
        format!(
            "invalid format `{value}`: buf's formats are {} (protocompat's own formats, such as \
             sarif or markdown, are `--format`)",
            BufFormat::NAMES
        )
    })
}

/// The old side and the new side's revision, from the flags or, with --pre-push, from the
/// refs pre-commit passes. None: nothing to compare (a pre-push without a previous revision).
fn resolve_sides(args: &CheckArgs) -> Option<(String, Option<String>)> {
    if !args.pre_push {
        return Some((args.against.clone()?, args.source.rev.clone()));
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

/// `protocompat check`.
pub fn run(args: CheckArgs) -> ExitCode {
    if args.transitive {
        return run_transitive(args);
    }
    run_as(args, None)
}

/// A check; with `buf` set, reported as `buf breaking --error-format` does (its exact output,
/// exit 100 on findings) for `protocompat breaking`.
pub fn run_as(args: CheckArgs, buf: Option<BufFormat>) -> ExitCode {
    let Some((against, rev)) = resolve_sides(&args) else {
        eprintln!("protocompat: no previous revision to compare with (PRE_COMMIT_FROM_REF is not set): nothing to check");
        return ExitCode::SUCCESS;
    };
    // --exclude-imports needs nothing: imported files are never compared.
    let _ = args.exclude_imports;
    let Prepared {
        options,
        against,
        new_prefix,
        old_prefix,
        direction,
    } = match prepare(args.source, &against, rev) {
        Ok(prepared) => prepared,
        Err(code) => return code,
    };
    if !args.history {
        // A tiny check (a pre-commit hook of a few files) runs on this thread alone; the
        // history walk after a check would then too, so not with --history.
        protocompat::engine::threads::allow_one_thread();
    }
    if args.fix {
        if let Err(code) = fix::refuse_unless_on_disk(&options) {
            return code;
        }
    }
    let mut result = protocompat::check(&options);
    if let (true, Ok(outcome)) = (args.fix, &result) {
        match fix::run(&options, outcome, args.dry_run, &new_prefix) {
            Err(code) => return code,
            Ok(fix::Then::CheckAgain) => {
                let fixed = std::mem::replace(&mut result, protocompat::check(&options));
                super::leave_at_exit(fixed);
            }
            Ok(fix::Then::Report) => {}
            Ok(fix::Then::Exit) => {
                for warning in distinct(&outcome.warnings) {
                    eprintln!("{warning:?}");
                }
                let code = fail_code(FailOn::from(args.fail_on).fails(&outcome.findings));
                super::leave_at_exit(result);
                return code;
            }
        }
    }
    let history_options = args.history.then(|| protocompat::history::AuditOptions {
        root: options.root.clone(),
        git_dir: options.git_dir.clone(),
        rev: against.clone(),
        paths: options.paths.clone(),
        exclude_paths: options.exclude_paths.clone(),
        includes: options.includes.clone(),
        config: options.config.clone(),
        cache: true,
        ..Default::default()
    });
    let format = Format::from(args.format);
    // `breaking` prints buf's output and exits as buf; `check --error-format` prints buf's
    // output and keeps check's exit codes.
    let buf_exit = buf.is_some();
    let buf = buf.or(args.error_format);
    match result {
        Ok(mut outcome) => {
            if let Some(opts) = history_options {
                if let Err(code) =
                    super::audit::add_history_findings(&opts, !options.merge_base, &mut outcome)
                {
                    return code;
                }
            }
            outcome.findings.retain(|f| direction.keeps(f.direction));
            if buf.is_some() {
                // buf's formats show what buf reports: protocompat's own hazards stay out.
                outcome.findings.retain(|f| !is_hazard(f));
            }
            let mut check_warnings = Vec::new();
            for warning in distinct(&outcome.warnings) {
                eprintln!("{warning:?}");
                if format == Format::Github {
                    println!("{}", report::warning_annotation(&warning.to_string()));
                }
                check_warnings.push(warning.to_string());
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
                categories_run: Some(&outcome.categories_run),
                check_warnings: &check_warnings,
            };
            match buf {
                Some(buf) => print(&report::buf::render(buf, &outcome.findings, &ctx)),
                None => print(&report::render(format, &outcome.findings, &ctx)),
            }
            let code = match buf_exit {
                // buf's exit code for "the check ran and found breaking changes".
                true if outcome.findings.is_empty() => ExitCode::SUCCESS,
                true => ExitCode::from(100),
                false => fail_code(FailOn::from(args.fail_on).fails(&outcome.findings)),
            };
            super::leave_at_exit(outcome);
            code
        }
        Err(error) => {
            let diagnostics = super::print_errors(error.diagnostics);
            let Some(buf) = buf else {
                let failures: Vec<report::failure::Failure> = diagnostics
                    .iter()
                    .map(report::failure::Failure::from_diagnostic)
                    .collect();
                print(&report::failure::render(format, &failures));
                return ExitCode::from(2);
            };
            // buf's formats list every compile error (the cap is for the text on stderr).
            match (buf_compile_errors(buf, &diagnostics), buf_exit) {
                (compiled, true) => compiled,
                (_, false) => ExitCode::from(2),
            }
        }
    }
}

/// What `buf breaking` does when a side does not compile: the files' errors in its
/// `--error-format` on stdout (`COMPILE` entries), and buf's exit code: 100, or 1 for a
/// failure with no place in a file (a revision that cannot be read).
fn buf_compile_errors(buf: BufFormat, diagnostics: &[miette::Report]) -> ExitCode {
    let located: Vec<_> = diagnostics
        .iter()
        .filter_map(report::buf::CompileError::from_diagnostic)
        .collect();
    if located.is_empty() {
        return ExitCode::from(1);
    }
    print(&report::buf::render_compile_errors(buf, &located));
    ExitCode::from(100)
}
