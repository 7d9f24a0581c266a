//! The commits to audit and what each changed under ROOT: a first-parent walk of REV (every
//! commit with `--all-parents`), oldest first. A commit whose ROOT tree id equals the previous
//! one's is skipped; otherwise the two trees are compared by id, directory by directory, so
//! only the `.proto` blobs that changed are read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use git2::{ObjectType, Oid, Repository, Sort};
use miette::{miette, Report};

use crate::source::is_within;

const MODE_SYMLINK: i32 = 0o120000;

/// A commit as findings cite it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CommitInfo {
    #[serde(with = "super::oid_bytes")]
    pub oid: Oid,
    /// Author time, seconds since the epoch, and the author's UTC offset in minutes.
    pub time: i64,
    pub offset_minutes: i32,
    pub author: String,
    pub subject: String,
}

impl CommitInfo {
    /// The first 10 hex digits, as the rest of protocompat abbreviates ids.
    pub fn short(&self) -> String {
        self.oid.to_string()[..10].to_string()
    }

    /// The author date, `YYYY-MM-DD`, in the author's time zone.
    pub fn date(&self) -> String {
        let local = self.time + i64::from(self.offset_minutes) * 60;
        let (y, m, d) = civil_from_days(local.div_euclid(86_400));
        format!("{y:04}-{m:02}-{d:02}")
    }
}

/// Days since 1970-01-01 -> (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `YYYY-MM-DD` (UTC midnight) -> seconds since the epoch.
pub fn parse_date(text: &str) -> Option<i64> {
    let mut parts = text.splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || text.len() != 10 {
        return None;
    }
    // Days from civil (the inverse of `civil_from_days`).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * 86_400)
}

/// Where the audit starts.
#[derive(Debug, Clone)]
pub enum Since {
    /// From this commit (its tree is the first snapshot).
    Commit(Oid),
    /// From the first commit authored at or after this time.
    Time(i64),
}

/// What to walk.
#[derive(Debug, Clone, Default)]
pub struct WalkOptions {
    pub rev: String,
    pub since: Option<Since>,
    pub all_parents: bool,
    /// ROOT as a path inside the repository (`""` for the top).
    pub root: String,
    /// `--path` / `--exclude-path`, relative to ROOT.
    pub paths: Vec<String>,
    pub exclude_paths: Vec<String>,
    /// The configuration's modules as (roots, excludes), relative to ROOT: a file is walked
    /// when a module's root holds it and none of that module's excludes does. Empty: all.
    pub modules: Vec<(Vec<String>, Vec<String>)>,
    /// Draw a progress bar (see `super::progress`).
    pub progress: bool,
}

/// One commit that changed something under ROOT: each changed `.proto` file (path relative
/// to ROOT) and its new blob, `None` when it was deleted.
#[derive(Debug, Clone)]
pub struct Step {
    pub commit: u32,
    pub changes: Vec<(String, Option<Oid>)>,
}

/// The walk: the commits cited (index = `Step::commit`) and the steps, oldest first.
#[derive(Debug, Default)]
pub struct Walked {
    pub commits: Vec<CommitInfo>,
    pub steps: Vec<Step>,
    /// Commits walked, including those that changed nothing under ROOT.
    pub walked: usize,
}

/// Opens the repository holding `start` (or the git directory given), with its git dir.
pub fn open(git_dir: Option<&Path>, start: &Path) -> Result<(Repository, PathBuf), Report> {
    let repo = match git_dir {
        Some(dir) => Repository::open(dir).map_err(|e| {
            miette!(
                "--git-dir {}: not a git repository: {}",
                dir.display(),
                e.message()
            )
        })?,
        None => Repository::discover(start).map_err(|e| {
            miette!(
                help = "run inside a git repository or pass --git-dir",
                "{}: not a git repository (or any parent up to the filesystem root): {}",
                start.display(),
                e.message()
            )
        })?,
    };
    let path = repo.path().to_path_buf();
    Ok((repo, path))
}

/// The commit a revspec names.
pub fn commit_of(repo: &Repository, spec: &str) -> Result<Oid, Report> {
    repo.revparse_single(spec)
        .and_then(|o| o.peel_to_commit())
        .map(|c| c.id())
        .map_err(|e| miette!("revision `{spec}` does not name a commit: {}", e.message()))
}

/// The commits of the walk, oldest first.
fn commit_list(repo: &Repository, opts: &WalkOptions) -> Result<Vec<Oid>, Report> {
    let tip = commit_of(repo, &opts.rev)?;
    let fail =
        |e: git2::Error| miette!("cannot walk the history of `{}`: {}", opts.rev, e.message());
    let mut walk = repo.revwalk().map_err(fail)?;
    walk.push(tip).map_err(fail)?;
    if opts.all_parents {
        walk.set_sorting(Sort::TOPOLOGICAL | Sort::TIME | Sort::REVERSE)
            .map_err(fail)?;
    } else {
        walk.simplify_first_parent().map_err(fail)?;
        walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)
            .map_err(fail)?;
    }
    let all: Vec<Oid> = walk.collect::<Result<_, _>>().map_err(fail)?;
    match &opts.since {
        None => Ok(all),
        Some(Since::Commit(start)) => {
            if opts.all_parents {
                let ancestors = descendants_of(repo, &all, *start);
                return Ok(ancestors);
            }
            let at = all.iter().position(|c| c == start).ok_or_else(|| {
                miette!(
                    help = "give --since a commit on the first-parent history of the audited revision, or pass --all-parents",
                    "--since {start}: not on the first-parent history of `{}`",
                    opts.rev
                )
            })?;
            Ok(all[at..].to_vec())
        }
        Some(Since::Time(t)) => authored_since(repo, all, *t).map_err(fail),
    }
}

/// The commits of `list` authored at or after `t`.
fn authored_since(repo: &Repository, list: Vec<Oid>, t: i64) -> Result<Vec<Oid>, git2::Error> {
    let mut kept = Vec::new();
    for oid in list {
        if repo.find_commit(oid)?.author().when().seconds() >= t {
            kept.push(oid);
        }
    }
    Ok(kept)
}

/// The first-parent commits after `old` up to `tip`, oldest first, when `old` is on the
/// first-parent history of `tip` (the walk of `old` can then be extended with them); `None`
/// when it is not (a rewritten history) or cannot be read. Under a `--since` date the
/// commits authored before it are left out, as a walk from scratch leaves them out.
pub fn first_parent_after(
    repo: &Repository,
    tip: Oid,
    old: Oid,
    since: Option<&Since>,
) -> Option<Vec<Oid>> {
    let mut list = Vec::new();
    let mut at = repo.find_commit(tip).ok()?;
    while at.id() != old {
        list.push(at.id());
        at = at.parent(0).ok()?;
    }
    list.reverse();
    match since {
        Some(Since::Time(t)) => authored_since(repo, list, *t).ok(),
        _ => Some(list),
    }
}

/// The tree id of ROOT at a commit (`None` when ROOT is absent there).
pub fn root_tree_of(repo: &Repository, commit: Oid, root: &str) -> Result<Option<Oid>, Report> {
    let commit = repo
        .find_commit(commit)
        .map_err(|e| miette!("cannot read commit {commit}: {}", e.message()))?;
    root_tree(&commit, root)
}

/// `start` and the commits of `all` that descend from it, in `all`'s order.
fn descendants_of(repo: &Repository, all: &[Oid], start: Oid) -> Vec<Oid> {
    all.iter()
        .copied()
        .filter(|&c| c == start || repo.graph_descendant_of(c, start).unwrap_or(false))
        .collect()
}

/// Walks the history: each commit whose ROOT changed, with its changed `.proto` files.
pub fn walk(repo: &Repository, opts: &WalkOptions) -> Result<Walked, Report> {
    let list = commit_list(repo, opts)?;
    walk_list(repo, opts, list, None, 0)
}

/// Walks the commits of `list` (oldest first) from a ROOT tree `previous`: the steps are
/// numbered from `first_index` on, so a walk can continue one that ended there.
pub fn walk_list(
    repo: &Repository,
    opts: &WalkOptions,
    list: Vec<Oid>,
    mut previous: Option<Oid>,
    first_index: u32,
) -> Result<Walked, Report> {
    let mut walked = Walked {
        walked: list.len(),
        ..Walked::default()
    };
    let bar = super::progress::bar(opts.progress, "walking commits", list.len());
    for oid in list {
        bar.inc(1);
        let commit = repo
            .find_commit(oid)
            .map_err(|e| miette!("cannot read commit {oid}: {}", e.message()))?;
        let root = root_tree(&commit, &opts.root)?;
        if root == previous {
            continue;
        }
        let mut changes = Vec::new();
        diff_trees(repo, previous, root, "", opts, &mut changes)
            .map_err(|e| miette!("cannot read the tree of commit {oid}: {}", e.message()))?;
        previous = root;
        if changes.is_empty() {
            continue;
        }
        changes.sort();
        walked.steps.push(Step {
            commit: first_index + walked.commits.len() as u32,
            changes,
        });
        walked.commits.push(commit_info(&commit));
    }
    bar.finish_and_clear();
    Ok(walked)
}

fn commit_info(commit: &git2::Commit) -> CommitInfo {
    let author = commit.author();
    CommitInfo {
        oid: commit.id(),
        time: author.when().seconds(),
        offset_minutes: author.when().offset_minutes(),
        author: author.name().unwrap_or("").to_string(),
        subject: commit.summary().unwrap_or("").to_string(),
    }
}

/// The tree id of ROOT at a commit, `None` when ROOT does not exist there.
fn root_tree(commit: &git2::Commit, root: &str) -> Result<Option<Oid>, Report> {
    let tree = commit.tree().map_err(|e| {
        miette!(
            "cannot read the tree of commit {}: {}",
            commit.id(),
            e.message()
        )
    })?;
    if root.is_empty() {
        return Ok(Some(tree.id()));
    }
    match tree.get_path(Path::new(root)) {
        Ok(entry) if entry.kind() == Some(ObjectType::Tree) => Ok(Some(entry.id())),
        Ok(_) => Ok(None),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(miette!(
            "cannot read {root} at commit {}: {}",
            commit.id(),
            e.message()
        )),
    }
}

/// What a tree entry is, for the comparison.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EntryKind {
    Tree,
    Proto,
    Other,
}

fn entries(
    repo: &Repository,
    tree: Option<Oid>,
) -> Result<HashMap<String, (Oid, EntryKind)>, git2::Error> {
    let Some(tree) = tree else {
        return Ok(HashMap::new());
    };
    let tree = repo.find_tree(tree)?;
    Ok(tree
        .iter()
        .filter_map(|e| {
            let name = e.name()?.to_string();
            let kind = match e.kind() {
                Some(ObjectType::Tree) => EntryKind::Tree,
                Some(ObjectType::Blob)
                    if e.filemode() != MODE_SYMLINK && name.ends_with(".proto") =>
                {
                    EntryKind::Proto
                }
                _ => EntryKind::Other,
            };
            Some((name, (e.id(), kind)))
        })
        .collect())
}

/// Collects the `.proto` files that differ between two trees (either may be absent).
fn diff_trees(
    repo: &Repository,
    old: Option<Oid>,
    new: Option<Oid>,
    prefix: &str,
    opts: &WalkOptions,
    out: &mut Vec<(String, Option<Oid>)>,
) -> Result<(), git2::Error> {
    if old == new {
        return Ok(());
    }
    let (old_entries, new_entries) = (entries(repo, old)?, entries(repo, new)?);
    let tree_of = |entry: Option<&(Oid, EntryKind)>| {
        entry
            .filter(|(_, k)| *k == EntryKind::Tree)
            .map(|(id, _)| *id)
    };
    let blob_of = |entry: Option<&(Oid, EntryKind)>| {
        entry
            .filter(|(_, k)| *k == EntryKind::Proto)
            .map(|(id, _)| *id)
    };
    let mut names: Vec<&String> = old_entries.keys().chain(new_entries.keys()).collect();
    names.sort();
    names.dedup();
    for name in names {
        let (o, n) = (old_entries.get(name), new_entries.get(name));
        if o == n {
            continue;
        }
        let path = crate::source::join(prefix, name);
        let (old_tree, new_tree) = (tree_of(o), tree_of(n));
        if old_tree.is_some() || new_tree.is_some() {
            diff_trees(repo, old_tree, new_tree, &path, opts, out)?;
        }
        let (old_blob, new_blob) = (blob_of(o), blob_of(n));
        if old_blob != new_blob && wanted(&path, opts) {
            out.push((path, new_blob));
        }
    }
    Ok(())
}

/// `--path` / `--exclude-path` filters and the modules' roots and excludes (paths relative
/// to ROOT).
fn wanted(path: &str, opts: &WalkOptions) -> bool {
    let in_module = |(roots, excludes): &(Vec<String>, Vec<String>)| {
        roots.iter().any(|r| is_within(path, r)) && !excludes.iter().any(|e| is_within(path, e))
    };
    (opts.paths.is_empty() || opts.paths.iter().any(|p| is_within(path, p)))
        && !opts.exclude_paths.iter().any(|p| is_within(path, p))
        && (opts.modules.is_empty() || opts.modules.iter().any(in_module))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        for (text, days) in [
            ("1970-01-01", 0),
            ("2000-03-01", 11_017),
            ("2024-02-29", 19_782),
        ] {
            assert_eq!(parse_date(text), Some(days * 86_400), "{text}");
            assert_eq!(
                {
                    let (y, m, d) = civil_from_days(days);
                    format!("{y:04}-{m:02}-{d:02}")
                },
                text
            );
        }
        assert_eq!(parse_date("2024-13-01"), None);
        assert_eq!(parse_date("HEAD~3"), None);
    }
}
