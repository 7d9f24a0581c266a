//! `check`: read both sides, build both schemas, run the selected rules, apply ignores.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{miette, Report};
use rayon::prelude::*;

use crate::compare::{self, Finding, Group, Location};
use crate::config::{self, is_unstable_package, Config, Kind, Layout, Selection};
use crate::ignore::Ignored;
use crate::model::{self, Schema, SourceFile};
use crate::report::{SourceText, Sources, Stats};
use crate::source::{
    is_within, normalize, FsTree, GitTree, IndexTree, Repo, SearchRoot, Tree, TreeResolver,
};

/// Where the new side comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum NewSide {
    /// The files on disk under ROOT.
    #[default]
    Worktree,
    /// A git revision.
    Rev(String),
    /// The git index (staged changes).
    Staged,
}

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
}

/// The result of a check that could be done.
pub struct Outcome {
    /// Sorted findings; paths are relative to ROOT.
    pub findings: Vec<Finding>,
    /// The buf config version whose categories apply.
    pub config_version: String,
    /// Non-fatal diagnostics: deprecated rule ids, unresolved imports, ignore directives.
    pub warnings: Vec<Report>,
    /// Findings silenced by `// protocompat:ignore` directives (paths relative to ROOT).
    pub ignored: Vec<Ignored>,
    /// Root causes shared by findings (`Finding.group` keys).
    pub groups: Vec<Group>,
    /// Both sides' texts and labels, for the text format's snippets.
    pub sources: Sources,
    pub stats: Stats,
}

/// The check could not be done; every diagnostic names the revision and path concerned.
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

/// One side of the comparison: its ROOT and its include roots.
struct Side {
    root: Arc<dyn Tree>,
    includes: Vec<Arc<dyn Tree>>,
}

/// A side's files, ready for the front-end, and how to report their paths.
struct Collected {
    files: Vec<SourceFile>,
    resolver: TreeResolver,
    /// Path relative to its root -> path relative to ROOT.
    external: HashMap<String, String>,
    /// The compared files, as paths relative to ROOT.
    compared: Vec<String>,
}

pub fn check(opts: &CheckOptions) -> Result<Outcome, Error> {
    let started = std::time::Instant::now();
    let mut warnings: Vec<Report> = Vec::new();
    let (new, old) = open_sides(opts, &mut warnings)?;
    let explicit = match &opts.config {
        Some(path) => Some(Config::from_path(path)?),
        None => None,
    };
    let against_explicit = match &opts.against_config {
        Some(path) => Some(against_config(path)?),
        None => None,
    };
    // What replaces each side's own layout: --against-config for the old side, else --config
    // (a buf.yaml) for both.
    let new_override = explicit.as_ref().filter(|c| c.kind == Kind::BufYaml);
    let old_override = against_explicit.as_ref().or(new_override);
    let (new_buf, old_buf) = side_buf_configs(
        (new_override.is_none(), &new),
        (old_override.is_none(), &old),
        &mut warnings,
    )?;
    let config = match &explicit {
        Some(c) => c.clone(),
        None => side_config(&*new.root, &new_buf)?,
    };
    let new_layout = layout_of(new_override, &new_buf);
    let old_layout = layout_of(old_override, &old_buf);
    let deps = declared_deps([&new_buf, &old_buf]);

    let mut selections = Vec::new();
    for module in &new_layout.modules {
        selections.push(config.select_for(module)?);
    }
    let mut seen = std::collections::HashSet::new();
    for warning in selections.iter().flat_map(|s| &s.warnings) {
        if seen.insert(warning.clone()) {
            warnings.push(miette!(severity = miette::Severity::Warning, "{warning}"));
        }
    }

    let uniform = selections.windows(2).all(|w| same_rules(&w[0], &w[1]));
    let pairs = pair_modules(&new_layout, &old_layout, uniform, &new, &old)?;
    let mut findings = Vec::new();
    let mut silenced = Vec::new();
    let mut groups = Vec::new();
    let mut sources = Sources {
        old_label: old.root.label().to_string(),
        new_label: new.root.label().to_string(),
        old: HashMap::new(),
        new: HashMap::new(),
    };
    let mut files_checked = 0;
    let mut compared = Vec::new();
    for (new_module, old_module) in pairs {
        let mut module_warnings = Vec::new();
        let result = check_module(
            (&new, &new_layout, new_module),
            (&old, &old_layout, old_module),
            &selections[new_module],
            (opts, &deps),
            &mut module_warnings,
        )?;
        warnings.extend(module_warnings);
        findings.extend(result.findings);
        silenced.extend(result.ignored);
        groups.extend(result.groups);
        sources.old.extend(result.old_texts);
        sources.new.extend(result.new_texts);
        files_checked += result.files_checked;
        compared.extend(result.compared);
    }
    something_compared(opts, &compared, &new, &old)?;
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    silenced.sort_by(|a: &Ignored, b: &Ignored| a.finding.sort_key().cmp(&b.finding.sort_key()));
    Ok(Outcome {
        findings,
        config_version: config.version.clone(),
        warnings,
        ignored: silenced,
        groups,
        sources,
        stats: Stats {
            files_checked,
            elapsed: started.elapsed(),
        },
    })
}

/// As buf: a check that targets no file at all, or a `--path` that matches no file on either
/// side, is an error rather than a silent pass.
fn something_compared(
    opts: &CheckOptions,
    compared: &[String],
    new: &Side,
    old: &Side,
) -> Result<(), Report> {
    let sides = format!("@ {} or @ {}", new.root.label(), old.root.label());
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

fn same_rules(a: &Selection, b: &Selection) -> bool {
    a.rules
        .iter()
        .map(|r| r.id)
        .eq(b.rules.iter().map(|r| r.id))
        && a.ignore == b.ignore
        && a.ignore_only == b.ignore_only
        && a.ignore_unstable_packages == b.ignore_unstable_packages
}

/// Which old module each new module is compared with, as buf pairs them: by position when
/// both sides have as many modules; when the new side has more and they all share one rule
/// set, new modules without an old counterpart (by module path) are left out.
fn pair_modules(
    new: &Layout,
    old: &Layout,
    uniform: bool,
    new_side: &Side,
    old_side: &Side,
) -> Result<Vec<(usize, usize)>, Report> {
    if new.modules.len() == old.modules.len() {
        return Ok((0..new.modules.len()).map(|i| (i, i)).collect());
    }
    let mismatch = || {
        miette!(
            help = "buf compares the modules of a workspace pairwise; give both sides the same modules",
            "ROOT has {} module(s) @ {} but {} @ {}",
            new.modules.len(),
            new_side.root.label(),
            old.modules.len(),
            old_side.root.label()
        )
    };
    if new.modules.len() < old.modules.len() || !uniform {
        return Err(mismatch());
    }
    let mut pairs = Vec::new();
    for (old_index, old_module) in old.modules.iter().enumerate() {
        let new_index = new
            .modules
            .iter()
            .position(|m| m.name == old_module.name)
            .ok_or_else(mismatch)?;
        pairs.push((new_index, old_index));
    }
    Ok(pairs)
}

/// Builds one module at both sides and runs its rules; findings come back with paths
/// relative to ROOT.
fn check_module(
    (new, new_layout, new_module): (&Side, &Layout, usize),
    (old, old_layout, old_module): (&Side, &Layout, usize),
    selection: &Selection,
    (opts, deps): (&CheckOptions, &[String]),
    warnings: &mut Vec<Report>,
) -> Result<ModuleResult, Error> {
    let (new_files, old_files) = rayon::join(
        || collect(new, new_layout, new_module, opts),
        || collect(old, old_layout, old_module, opts),
    );
    let (new_files, old_files) = both(new_files, old_files)?;

    let (new_built, old_built) = rayon::join(
        || model::build_schema(new_files.files.clone(), &new_files.resolver),
        || model::build_schema(old_files.files.clone(), &old_files.resolver),
    );
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
    unresolved_imports(
        [old_built.unresolved_imports, new_built.unresolved_imports],
        (opts.allow_missing_imports, deps),
        warnings,
    )?;

    let mut findings = compare::run(&old_built.schema, &new_built.schema, &selection.rules);
    findings.retain(|f| !ignored(f, selection, &new_built.schema, &old_built.schema));
    let (mut findings, mut silenced) = in_source_ignores(
        &new_built.schema,
        findings,
        &selection.version,
        |path| {
            format!(
                "{} @ {}",
                external(path, &new_files.external),
                new.root.label()
            )
        },
        warnings,
    );
    crate::fix::attach_edits(
        &old_built.schema,
        &new_built.schema,
        &mut findings,
        &|path: &str| external(path, &new_files.external).to_string(),
    );
    let mut groups = compare::group::assign(&mut findings, &old_built.schema, &new_built.schema);
    for f in findings
        .iter_mut()
        .chain(silenced.iter_mut().map(|i| &mut i.finding))
    {
        relabel(&mut f.location, &new_files.external);
        relabel(&mut f.previous, &old_files.external);
    }
    for i in &mut silenced {
        i.directive.path = external(&i.directive.path, &new_files.external).to_string();
    }
    for g in &mut groups {
        relabel(&mut g.location, &new_files.external);
        relabel(&mut g.previous, &old_files.external);
    }
    Ok(ModuleResult {
        findings,
        ignored: silenced,
        groups,
        old_texts: texts(&old_files),
        new_texts: texts(&new_files),
        files_checked: files_checked(&old_files, &new_files),
        compared: old_files
            .compared
            .iter()
            .chain(&new_files.compared)
            .cloned()
            .collect(),
    })
}

/// What one module's check gives.
struct ModuleResult {
    findings: Vec<Finding>,
    ignored: Vec<Ignored>,
    groups: Vec<Group>,
    old_texts: HashMap<String, SourceText>,
    new_texts: HashMap<String, SourceText>,
    files_checked: usize,
    /// Paths relative to ROOT compared on either side.
    compared: Vec<String>,
}

/// Imports that could not be found: an error, unless `--allow-missing-imports` accepts them
/// as warnings. A type from a missing file cannot be checked (its fields, its wire type), so
/// a pass would claim more than was seen.
fn unresolved_imports(
    sides: [Vec<model::MissingImport>; 2],
    (allowed, deps): (bool, &[String]),
    warnings: &mut Vec<Report>,
) -> Result<(), Error> {
    let missing = sides.into_iter().flatten();
    if allowed {
        warnings.extend(missing.map(|m| Report::new(m.as_warning())));
        return Ok(());
    }
    let mut missing: Vec<Report> = missing.map(Report::new).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let help = match deps {
        [] => "add the directory that holds them with `-I DIR` (read from the same revision), \
               or pass `--allow-missing-imports` to compare anyway, with names from the \
               missing files compared as written"
            .to_string(),
        deps => format!(
            "buf.yaml depends on {}, which protocompat does not download: export each once \
             (`buf export MODULE -o deps`) and pass `-I deps`, or pass \
             `--allow-missing-imports` to compare anyway, with names from the missing files \
             compared as written",
            deps.iter()
                .map(|d| format!("`{d}`"))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    };
    missing.push(miette::miette!(
        help = help,
        "{} import{} could not be found, so the types from {} were not checked",
        missing.len(),
        if missing.len() == 1 { "" } else { "s" },
        if missing.len() == 1 { "it" } else { "them" },
    ));
    Err(Error {
        diagnostics: missing,
    })
}

/// The BSR dependencies either side's buf configuration declares.
fn declared_deps(configs: [&Option<Config>; 2]) -> Vec<String> {
    let mut deps: Vec<String> = configs
        .into_iter()
        .flatten()
        .flat_map(Config::all_deps)
        .collect();
    deps.sort();
    deps.dedup();
    deps
}

/// Each compared file's text, keyed by the path findings report.
fn texts(side: &Collected) -> HashMap<String, SourceText> {
    side.files
        .iter()
        .map(|f| {
            let path = side.external.get(&f.path).unwrap_or(&f.path);
            (path.clone(), SourceText::new(f.text.clone()))
        })
        .collect()
}

/// Paths compared on either side.
fn files_checked(old: &Collected, new: &Collected) -> usize {
    let paths: std::collections::HashSet<&str> = old
        .files
        .iter()
        .chain(&new.files)
        .map(|f| f.path.as_str())
        .collect();
    paths.len()
}

fn both<A, B>(a: Result<A, Report>, b: Result<B, Report>) -> Result<(A, B), Error> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (a, b) => Err(Error {
            diagnostics: [a.err(), b.err()].into_iter().flatten().collect(),
        }),
    }
}

/// Each side's buf configuration (buf.yaml, buf.mod or a buf.work.yaml workspace), read
/// from that side as buf reads each input's own; not read where `--config` (a buf.yaml) or
/// `--against-config` replaces it (`read` false).
fn side_buf_configs(
    (read_new, new): (bool, &Side),
    (read_old, old): (bool, &Side),
    warnings: &mut Vec<Report>,
) -> Result<(Option<Config>, Option<Config>), Error> {
    let new_buf = if read_new {
        config::buf_config_at(&*new.root, warnings)
    } else {
        Ok(None)
    };
    // The old side's notes (an unread buf.yml) are about a revision nobody edits now.
    let old_buf = if read_old {
        config::buf_config_at(&*old.root, &mut Vec::new())
    } else {
        Ok(None)
    };
    both(new_buf, old_buf)
}

/// `--against-config FILE`: a buf.yaml, the only kind of file that gives a layout.
fn against_config(path: &Path) -> Result<Config, Report> {
    let config = Config::from_path(path)?;
    if config.kind != Kind::BufYaml {
        return Err(miette!(
            help = "give a buf.yaml (its build.roots or modules describe the --against side)",
            "--against-config {}: not a buf.yaml; a protocompat.toml has no layout to give",
            path.display()
        ));
    }
    Ok(config)
}

/// The rules of the check: `protocompat.toml` at the new side's ROOT, else its buf
/// configuration, else buf's defaults.
fn side_config(root: &dyn Tree, buf: &Option<Config>) -> Result<Config, Report> {
    if let Some(text) = root.read("protocompat.toml")? {
        return Config::from_toml(&text, &format!("protocompat.toml @ {}", root.label()));
    }
    Ok(buf.clone().unwrap_or_default())
}

/// Which directories hold a side's files: a buf.yaml given on the command line, else the
/// side's own buf configuration.
fn layout_of(replacement: Option<&Config>, buf: &Option<Config>) -> Layout {
    match (replacement, buf) {
        (Some(config), _) => config.layout.clone(),
        (None, Some(config)) => config.layout.clone(),
        (None, None) => Layout::default(),
    }
}

fn open_sides(opts: &CheckOptions, warnings: &mut Vec<Report>) -> Result<(Side, Side), Report> {
    let against_dir = Path::new(&opts.against);
    let against_is_dir = against_dir.is_dir() && !opts.merge_base;
    let needs_git = !against_is_dir || opts.new_side != NewSide::Worktree;
    let repo = if needs_git {
        Some(open_repo(opts)?)
    } else {
        None
    };
    let new = match (&opts.new_side, &repo) {
        (NewSide::Worktree, repo) => {
            if repo.as_ref().is_some_and(|r| r.workdir().is_none()) {
                return Err(miette!(
                    help = "give the new side with --rev REV or --staged",
                    "the repository is bare: it has no working tree to compare"
                ));
            }
            worktree_side(opts, "working tree")?
        }
        (NewSide::Rev(rev), Some(repo)) => {
            let tree = repo.tree_of(rev)?;
            git_side(opts, repo, tree, rev)?
        }
        (NewSide::Staged, Some(repo)) => index_side(opts, repo)?,
        (_, None) => unreachable_side()?,
    };
    let old = match &repo {
        Some(repo) if !against_is_dir => {
            let (tree, label) = old_tree(opts, repo)?;
            let root_path = repo.path_in_repo(&opts.root)?;
            if GitTree::new(repo, tree, &root_path, &label)?.is_some() {
                git_side(opts, repo, tree, &label)?
            } else {
                warnings.push(miette!(
                    severity = miette::Severity::Warning,
                    "{} @ {label}: ROOT does not exist at this revision; every file is new, so \
                     nothing can break",
                    shown(&root_path)
                ));
                Side {
                    root: Arc::new(EmptyTree(label)),
                    includes: Vec::new(),
                }
            }
        }
        _ => dir_side(opts, against_dir)?,
    };
    Ok((new, old))
}

/// The old side when ROOT was created after the `--against` revision (the first commit of a
/// `proto/` directory): no files, so every file of the new side is an addition.
struct EmptyTree(String);

impl Tree for EmptyTree {
    fn label(&self) -> &str {
        &self.0
    }
    fn read(&self, _path: &str) -> Result<Option<String>, Report> {
        Ok(None)
    }
    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report> {
        Ok(normalize(dir).is_empty().then(Vec::new))
    }
}

fn unreachable_side() -> Result<Side, Report> {
    Err(miette!("internal error: a git side without a repository"))
}

fn open_repo(opts: &CheckOptions) -> Result<Repo, Report> {
    if let Some(git_dir) = &opts.git_dir {
        return Repo::open(git_dir).map_err(|e| {
            miette!(
                "--git-dir {}: not a git repository: {}",
                git_dir.display(),
                e.message()
            )
        });
    }
    let start = if opts.root.exists() {
        opts.root.clone()
    } else {
        PathBuf::from(".")
    };
    Repo::discover(&start).map_err(|e| {
        miette!(
            help = "run inside a git repository, pass --git-dir, or give --against an existing directory",
            "{}: not a git repository (or any parent up to the filesystem root), needed to read revision `{}`: {}",
            start.display(),
            opts.against,
            e.message()
        )
    })
}

fn worktree_side(opts: &CheckOptions, label: &str) -> Result<Side, Report> {
    if !opts.root.is_dir() {
        return Err(miette!(
            "{} @ {label}: ROOT is not a directory",
            opts.root.display()
        ));
    }
    let includes = opts
        .includes
        .iter()
        .map(|dir| disk_include(dir, label))
        .collect::<Result<_, _>>()?;
    Ok(Side {
        root: Arc::new(FsTree::new(&opts.root, label)),
        includes,
    })
}

fn dir_side(opts: &CheckOptions, dir: &Path) -> Result<Side, Report> {
    let label = opts.against.as_str();
    let includes = opts
        .includes
        .iter()
        .map(|inc| disk_include(inc, label))
        .collect::<Result<_, _>>()?;
    Ok(Side {
        root: Arc::new(FsTree::new(dir, label)),
        includes,
    })
}

/// An include root that git does not track (dependencies exported with `buf export` into a
/// git-ignored directory): read from disk for every revision, since no revision has it.
fn untracked_include(dir: &Path, path: &str, label: &str) -> Result<Arc<dyn Tree>, Report> {
    if dir.is_dir() {
        return Ok(Arc::new(FsTree::new(dir, "working tree")));
    }
    Err(miette!(
        "{} @ {label}: include root does not exist at this revision, nor on disk",
        shown(path)
    ))
}

fn disk_include(dir: &Path, label: &str) -> Result<Arc<dyn Tree>, Report> {
    if !dir.is_dir() {
        return Err(miette!(
            "{} @ {label}: include root is not a directory",
            dir.display()
        ));
    }
    Ok(Arc::new(FsTree::new(dir, label)))
}

fn git_side(
    opts: &CheckOptions,
    repo: &Repo,
    tree: git2::Oid,
    label: &str,
) -> Result<Side, Report> {
    let root_path = repo.path_in_repo(&opts.root)?;
    let root = GitTree::new(repo, tree, &root_path, label)?.ok_or_else(|| {
        miette!(
            "{} @ {label}: ROOT does not exist at this revision",
            shown(&root_path)
        )
    })?;
    let mut includes: Vec<Arc<dyn Tree>> = Vec::new();
    for dir in &opts.includes {
        let path = repo.path_in_repo(dir)?;
        includes.push(match GitTree::new(repo, tree, &path, label)? {
            Some(include) => Arc::new(include),
            None => untracked_include(dir, &path, label)?,
        });
    }
    Ok(Side {
        root: Arc::new(root),
        includes,
    })
}

fn index_side(opts: &CheckOptions, repo: &Repo) -> Result<Side, Report> {
    let root_path = repo.path_in_repo(&opts.root)?;
    let root = IndexTree::new(repo, &root_path)?
        .ok_or_else(|| miette!("{} @ index: no staged file under ROOT", shown(&root_path)))?;
    let mut includes: Vec<Arc<dyn Tree>> = Vec::new();
    for dir in &opts.includes {
        let path = repo.path_in_repo(dir)?;
        includes.push(match IndexTree::new(repo, &path)? {
            Some(include) => Arc::new(include),
            None => untracked_include(dir, &path, "index")?,
        });
    }
    Ok(Side {
        root: Arc::new(root),
        includes,
    })
}

/// The old side's tree and what to call it.
fn old_tree(opts: &CheckOptions, repo: &Repo) -> Result<(git2::Oid, String), Report> {
    if !opts.merge_base {
        return Ok((repo.tree_of(&opts.against)?, opts.against.clone()));
    }
    let new_spec = match &opts.new_side {
        NewSide::Rev(rev) => rev.as_str(),
        NewSide::Worktree | NewSide::Staged => "HEAD",
    };
    let new_commit = repo.commit_of(new_spec)?;
    let against = repo.commit_of(&opts.against)?;
    let describe = format!("`{new_spec}` and `{}`", opts.against);
    let (tree, base) = repo.merge_base(new_commit, against, &describe)?;
    let label = format!(
        "merge-base({new_spec}, {}) = {}",
        opts.against,
        repo.short(base)
    );
    Ok((tree, label))
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "."
    } else {
        path
    }
}

/// Reads a side's compared files (filtered by the layout and `--path`/`--exclude-path`).
fn collect(
    side: &Side,
    layout: &Layout,
    module: usize,
    opts: &CheckOptions,
) -> Result<Collected, Report> {
    let this = &layout.modules[module];
    let label = side.root.label().to_string();
    let paths: Vec<String> = opts.paths.iter().map(|p| normalize(p)).collect();
    let excluded: Vec<String> = opts.exclude_paths.iter().map(|p| normalize(p)).collect();
    let wanted = |external: &str| {
        (paths.is_empty() || paths.iter().any(|p| is_within(external, p)))
            && !excluded.iter().any(|p| is_within(external, p))
            && !this.excludes.iter().any(|p| is_within(external, p))
    };

    // (path relative to its root, path relative to ROOT)
    let mut chosen: Vec<(String, String)> = Vec::new();
    let mut external = HashMap::new();
    for root in &this.roots {
        let listed = side.root.list_protos(root)?.ok_or_else(|| {
            miette!(
                "{} @ {label}: root listed in buf.yaml does not exist",
                shown(root)
            )
        })?;
        for ext in listed {
            let rel = match ext.strip_prefix(root.as_str()) {
                Some(rest) if !root.is_empty() => rest.trim_start_matches('/').to_string(),
                _ => ext.clone(),
            };
            if let Some(previous) = external.insert(rel.clone(), ext.clone()) {
                return Err(miette!(
                    "{ext} @ {label}: same path {rel:?} as {previous} in another root"
                ));
            }
            if wanted(&ext) {
                chosen.push((rel, ext));
            }
        }
    }

    let compared = chosen.iter().map(|(_, ext)| ext.clone()).collect();
    let tree = &side.root;
    let files = chosen
        .par_iter()
        .map(|(rel, ext)| {
            let text = tree
                .read(ext)?
                .ok_or_else(|| miette!("{ext} @ {label}: file vanished while reading"))?;
            Ok(SourceFile {
                path: rel.clone(),
                display_name: format!("{ext} @ {label}"),
                text: text.into(),
            })
        })
        .collect::<Result<Vec<_>, Report>>()?;

    // Imports resolve in this module's roots first, then in the workspace's other modules.
    let module_roots = this.roots.iter().chain(
        layout
            .modules
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != module)
            .flat_map(|(_, m)| &m.roots),
    );
    let mut roots: Vec<SearchRoot> = module_roots
        .map(|r| SearchRoot {
            tree: side.root.clone(),
            dir: r.clone(),
        })
        .collect();
    roots.extend(side.includes.iter().map(|t| SearchRoot {
        tree: t.clone(),
        dir: String::new(),
    }));
    Ok(Collected {
        files,
        resolver: TreeResolver { roots },
        external,
        compared,
    })
}

/// buf drops a finding when either of its locations is ignored.
fn ignored(f: &Finding, sel: &Selection, new: &Schema, old: &Schema) -> bool {
    let at = |loc: &Location, schema: &Schema| {
        let path = loc.path.as_str();
        sel.ignore.iter().any(|p| is_within(path, p))
            || sel
                .ignore_only
                .get(f.rule)
                .is_some_and(|ps| ps.iter().any(|p| is_within(path, p)))
            || (sel.ignore_unstable_packages
                && schema
                    .files
                    .get(path)
                    .is_some_and(|file| is_unstable_package(&file.package)))
    };
    f.location.as_ref().is_some_and(|l| at(l, new))
        || f.previous.as_ref().is_some_and(|l| at(l, old))
}

/// `// protocompat:ignore` directives of the new side: (kept, silenced) findings; directive
/// problems become warnings.
fn in_source_ignores(
    new: &Schema,
    findings: Vec<Finding>,
    config_version: &str,
    display: impl Fn(&str) -> String,
    warnings: &mut Vec<Report>,
) -> (Vec<Finding>, Vec<Ignored>) {
    let applied = crate::ignore::apply(new, findings, config_version, &display);
    warnings.extend(applied.warnings);
    (applied.kept, applied.ignored)
}

/// A schema path as a path relative to ROOT.
fn external<'a>(path: &'a str, external: &'a HashMap<String, String>) -> &'a str {
    external.get(path).map_or(path, String::as_str)
}

fn relabel(loc: &mut Option<Location>, external: &HashMap<String, String>) {
    if let Some(loc) = loc {
        if let Some(ext) = external.get(&loc.path) {
            loc.path = ext.clone();
        }
    }
}
