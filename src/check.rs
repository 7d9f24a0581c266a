//! `check`: open both sides, resolve the configuration, then load and analyze each module
//! pair. Each step is a named piece of `source`, `config` and `engine`; this file only
//! strings them together and names paths as the user knows them (relative to ROOT).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use miette::{miette, Report};

use crate::config::{self, Layout, Selection};
pub use crate::engine::Error;
use crate::engine::{self, Collected, Compared, Naming, PathFilter, Sources, Stats};
use crate::finding::{Finding, Location};
use crate::link;
use crate::passes::{Group, Ignored};
use crate::review::{self, Change};
pub use crate::source::NewSide;
use crate::source::{self, is_within, normalize, Request, Snapshot, SourceText};

#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// The compared root (a directory on disk, or a path inside the repository).
    pub root: PathBuf,
    /// A git revspec or an existing directory.
    pub against: String,
    pub new_side: NewSide,
    /// Compare against the merge base of the new side's commit and `against`.
    pub merge_base: bool,
    pub git_dir: Option<PathBuf>,
    /// Include roots for imports, read from the same revision as each side.
    pub includes: Vec<PathBuf>,
    /// Only files under these paths (relative to ROOT) are compared.
    pub paths: Vec<String>,
    pub exclude_paths: Vec<String>,
    /// An explicit configuration file (.toml or .yaml).
    pub config: Option<PathBuf>,
    /// A buf.yaml whose layout replaces the old side's own (buf's `--against-config`).
    pub against_config: Option<PathBuf>,
    /// Compare even when an import cannot be found (names from it are kept as written and
    /// each missing import is a warning); by default that is an error.
    pub allow_missing_imports: bool,
    /// buf's `--limit-to-input-files`: the old side keeps only the files the new side has,
    /// so files that are gone (deleted, or outside the new side's `--path`) are not compared.
    pub limit_to_input_files: bool,
    /// Also list every change between the sides, breaking or not (`review`), from the diff
    /// the rules read: [`Outcome::changes`].
    pub list_changes: bool,
    /// Build only the files that can give a finding or an error, when the repository's
    /// cache (`<git dir>/protocompat/narrow.bin`) knows the others built clean: the same
    /// output as building everything (see `engine::narrow`). Ignored with
    /// [`CheckOptions::list_changes`], and when `PROTOCOMPAT_FULL_BUILD` is set.
    pub narrow: bool,
    /// The repository ROOT is in, when the caller has opened it already (the command line,
    /// to tell an unborn HEAD): found from ROOT as `git` finds it, so the check need not
    /// open it again. Ignored with [`CheckOptions::git_dir`].
    pub repo: Option<source::Repo>,
}

impl CheckOptions {
    fn request(&self) -> Request<'_> {
        Request {
            root: &self.root,
            against: &self.against,
            new_side: &self.new_side,
            merge_base: self.merge_base,
            git_dir: self.git_dir.as_deref(),
            includes: &self.includes,
            repo: self.repo.as_ref(),
        }
    }

    fn filter(&self) -> PathFilter<'_> {
        PathFilter {
            paths: &self.paths,
            exclude_paths: &self.exclude_paths,
        }
    }
}

/// The result of a check that could be done.
pub struct Outcome {
    /// Sorted findings; paths are relative to ROOT.
    pub findings: Vec<Finding>,
    /// The buf config version whose categories apply.
    pub config_version: String,
    /// The categories whose every rule ran (in every module), in buf's order: the summary
    /// counts findings only by these.
    pub categories_run: Vec<&'static str>,
    /// Non-fatal diagnostics: deprecated rule ids, unresolved imports, ignore directives.
    pub warnings: Vec<Report>,
    /// Findings silenced by `// protocompat:ignore` directives (paths relative to ROOT).
    pub ignored: Vec<Ignored>,
    /// Root causes shared by findings (`Finding.group` keys).
    pub groups: Vec<Group>,
    /// Both sides' texts and labels, for the text format's snippets.
    pub sources: Sources,
    pub stats: Stats,
    /// Both sides' builds of every module, kept as long as the outcome: a process that exits
    /// after rendering can `std::mem::forget` the outcome instead of freeing them.
    pub modules: Vec<Compared>,
    /// Every change of every module, before findings are hung on them; empty unless
    /// [`CheckOptions::list_changes`].
    pub changes: Vec<Change>,
    /// What each module's builds kept for a later build to take (`link::Reuse`, both
    /// sides): of no use once the new side is built, but freeing it took ~0.3 s of one
    /// thread after the rules on googleapis (its custom options and replay traces are
    /// millions of allocations made on other threads). Kept with the outcome, it goes with
    /// it: to the OS at exit where the command leaves the outcome there.
    pub spent: Vec<crate::link::Reuse>,
}

pub fn check(opts: &CheckOptions) -> Result<Outcome, Error> {
    check_loading(opts, None)
}

/// As [`check`], reading both sides through `loader`: checks of one new side against many
/// revisions (`check --transitive`) read and parse each blob once across them all, where
/// [`check`] reads through a loader of its own per module, freed before the builds.
pub fn check_with(opts: &CheckOptions, loader: &engine::Loader) -> Result<Outcome, Error> {
    check_loading(opts, Some(loader))
}

fn check_loading(opts: &CheckOptions, loader: Option<&engine::Loader>) -> Result<Outcome, Error> {
    let started = std::time::Instant::now();
    let mut warnings: Vec<Report> = Vec::new();
    let (new, old, git_dir) = source::open_sides(&opts.request(), &mut warnings)?;
    engine::threads::choose(known_size(&new, &old));
    let resolved = config::resolve(
        (opts.config.as_deref(), opts.against_config.as_deref()),
        &*new.root,
        &*old.root,
        &mut warnings,
    )?;
    let selections = &resolved.selections;
    let uniform = selections
        .windows(2)
        .all(|w| engine::same_rules(&w[0], &w[1]));
    engine::timing::phase("open");
    let pairs = engine::pair_modules(
        &resolved.new_layout,
        &resolved.old_layout,
        uniform,
        (new.label(), old.label()),
    )?;
    let mut findings = Vec::new();
    let mut silenced = Vec::new();
    let mut groups = Vec::new();
    let mut sources = Sources {
        old_label: old.label().to_string(),
        new_label: new.label().to_string(),
        old_is_dir: opts.request().against_is_dir(),
        old: HashMap::new(),
        new: HashMap::new(),
        old_blobs: HashMap::new(),
        new_blobs: HashMap::new(),
    };
    let mut files_checked = 0;
    let mut compared = Vec::new();
    let mut modules = Vec::new();
    let mut changes = Vec::new();
    let mut spent = Vec::new();
    let narrowing = (opts.narrow && !opts.list_changes)
        .then_some(git_dir)
        .flatten()
        .and_then(engine::Narrowing::open);
    for (new_module, old_module) in pairs {
        let mut module_warnings = Vec::new();
        let result = check_module(
            (&new, &resolved.new_layout, new_module),
            (&old, &resolved.old_layout, old_module),
            &selections[new_module],
            (opts, &resolved.deps),
            (loader, narrowing.as_ref()),
            &mut module_warnings,
        );
        if let Some(narrowing) = &narrowing {
            narrowing.save();
        }
        let result = result?;
        warnings.extend(module_warnings);
        findings.extend(result.findings);
        silenced.extend(result.ignored);
        groups.extend(result.groups);
        sources.old.extend(result.old_texts);
        sources.new.extend(result.new_texts);
        sources.old_blobs.extend(blobs(&result.old_files));
        sources.new_blobs.extend(blobs(&result.new_files));
        files_checked += result.files_checked;
        compared.extend(result.compared);
        modules.push(result.compared_builds);
        changes.extend(result.changes);
        spent.extend(result.spent);
    }
    engine::timing::phase("modules");
    something_compared(opts, &compared, &new, &old)?;
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    silenced.sort_by(|a: &Ignored, b: &Ignored| a.finding.sort_key().cmp(&b.finding.sort_key()));
    Ok(Outcome {
        findings,
        categories_run: categories_run(selections),
        config_version: resolved.config.version.clone(),
        warnings,
        ignored: silenced,
        groups,
        sources,
        stats: Stats {
            files_checked,
            elapsed: started.elapsed(),
        },
        modules,
        changes,
        spent,
    })
}

/// How many files a check reads, when that is known before anything is read: the new side
/// is the index (the pre-commit hook), and no include root adds imports. The old side (a
/// commit) is not counted: it differs from the index by what is staged.
fn known_size(new: &Snapshot, old: &Snapshot) -> Option<usize> {
    if !new.includes.is_empty() || !old.includes.is_empty() {
        return None;
    }
    new.root.proto_count()
}

/// The categories all of whose rules (under each selection's config version) were selected
/// in every module.
fn categories_run(selections: &[config::Selection]) -> Vec<&'static str> {
    crate::rules::CATEGORIES
        .iter()
        .copied()
        .filter(|category| {
            selections.iter().all(|selection| {
                crate::rules::RULES
                    .iter()
                    .filter(|r| {
                        !r.deprecated
                            && r.versions.contains(&selection.version.as_str())
                            && r.categories_for(&selection.version).contains(category)
                    })
                    .all(|r| selection.rules.iter().any(|s| s.id == r.id))
            })
        })
        .collect()
}

/// As buf: a check that targets no file at all, or a `--path` that matches no file on either
/// side, is an error rather than a silent pass.
fn something_compared(
    opts: &CheckOptions,
    compared: &[String],
    new: &Snapshot,
    old: &Snapshot,
) -> Result<(), Report> {
    let sides = format!("@ {} or @ {}", new.label(), old.label());
    for path in &opts.paths {
        let wanted = normalize(path);
        if !compared.iter().any(|c| is_within(c, &wanted)) {
            return Err(miette!(
                help = "--path is relative to ROOT",
                "--path {path}: no .proto file under it {sides}"
            ));
        }
    }
    if compared.is_empty() {
        return Err(miette!(
            help = "check ROOT, --path and --exclude-path",
            "no .proto file to compare under {} {sides}",
            opts.root.display()
        ));
    }
    Ok(())
}

/// Loads one module at both sides and analyzes it; findings come back with paths
/// relative to ROOT.
fn check_module(
    (new, new_layout, new_module): (&Snapshot, &Layout, usize),
    (old, old_layout, old_module): (&Snapshot, &Layout, usize),
    selection: &Selection,
    (opts, deps): (&CheckOptions, &[String]),
    (shared, narrowing): (Option<&engine::Loader>, Option<&engine::Narrowing>),
    warnings: &mut Vec<Report>,
) -> Result<ModuleResult, Error> {
    let filter = opts.filter();
    // One loader for both sides, one side after the other (each on every core): a file
    // with the same blob at both revisions is read and parsed once, and both builds share
    // its text and tree. Our own loader goes before the builds, so each tree is freed as
    // soon as both sides have lowered it; a shared one keeps them for the next check.
    let own = shared.is_none().then(engine::Loader::new);
    let loader = shared.or(own.as_ref()).expect("a loader");
    let sides = engine::collect_sides(
        loader,
        (new, new_layout, new_module),
        (old, old_layout, old_module),
        &filter,
        opts.limit_to_input_files,
        narrowing,
    );
    drop(own);
    let engine::Sides {
        new: mut new_files,
        old: mut old_files,
        planned,
    } = sides?;
    engine::timing::phase("collect");

    // The old side builds while the new side is prepared (imports loaded, symbols
    // collected: mostly one thread each, so both cores stay busy); the new side then lowers,
    // taking the old side's model of each file unchanged with all it imports.
    // The new side's files with the same text at the old side are likely taken from the
    // old build: their trees go as soon as their symbols are collected (see
    // `link::Prepared::release_trees`), not after the old side is built.
    let old_texts: HashMap<String, Arc<str>> = old_files
        .files
        .iter()
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();
    let likely_taken = |file: &link::SourceFile| {
        old_texts
            .get(&file.path)
            .is_some_and(|text| Arc::ptr_eq(text, &file.text) || *text == file.text)
    };
    let (old_built, new_prepared) = rayon::join(
        || engine::build(&mut old_files),
        || {
            engine::prepare(&mut new_files).map(|mut prepared| {
                prepared.release_trees(likely_taken);
                prepared
            })
        },
    );
    drop(old_texts);
    let old_reuse = old_built.as_ref().ok().map(|old| &old.reuse);
    let new_built = new_prepared.and_then(|new| engine::finish_last(new, old_reuse));
    let (new_built, old_built) = match (new_built, old_built) {
        (Ok(n), Ok(o)) => (n, o),
        (n, o) => {
            let mut diagnostics = Vec::new();
            for side in [o, n] {
                if let Err(e) = side {
                    diagnostics.extend(e.diagnostics);
                }
            }
            return Err(Error { diagnostics });
        }
    };
    engine::timing::phase("build");
    engine::unresolved_imports(
        [old_built.unresolved_imports, new_built.unresolved_imports],
        (opts.allow_missing_imports, deps),
        warnings,
    )?;
    if let Some(narrowing) = narrowing {
        narrowing.record(planned);
    }

    let compared_builds = Compared {
        old: engine::Build::whole(old_built.schema, old_built.imports),
        new: engine::Build::whole(new_built.schema, new_built.imports),
        old_external: std::mem::take(&mut old_files.external),
        new_external: std::mem::take(&mut new_files.external),
    };
    let (old_external, new_external) =
        (&compared_builds.old_external, &compared_builds.new_external);
    let shown = |path: &str| external(path, new_external).to_string();
    let (analysis, changes) = engine::analyze_with(
        &compared_builds.old,
        &compared_builds.new,
        selection,
        &Naming {
            new_label: new.label(),
            shown: &shown,
        },
        |diff| {
            if opts.list_changes {
                review::changes(diff, &compared_builds)
            } else {
                Vec::new()
            }
        },
    );
    engine::timing::phase("analyze");
    warnings.extend(analysis.warnings);
    let (mut findings, mut silenced, mut groups) =
        (analysis.findings, analysis.ignored, analysis.groups);
    for f in findings
        .iter_mut()
        .chain(silenced.iter_mut().map(|i| &mut i.finding))
    {
        relabel(&mut f.location, new_external);
        relabel(&mut f.previous, old_external);
    }
    for i in &mut silenced {
        i.directive.path = external(&i.directive.path, new_external).to_string();
    }
    for g in &mut groups {
        relabel(&mut g.location, new_external);
        relabel(&mut g.previous, old_external);
    }
    if !new.root.positions() {
        let tree = new.root.as_ref();
        for f in &mut findings {
            to_original(&mut f.location, tree);
        }
        for g in &mut groups {
            to_original(&mut g.location, tree);
        }
    }
    if !old.root.positions() {
        let tree = old.root.as_ref();
        for f in &mut findings {
            to_original(&mut f.previous, tree);
            f.focus = None;
        }
        for g in &mut groups {
            to_original(&mut g.previous, tree);
        }
    }
    let mut changes = changes;
    for change in &mut changes {
        to_original_line(change, (new.root.as_ref(), old.root.as_ref()));
    }
    Ok(ModuleResult {
        findings,
        ignored: silenced,
        groups,
        old_texts: texts(&old_files, old_external),
        new_texts: texts(&new_files, new_external),
        old_files: listed(&old_files),
        new_files: listed(&new_files),
        files_checked: files_checked(&old_files, &new_files),
        compared: old_files
            .compared
            .iter()
            .chain(&new_files.compared)
            .cloned()
            .collect(),
        compared_builds,
        changes,
        spent: [old_built.reuse, new_built.reuse],
    })
}

/// What one module's check gives.
struct ModuleResult {
    findings: Vec<Finding>,
    ignored: Vec<Ignored>,
    groups: Vec<Group>,
    old_texts: HashMap<String, SourceText>,
    new_texts: HashMap<String, SourceText>,
    /// Every compared file (path relative to ROOT) with its blob id, when known.
    old_files: Vec<(String, Option<source::BlobId>)>,
    new_files: Vec<(String, Option<source::BlobId>)>,
    files_checked: usize,
    /// Paths relative to ROOT compared on either side.
    compared: Vec<String>,
    compared_builds: Compared,
    changes: Vec<Change>,
    /// Both builds' reuse, done with (see [`Outcome::spent`]).
    spent: [crate::link::Reuse; 2],
}

/// Each compared file's text, keyed by the path findings report.
fn texts(side: &Collected, external: &HashMap<String, String>) -> HashMap<String, SourceText> {
    side.files
        .iter()
        .map(|f| {
            let path = external.get(&f.path).unwrap_or(&f.path);
            (path.clone(), SourceText::new(f.text.clone()))
        })
        .collect()
}

/// Every compared file of a side (path relative to ROOT) with its blob id, when known.
fn listed(side: &Collected) -> Vec<(String, Option<source::BlobId>)> {
    side.compared
        .iter()
        .cloned()
        .zip(side.listed_blobs.iter().copied())
        .collect()
}

/// The known blob ids of [`listed`] files.
fn blobs(
    files: &[(String, Option<source::BlobId>)],
) -> impl Iterator<Item = (String, source::BlobId)> + '_ {
    files
        .iter()
        .filter_map(|(path, blob)| Some((path.clone(), (*blob)?)))
}

/// Paths compared on either side (also those a narrowed build did not read).
fn files_checked(old: &Collected, new: &Collected) -> usize {
    let paths: std::collections::HashSet<&str> = old
        .listed
        .iter()
        .chain(&new.listed)
        .map(String::as_str)
        .collect();
    paths.len()
}

/// A schema path as a path relative to ROOT.
fn external<'a>(path: &'a str, external: &'a HashMap<String, String>) -> &'a str {
    external.get(path).map_or(path, String::as_str)
}

/// A location in a reconstructed text (an image's) is not the user's: it moves to the
/// element's span in the user's file when the image has source info, else to 1:1 of the
/// file. No snippet either way (the byte span is into the reconstruction).
fn to_original(loc: &mut Option<Location>, tree: &dyn source::Tree) {
    if let Some(loc) = loc {
        loc.span = None;
        let [start_line, start_column, end_line, end_column] = tree
            .original_span(
                &loc.path,
                (loc.start_line, loc.start_column),
                (loc.end_line, loc.end_column),
            )
            .unwrap_or([1, 1, 1, 1]);
        (
            loc.start_line,
            loc.start_column,
            loc.end_line,
            loc.end_column,
        ) = (start_line, start_column, end_line, end_column);
    }
}

/// A review change on an image side names its line in the user's file, as findings do
/// ([`to_original`]), when the image has source info (else line 1).
fn to_original_line(change: &mut Change, (new, old): (&dyn source::Tree, &dyn source::Tree)) {
    let tree = match (&change.new_at, &change.old_at) {
        (Some(_), _) => new,
        (None, Some(_)) => old,
        (None, None) => return,
    };
    if !tree.positions() {
        let line = (change.start_line, 1);
        change.start_line = tree
            .original_span(&change.path, line, line)
            .map_or(1, |[start_line, ..]| start_line);
    }
}

fn relabel(loc: &mut Option<Location>, external: &HashMap<String, String>) {
    if let Some(loc) = loc {
        if let Some(ext) = external.get(&loc.path) {
            loc.path = ext.clone();
        }
    }
}
