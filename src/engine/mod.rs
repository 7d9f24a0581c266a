//! What every command calls: [`analyze`] two schemas under a rule selection (the diff, the
//! rules, then the passes), and [`load`] a schema from a snapshot.
//!
//! The engine knows nothing of the command line or of output formats: a second front end
//! (an editor's language server, `audit` walking history) calls these as `check` does.

mod cache;
pub mod cache_file;
mod clean_cache;
pub mod header;
mod load;
mod modules;
pub mod narrow;
mod sides;
pub mod threads;
pub mod timing;

pub use cache::CacheStats;
pub use load::{
    build, build_reusing, collect, finish, finish_last, list, load, prepare, share_identical,
    unresolved_imports, Collected, Listing, Loaded, Loader, PathFilter,
};
pub use modules::{pair_modules, same_rules};
pub use sides::{collect_sides, Narrowing, Planned, Sides};

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use miette::Report;
use rayon::prelude::*;

use crate::config::Selection;
use crate::diff::Diff;
use crate::finding::{Finding, Sink};
use crate::model::Schema;
use crate::passes::{self, Group, Ignored};
use crate::rules::{self, RuleMeta, Severity};
use crate::source::SourceText;

/// The analysis could not be done; every diagnostic names the revision and path concerned.
#[derive(Debug)]
pub struct Error {
    pub diagnostics: Vec<Report>,
}

impl From<Report> for Error {
    fn from(r: Report) -> Self {
        Error {
            diagnostics: vec![r],
        }
    }
}

impl From<Vec<Report>> for Error {
    fn from(diagnostics: Vec<Report>) -> Self {
        Error { diagnostics }
    }
}

/// What [`analyze`] found between two schemas. Paths are the schemas' own (relative to the
/// module roots), except the paths of `--fix` edits, which [`Naming::shown`] gives.
pub struct Analysis {
    /// Findings still reported, sorted, with group keys and `--fix` edits.
    pub findings: Vec<Finding>,
    /// Findings silenced by `// protocompat:ignore` directives.
    pub ignored: Vec<Ignored>,
    /// Root causes shared by findings (`Finding.group` keys).
    pub groups: Vec<Group>,
    /// Problems with the directives.
    pub warnings: Vec<Report>,
}

/// How the user knows the new side's files, for directive warnings and `--fix` edits.
pub struct Naming<'a> {
    /// What to call the new side (`working tree`, a revision).
    pub new_label: &'a str,
    /// A schema path as the user names the file (relative to ROOT).
    pub shown: &'a dyn Fn(&str) -> String,
}

/// One side of an analysis: its whole build, the compared files and the files they import
/// in one schema, and which of its files are imports.
pub struct Build {
    pub schema: Schema,
    pub imports: HashSet<String>,
}

impl Build {
    /// The compared files and their imports as one build.
    pub fn whole(compared: Schema, imports: Schema) -> Build {
        let mut schema = compared;
        let paths = imports.files.keys().cloned().collect();
        schema.files.extend(imports.files);
        Build {
            schema,
            imports: paths,
        }
    }
}

/// One module as compared: both builds and how their schema paths read relative to ROOT
/// (a path missing from a map reads as it is). `review` reads it beside the diff.
pub struct Compared {
    pub old: Build,
    pub new: Build,
    /// Schema path -> path relative to ROOT, per side.
    pub old_external: HashMap<String, String>,
    pub new_external: HashMap<String, String>,
}

impl Compared {
    /// A schema path of the old side as reported (relative to ROOT).
    pub fn old_path<'a>(&'a self, path: &'a str) -> &'a str {
        self.old_external.get(path).map_or(path, String::as_str)
    }

    /// A schema path of the new side as reported (relative to ROOT).
    pub fn new_path<'a>(&'a self, path: &'a str) -> &'a str {
        self.new_external.get(path).map_or(path, String::as_str)
    }
}

/// Diffs two builds once, runs the selected rules over the diff, then the passes: findings
/// located in imports dropped, the config's ignores, in-source ignore directives, `--fix`
/// edits and grouping by cause.
pub fn analyze(old: &Build, new: &Build, selection: &Selection, naming: &Naming) -> Analysis {
    analyze_with(old, new, selection, naming, |_| ()).0
}

/// [`analyze`], also handing the same diff to `also` (a review lists every change from it), so
/// that a pair of builds is diffed once whatever reads the diff.
pub fn analyze_with<T>(
    old: &Build,
    new: &Build,
    selection: &Selection,
    naming: &Naming,
    also: impl FnOnce(&Diff) -> T,
) -> (Analysis, T) {
    let diff = Diff::new(&old.schema, &new.schema);
    // What the passes need from the diff alone (causes, ignore directives, the one-side
    // lists) is built beside the rules, so both cores stay busy while the last rules run.
    let ((mut findings, causes), (directives, _)) = rayon::join(
        || {
            rayon::join(
                || run_rules(&diff, &selection.rules),
                || passes::group::causes(&diff),
            )
        },
        || {
            rayon::join(
                || passes::ignore::directives(&new.schema, &selection.version),
                || rayon::join(|| diff.added(), || diff.removed()),
            )
        },
    );
    // After the rules: the pair lists they built are there to reuse.
    let extra = also(&diff);
    findings.retain(|f| !passes::located_in_imports(f, &old.imports, &new.imports));
    let (old, new) = (&old.schema, &new.schema);
    findings.retain(|f| !passes::ignored_by_config(f, selection, new, old));
    let display = |path: &str| format!("{} @ {}", (naming.shown)(path), naming.new_label);
    let applied = passes::ignore::apply_directives(new, directives, findings, &display);
    let mut findings = applied.kept;
    passes::fix::attach_edits(&diff, &mut findings, naming.shown);
    let groups = passes::group::assign_causes(&mut findings, causes);
    let analysis = Analysis {
        findings,
        ignored: applied.ignored,
        groups,
        warnings: applied.warnings,
    };
    (analysis, extra)
}

/// Runs the given rules over a diff. Findings come back sorted by new-side location, then
/// rule id, so output is deterministic.
///
/// Rules run in parallel, each into its own list; the lists are joined in rule order, so the
/// result is the same as one thread's. Pair lists a rule builds on first use are shared
/// (`OnceLock`): a second rule asking meanwhile waits for them instead of building them again.
pub fn run_rules(diff: &Diff, rules: &[&'static RuleMeta]) -> Vec<Finding> {
    let per_rule: Vec<Vec<Finding>> = rules
        .par_iter()
        .map(|rule| {
            let mut findings = Vec::new();
            if let Some(check) = rule.check {
                let mut sink = Sink::new(rule.id, rule.direction, &mut findings);
                check(diff, &mut sink);
            }
            findings
        })
        .collect();
    let mut findings = per_rule.concat();
    findings.par_sort_by_cached_key(Finding::sort_key);
    findings
}

/// The text of every compared file on both sides, keyed by the path findings report, and
/// what to call each side (`main`, `working tree`, `index`).
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub old_label: String,
    pub new_label: String,
    /// The old side is a directory on disk (`--against DIR`), not a revision: its paths are
    /// shown as they are (so they stay clickable), and the new side is named by its ROOT.
    pub old_is_dir: bool,
    pub old: HashMap<String, SourceText>,
    pub new: HashMap<String, SourceText>,
    /// The blob id of every compared file whose tree knows it, per side and by the same
    /// paths: also the files a narrowed build did not read (so have no text above).
    pub old_blobs: HashMap<String, crate::source::BlobId>,
    pub new_blobs: HashMap<String, crate::source::BlobId>,
}

/// Facts about the check shown in the text summary.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    pub files_checked: usize,
    pub elapsed: Duration,
}

/// The severity a finding is reported with: its own when it has one, else its rule's.
pub fn severity(finding: &Finding) -> Severity {
    finding
        .severity
        .unwrap_or_else(|| rules::find(finding.rule).map_or(Severity::Error, |r| r.severity))
}

/// (errors, warnings); infos are counted apart by [`infos`].
pub fn counts(findings: &[Finding]) -> (usize, usize) {
    let of = |s: Severity| findings.iter().filter(|f| severity(f) == s).count();
    (of(Severity::Error), of(Severity::Warning))
}

/// How many findings are advice (`info`): they never fail a run.
pub fn infos(findings: &[Finding]) -> usize {
    findings
        .iter()
        .filter(|f| severity(f) == Severity::Info)
        .count()
}

/// How binary and JSON readers differ for the finding's rule; empty when they do not.
pub fn direction_note(finding: &Finding) -> &'static str {
    rules::find(finding.rule).map_or("", |r| r.direction_note)
}

/// Whether the finding is one of protocompat's own HAZARD rules (which buf's formats and the
/// conformance comparison leave out).
pub fn is_hazard(finding: &Finding) -> bool {
    rules::find(finding.rule).is_some_and(|r| r.categories.contains(&rules::HAZARD))
}

/// When findings make the check fail (`--fail-on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FailOn {
    /// Fail when any finding has severity error.
    #[default]
    Error,
    /// Fail on any finding, warnings included.
    Warning,
    /// Never fail because of findings (exit 2 still reports a check that could not be done).
    Never,
}

impl FailOn {
    /// Whether these findings fail the check.
    pub fn fails(self, findings: &[Finding]) -> bool {
        let (errors, warnings) = counts(findings);
        match self {
            FailOn::Error => errors > 0,
            FailOn::Warning => errors + warnings > 0,
            FailOn::Never => false,
        }
    }
}

#[cfg(test)]
mod skip_tests;
#[cfg(test)]
mod tests;
