//! The history audit: walk the commits of a revision, keep a ledger of every number and name
//! each message, enum and extendee ever used, and report reuses and unprotected deletions.
//!
//! `walk` lists the commits and the `.proto` blobs each changed; `summary` reads one blob
//! (cached by blob id, in memory and under the git dir by `cache`); `ledger` applies the
//! commits in order; `rules` reads the finished ledger.

pub mod cache;
pub mod config;
pub mod conflict;
pub mod fix;
pub mod ledger;
mod ledger_cache;
pub mod progress;
pub mod rules;
pub mod summary;
pub mod walk;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use git2::{Oid, Repository};
use miette::{miette, Report};
use rayon::prelude::*;

pub use ledger::{CommitIdx, ElementLedger, Ledger, Occurrence};
pub use rules::{HistoryFinding, Side, Subject};
pub use summary::{FileSummary, Kind};
pub use walk::{CommitInfo, Since, WalkOptions};

/// What to audit.
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    /// The audited directory (on disk, or a path inside a bare repository).
    pub root: PathBuf,
    pub git_dir: Option<PathBuf>,
    /// The revision whose history is walked (`HEAD` when empty).
    pub rev: String,
    /// `--since REV|YYYY-MM-DD`.
    pub since: Option<String>,
    pub all_parents: bool,
    pub paths: Vec<String>,
    pub exclude_paths: Vec<String>,
    /// `-I`: checked to exist, as `check` does (the audit reads each blob on its own).
    pub includes: Vec<PathBuf>,
    /// `--config`: a protocompat .toml or buf .yaml instead of the one at ROOT at REV.
    pub config: Option<PathBuf>,
    /// A blob that cannot be read is an error instead of a warning.
    pub strict: bool,
    /// Audit a shallow clone from its first commit instead of refusing.
    pub allow_shallow: bool,
    /// Read and write the summary cache under the git dir.
    pub cache: bool,
    /// Draw a progress bar on stderr for a long walk, when it is a terminal.
    pub progress: bool,
}

/// A blob that could not be read at some commit: its elements were carried over.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Unreadable {
    pub commit: CommitIdx,
    pub path: String,
    #[serde(with = "oid_bytes")]
    pub blob: Oid,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct AuditStats {
    /// Commits walked, and those that changed a `.proto` file under ROOT.
    pub commits_walked: usize,
    pub commits_changed: usize,
    /// Distinct blobs read (parsed now / found in the cache).
    pub blobs_parsed: usize,
    pub blobs_cached: usize,
    /// The ledger came from the cache of this very walk (nothing walked or applied).
    pub ledger_cached: bool,
    /// The cached ledger of an ancestor was extended with the commits after it.
    pub ledger_extended: bool,
    /// Commits read by this run (the new ones when the ledger was extended, none when it
    /// came from the cache).
    pub commits_read: usize,
    pub elapsed: Duration,
}

/// A finished walk: the ledger and what it was built from.
pub struct History {
    pub git_dir: PathBuf,
    /// ROOT as a path inside the repository.
    pub root: String,
    pub commits: Vec<CommitInfo>,
    pub ledger: Ledger,
    pub unreadable: Vec<Unreadable>,
    pub warnings: Vec<Report>,
    pub stats: AuditStats,
    /// The configuration's rules and ignores, applied to the findings.
    pub config: config::AuditConfig,
}

impl History {
    pub fn commit(&self, c: CommitIdx) -> &CommitInfo {
        &self.commits[c as usize]
    }

    /// The text of a blob (for snippets); `None` when it cannot be read.
    pub fn blob_text(&self, repo: &Repository, blob: Oid) -> Option<String> {
        let blob = repo.find_blob(blob).ok()?;
        String::from_utf8(blob.content().to_vec()).ok()
    }

    /// The findings of the history rules the configuration runs, less those it ignores.
    pub fn findings(&self) -> Vec<HistoryFinding> {
        self.configured(rules::run(&self.ledger, &self.commits))
    }

    /// The findings the configuration keeps.
    fn configured(&self, mut found: Vec<HistoryFinding>) -> Vec<HistoryFinding> {
        found.retain(|f| {
            let paths = std::iter::once(&f.at).chain(f.previous.as_ref().map(|p| &p.at));
            paths
                .into_iter()
                .all(|at| self.config.reports(f.rule, &at.path))
        });
        found
    }
}

impl History {
    /// Applies the new side's `changes` as one more snapshot after the audited revision, and
    /// returns the findings that snapshot causes: numbers and names it reuses, reservations
    /// it drops.
    fn judge(
        &mut self,
        changes: Vec<(Arc<str>, Option<ledger::FileVersion>)>,
        label: &str,
    ) -> Vec<HistoryFinding> {
        let index = self.commits.len() as CommitIdx;
        self.commits.push(CommitInfo {
            oid: Oid::zero(),
            time: 0,
            offset_minutes: 0,
            author: String::new(),
            subject: label.to_string(),
        });
        let affected = self.ledger.apply(index, changes);
        self.ledger.finish(index);
        // A finding the new side causes is in an element it changed: judge only those.
        let found = rules::run_on(&self.ledger, &self.commits, affected.iter());
        self.configured(found)
            .into_iter()
            .filter(|f| match (&f.current, &f.previous) {
                (Some(c), _) => c.added_in == index,
                (None, Some(p)) => f.rule == rules::RESERVED_DROPPED && p.deleted_in == Some(index),
                _ => false,
            })
            .collect()
    }
}

/// A file of the new side of `check --history`.
pub struct NewFile<'a> {
    /// Relative to ROOT.
    pub path: String,
    /// `None` when the check did not read the file (a narrowed build leaves out files
    /// unchanged since the old side): read from the repository by `blob` if needed.
    pub text: Option<&'a str>,
    /// The file's blob id, when the check knows it (else its text is hashed).
    pub blob: Option<Oid>,
    /// The check found the same text at the audited revision: nothing to hash or summarise.
    pub unchanged: bool,
}

/// The files of a new side that differ from the audited revision's (`tip`: path and
/// blob), each with its summary, and the files it no longer has (`None`). Only the files
/// that differ are hashed and summarised.
fn new_side_changes(
    tip: impl Iterator<Item = (Arc<str>, Oid)>,
    files: &[NewFile],
    repo: Option<&Repository>,
) -> Vec<(Arc<str>, Option<ledger::FileVersion>)> {
    let current: HashMap<Arc<str>, Oid> = tip.collect();
    let mut changes = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for NewFile {
        path,
        text,
        blob,
        unchanged,
    } in files
    {
        if *unchanged && current.contains_key(path.as_str()) {
            seen.insert(path.as_str());
            continue;
        }
        let blob = blob.unwrap_or_else(|| {
            let bytes = text.unwrap_or_default().as_bytes();
            Oid::hash_object(git2::ObjectType::Blob, bytes).unwrap_or_else(|_| Oid::zero())
        });
        seen.insert(path.as_str());
        if current.get(path.as_str()) == Some(&blob) {
            continue;
        }
        let summary = match text {
            Some(text) => summary::summarize(path, text),
            None => summarize_blob(repo, blob, path),
        };
        if summary.error.is_none() {
            changes.push((Arc::from(path.as_str()), Some((blob, Arc::new(summary)))));
        }
    }
    for path in current.keys() {
        if !seen.contains(path.as_ref()) {
            changes.push((path.clone(), None));
        }
    }
    changes.sort_by(|a, b| a.0.cmp(&b.0));
    changes
}

/// `check --history`: the history of the audited revision (`opts.rev`, the `--against`
/// side), with the new side (`files`; `label` names it)
/// applied as one more snapshot, and the findings that snapshot causes. From a stored walk
/// of that revision, only the elements the new side changes are read.
pub fn judge_new_side(
    opts: &AuditOptions,
    files: &[NewFile],
    label: &str,
) -> Result<(History, Vec<HistoryFinding>), Error> {
    let (mut history, changes) = build_for(opts, Some(files))?;
    let changes = changes.unwrap_or_else(|| {
        // Files the check did not read are read from the repository, if one differs.
        let repo = files
            .iter()
            .any(|f| f.text.is_none())
            .then(|| {
                let start = if opts.root.exists() {
                    opts.root.clone()
                } else {
                    PathBuf::from(".")
                };
                walk::open(opts.git_dir.as_deref(), &start).ok()
            })
            .flatten();
        let tip = history.ledger.files().map(|(p, b)| (p.clone(), b));
        new_side_changes(tip, files, repo.as_ref().map(|(repo, _)| repo))
    });
    let found = history.judge(changes, label);
    Ok((history, found))
}

/// Everything that stopped the audit (each diagnostic names the commit and path concerned):
/// the engine's error type, as for a check.
pub use crate::engine::Error;

/// Walks the history and builds the ledger.
pub fn build(opts: &AuditOptions) -> Result<History, Error> {
    Ok(build_for(opts, None)?.0)
}

/// The new side's changes, when they were worked out to read a part of the stored walk.
type NewSideChanges = Option<Vec<(Arc<str>, Option<ledger::FileVersion>)>>;

/// Walks the history and builds the ledger; with a new side (`check --history`) and a
/// stored walk of the revision, reads only the part of it the new side touches, and returns
/// the new side's changes it worked out for that.
fn build_for(
    opts: &AuditOptions,
    new_side: Option<&[NewFile]>,
) -> Result<(History, NewSideChanges), Error> {
    let started = Instant::now();
    let start = if opts.root.exists() {
        opts.root.clone()
    } else {
        PathBuf::from(".")
    };
    let (repo, git_dir) = walk::open(opts.git_dir.as_deref(), &start)?;
    let root = root_in_repo(opts, &start)?;
    let mut warnings = Vec::new();
    shallow_check(&repo, opts, &mut warnings)?;
    let rev = if opts.rev.is_empty() {
        "HEAD".to_string()
    } else {
        opts.rev.clone()
    };
    let audit_config = configuration(opts, &start, &rev, &root, &mut warnings)?;
    let walk_opts = WalkOptions {
        rev,
        since: opts.since.as_deref().map(|s| since(&repo, s)).transpose()?,
        all_parents: opts.all_parents,
        root: root.clone(),
        paths: opts
            .paths
            .iter()
            .map(|p| crate::source::normalize(p))
            .collect(),
        exclude_paths: opts
            .exclude_paths
            .iter()
            .map(|p| crate::source::normalize(p))
            .collect(),
        modules: audit_config.layout(),
        progress: opts.progress,
    };
    let tip = walk::commit_of(&repo, &walk_opts.rev)?;
    let key = ledger_cache::key(&walk_opts);
    let opened = opts
        .cache
        .then(|| ledger_cache::open(&git_dir, &key))
        .flatten();
    let mut changes = None;
    let (same_tip, older) = match opened {
        Some(opened) if opened.tip() == tip => match new_side {
            Some(files) => {
                let found = new_side_changes(opened.files(), files, Some(&repo));
                let part = opened.touched_by(&found);
                changes = part.is_some().then_some(found);
                (part, None)
            }
            None => (opened.all(), None),
        },
        Some(opened) => (None, opened.all()),
        None => (None, None),
    };
    let ledger_cached = same_tip.is_some();
    let mut ledger_extended = false;
    let mut commits_read = 0;
    let (stored, parsed) = match same_tip {
        Some(stored) => (stored, 0),
        None => {
            let cached = older;
            let extension = cached.and_then(|stored| {
                let after = (!walk_opts.all_parents)
                    .then(|| {
                        walk::first_parent_after(&repo, tip, stored.tip, walk_opts.since.as_ref())
                    })
                    .flatten()?;
                Some((stored, after))
            });
            let before = extension.as_ref().map_or(0, |(stored, _)| stored.walked);
            ledger_extended = extension.is_some();
            let (stored, parsed) = match extension {
                Some((stored, after)) => extend(
                    &repo,
                    &git_dir,
                    &walk_opts,
                    opts,
                    stored,
                    after,
                    &mut warnings,
                )?,
                None => walk_and_apply(&repo, &git_dir, &walk_opts, opts, &mut warnings)?,
            };
            commits_read = stored.walked - before;
            let stored = ledger_cache::Stored { tip, ..stored };
            if opts.cache {
                if let Err(e) = ledger_cache::save(&git_dir, &key, &stored) {
                    warnings.push(miette!(
                        severity = miette::Severity::Warning,
                        "could not write the audit cache under {}: {e}",
                        git_dir.display()
                    ));
                }
            }
            (stored, parsed)
        }
    };
    let ledger_cache::Stored {
        tip: _,
        commits,
        ledger,
        unreadable,
        walked,
        changed,
        blobs,
    } = stored;
    for u in &unreadable {
        let c = &commits[u.commit as usize];
        let text = format!(
            "{} @ {}: cannot be read ({}); its elements are carried over from the previous commit",
            u.path,
            rules::cite(c),
            u.reason
        );
        if opts.strict {
            continue;
        }
        warnings.push(miette!(severity = miette::Severity::Warning, "{text}"));
    }
    if opts.strict && !unreadable.is_empty() {
        return Err(Error {
            diagnostics: unreadable
                .iter()
                .map(|u| {
                    let c = &commits[u.commit as usize];
                    miette!(
                        help = "fix or fetch the file, or audit without --strict to carry the elements over",
                        "{} @ {}: cannot be read ({})",
                        u.path,
                        rules::cite(c),
                        u.reason
                    )
                })
                .collect(),
        });
    }
    let stats = AuditStats {
        commits_walked: walked,
        commits_changed: changed,
        blobs_parsed: parsed,
        blobs_cached: blobs - parsed,
        ledger_cached,
        ledger_extended,
        commits_read,
        elapsed: started.elapsed(),
    };
    let history = History {
        git_dir,
        root,
        commits,
        ledger,
        unreadable,
        warnings,
        stats,
        config: audit_config,
    };
    Ok((history, changes))
}

/// Walks the history, summarises the blobs the cache lacks and applies every commit to a
/// new ledger. Returns the walk and how many blobs were parsed.
fn walk_and_apply(
    repo: &Repository,
    git_dir: &Path,
    walk_opts: &WalkOptions,
    opts: &AuditOptions,
    warnings: &mut Vec<Report>,
) -> Result<(ledger_cache::Stored, usize), Error> {
    let walked = walk::walk(repo, walk_opts)?;
    let stored = ledger_cache::Stored::default();
    extend_with(git_dir, walked, opts.cache, opts.progress, stored, warnings)
}

/// Continues a stored walk with the commits `after` its tip (oldest first): only they are
/// walked, and their blobs summarised (they are new: the summary cache, which serves a
/// walk from scratch, is neither read nor written). Returns the walk and how many blobs
/// were parsed.
fn extend(
    repo: &Repository,
    git_dir: &Path,
    walk_opts: &WalkOptions,
    opts: &AuditOptions,
    stored: ledger_cache::Stored,
    after: Vec<Oid>,
    warnings: &mut Vec<Report>,
) -> Result<(ledger_cache::Stored, usize), Error> {
    // The ledger is the schema of the last commit it applied, which is not the stored tip
    // when `--since DATE` left the tip (or the commits before it) out: diff from there.
    let previous = match stored.commits.last() {
        Some(last) => walk::root_tree_of(repo, last.oid, &walk_opts.root)?,
        None => None,
    };
    let first_index = stored.commits.len() as CommitIdx;
    let walked = walk::walk_list(repo, walk_opts, after, previous, first_index)?;
    extend_with(git_dir, walked, false, opts.progress, stored, warnings)
}

/// Summarises the blobs of `walked` that the cache lacks and applies its steps to `stored`.
fn extend_with(
    git_dir: &Path,
    walked: walk::Walked,
    use_summaries: bool,
    progress: bool,
    mut stored: ledger_cache::Stored,
    warnings: &mut Vec<Report>,
) -> Result<(ledger_cache::Stored, usize), Error> {
    let mut store = if use_summaries {
        cache::Cache::load(git_dir)
    } else {
        cache::Cache::default()
    };
    let (parsed, cached) = summarize_all(git_dir, &walked, &mut store, progress);
    if use_summaries {
        if let Err(e) = store.save(git_dir) {
            warnings.push(miette!(
                severity = miette::Severity::Warning,
                "could not write the audit cache under {}: {e}",
                git_dir.display()
            ));
        }
    }
    apply_all(&walked, &store, &mut stored.ledger, &mut stored.unreadable);
    stored.walked += walked.walked;
    stored.changed += walked.steps.len();
    stored.blobs += parsed + cached;
    stored.commits.extend(walked.commits);
    Ok((stored, parsed))
}

/// `--config` (or the configuration at ROOT at REV) and `-I`, read as `check` reads them.
fn configuration(
    opts: &AuditOptions,
    start: &Path,
    rev: &str,
    root: &str,
    warnings: &mut Vec<Report>,
) -> Result<config::AuditConfig, Error> {
    let repo = open_source_repo(opts, start)?;
    config::check_includes(&repo, rev, &opts.includes)?;
    config::resolve(&repo, rev, root, opts.config.as_deref(), warnings)
        .map_err(|diagnostics| Error { diagnostics })
}

fn open_source_repo(opts: &AuditOptions, start: &Path) -> Result<crate::source::Repo, Report> {
    match &opts.git_dir {
        Some(dir) => crate::source::Repo::open(dir),
        None => crate::source::Repo::discover(start),
    }
    .map_err(|e| miette!("{}: not a git repository: {}", start.display(), e.message()))
}

/// ROOT as a path inside the repository, as `check` computes it.
fn root_in_repo(opts: &AuditOptions, start: &Path) -> Result<String, Report> {
    open_source_repo(opts, start)?.path_in_repo(&opts.root)
}

fn shallow_check(
    repo: &Repository,
    opts: &AuditOptions,
    warnings: &mut Vec<Report>,
) -> Result<(), Report> {
    if !repo.is_shallow() {
        return Ok(());
    }
    if !opts.allow_shallow {
        return Err(miette!(
            help = "fetch the whole history (`git fetch --unshallow`; in GitHub Actions \
                    `actions/checkout` with `fetch-depth: 0`), or pass --allow-shallow to audit \
                    only the commits present",
            "{}: the repository is a shallow clone, so its history is incomplete and numbers \
             used before its first commit cannot be seen",
            repo.path().display()
        ));
    }
    let rev = if opts.rev.is_empty() {
        "HEAD"
    } else {
        &opts.rev
    };
    let first = first_commit(repo, rev).unwrap_or_default();
    warnings.push(miette!(
        severity = miette::Severity::Warning,
        "shallow clone: the audit starts at commit {first}; numbers used before it are not seen"
    ));
    Ok(())
}

/// The oldest commit reachable from `rev` by first parents.
fn first_commit(repo: &Repository, rev: &str) -> Option<String> {
    let mut walk = repo.revwalk().ok()?;
    walk.push(walk::commit_of(repo, rev).ok()?).ok()?;
    walk.simplify_first_parent().ok()?;
    walk.filter_map(Result::ok)
        .last()
        .map(|o| o.to_string()[..10].to_string())
}

fn since(repo: &Repository, text: &str) -> Result<Since, Report> {
    if let Some(t) = walk::parse_date(text) {
        return Ok(Since::Time(t));
    }
    walk::commit_of(repo, text).map(Since::Commit).map_err(|e| {
        miette!(
            help = "give a revision or a date as YYYY-MM-DD",
            "--since: {e}"
        )
    })
}

/// Summarises every distinct blob the walk names that the cache lacks, in parallel (one
/// repository handle per thread). Returns (parsed, found in the cache).
fn summarize_all(
    git_dir: &Path,
    walked: &walk::Walked,
    store: &mut cache::Cache,
    progress: bool,
) -> (usize, usize) {
    let mut wanted: HashMap<Oid, &str> = HashMap::new();
    for step in &walked.steps {
        for (path, blob) in &step.changes {
            if let Some(blob) = blob {
                wanted.entry(*blob).or_insert(path);
            }
        }
    }
    let total = wanted.len();
    let missing: Vec<(Oid, &str)> = wanted
        .into_iter()
        .filter(|(oid, _)| !store.contains(oid))
        .collect();
    let bar = progress::bar(progress, "parsing blobs", missing.len());
    let done: Vec<(Oid, FileSummary)> = missing
        .par_iter()
        .map_init(
            || Repository::open(git_dir).ok(),
            |repo, (oid, path)| {
                let summary = summarize_blob(repo.as_ref(), *oid, path);
                bar.inc(1);
                (*oid, summary)
            },
        )
        .collect();
    bar.finish_and_clear();
    let parsed = done.len();
    for (oid, summary) in done {
        store.insert(oid, summary);
    }
    (parsed, total - parsed)
}

fn summarize_blob(repo: Option<&Repository>, oid: Oid, path: &str) -> FileSummary {
    let unreadable = |reason: String| FileSummary {
        elements: Vec::new(),
        error: Some(reason),
    };
    let Some(repo) = repo else {
        return unreadable("the repository could not be opened".to_string());
    };
    let blob = match repo.find_blob(oid) {
        Ok(b) => b,
        Err(e) => return unreadable(format!("blob {oid} is missing: {}", e.message())),
    };
    match crate::source::decode(blob.content(), "", path) {
        Ok(text) => summary::summarize(path, &text),
        Err(e) => unreadable(e.to_string()),
    }
}

/// Applies the walked commits to the ledger. A blob that cannot be read leaves its path as
/// it was (the elements of the previous version carry over) and is listed once.
fn apply_all(
    walked: &walk::Walked,
    store: &cache::Cache,
    ledger: &mut Ledger,
    unreadable: &mut Vec<Unreadable>,
) {
    let mut reported: std::collections::HashSet<Oid> = unreadable.iter().map(|u| u.blob).collect();
    let mut paths: HashMap<&str, Arc<str>> = HashMap::new();
    for step in &walked.steps {
        let mut changes = Vec::new();
        for (path, blob) in &step.changes {
            let shared = paths
                .entry(path.as_str())
                .or_insert_with(|| Arc::from(path.as_str()))
                .clone();
            let Some(blob) = blob else {
                changes.push((shared, None));
                continue;
            };
            let summary = store.get(blob).unwrap_or_default();
            if let Some(reason) = &summary.error {
                if reported.insert(*blob) {
                    unreadable.push(Unreadable {
                        commit: step.commit,
                        path: path.clone(),
                        blob: *blob,
                        reason: reason.clone(),
                    });
                }
                continue;
            }
            changes.push((shared, Some((*blob, summary))));
        }
        ledger.apply(step.commit, changes);
    }
    if let Some(last) = walked.steps.last() {
        ledger.finish(last.commit);
    }
}

/// `Oid` as its 20 bytes, for the caches.
mod oid_bytes {
    use git2::Oid;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(oid: &Oid, s: S) -> Result<S::Ok, S::Error> {
        oid.as_bytes().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Oid, D::Error> {
        let bytes: Vec<u8> = Vec::deserialize(d)?;
        Oid::from_bytes(&bytes).map_err(serde::de::Error::custom)
    }
}

/// A map with tuple keys as a list of pairs (postcard has no map keys but strings' order).
mod pairs {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::HashMap;
    use std::hash::Hash;

    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &HashMap<K, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    pub fn deserialize<'de, K, V, D>(d: D) -> Result<HashMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Eq + Hash,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        let list: Vec<(K, V)> = Vec::deserialize(d)?;
        Ok(list.into_iter().collect())
    }
}

/// The ledger's files: path, blob id, summary.
mod files {
    use super::FileSummary;
    use git2::Oid;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::collections::BTreeMap;
    use std::sync::Arc;

    type Files = BTreeMap<Arc<str>, (Oid, Arc<FileSummary>)>;

    pub fn serialize<S: Serializer>(files: &Files, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            files
                .iter()
                .map(|(path, (oid, summary))| (path, oid.as_bytes(), summary)),
        )
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Files, D::Error> {
        let list: Vec<(Arc<str>, Vec<u8>, Arc<FileSummary>)> = Vec::deserialize(d)?;
        list.into_iter()
            .map(|(path, oid, summary)| {
                let oid = Oid::from_bytes(&oid).map_err(serde::de::Error::custom)?;
                Ok((path, (oid, summary)))
            })
            .collect()
    }
}
