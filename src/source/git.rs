//! Git sources: a tree at a revision, and the index, read straight from the object database.

use std::collections::{BTreeMap, HashMap};
use std::ops::Deref;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use git2::{ErrorCode, ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};
use miette::{miette, Report};

use super::{decode, is_within, join, Tree};

const MODE_SYMLINK: i32 = 0o120000;
const MODE_GITLINK: i32 = 0o160000;

/// An open repository, shareable between trees and threads.
#[derive(Clone)]
pub struct Repo {
    handles: Arc<Handles>,
    workdir: Option<PathBuf>,
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo")
            .field("git_dir", &self.handles.git_dir)
            .field("workdir", &self.workdir)
            .finish()
    }
}

/// Open handles on one repository. git2's `Repository` is `Send` but not `Sync`, so each
/// reader takes a handle of its own (an idle one, else one newly opened on the same git
/// directory) and gives it back when done: blob reads on both cores run side by side
/// instead of queueing on one lock. There are at most as many handles as concurrent readers.
struct Handles {
    git_dir: PathBuf,
    idle: Mutex<Vec<Repository>>,
    returned: Condvar,
}

/// A repository handle lent to one reader; back to the idle list when dropped.
pub(super) struct Handle<'r> {
    repo: Option<Repository>,
    from: &'r Handles,
}

impl Deref for Handle<'_> {
    type Target = Repository;
    fn deref(&self) -> &Repository {
        self.repo
            .as_ref()
            .expect("a lent handle is only taken back on drop")
    }
}

impl Drop for Handle<'_> {
    fn drop(&mut self) {
        if let Some(repo) = self.repo.take() {
            self.from.idle().push(repo);
            self.from.returned.notify_one();
        }
    }
}

impl Handles {
    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<Repository>> {
        // A poisoned lock only means another reader panicked; the handles are still usable.
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn take(&self) -> Handle<'_> {
        let lend = |repo| Handle {
            repo: Some(repo),
            from: self,
        };
        if let Some(repo) = self.idle().pop() {
            return lend(repo);
        }
        if let Ok(repo) = Repository::open(&self.git_dir) {
            return lend(repo);
        }
        // No second handle could be opened: wait for the first to come back (it always
        // does, at the end of its reader's call).
        let mut idle = self.idle();
        loop {
            if let Some(repo) = idle.pop() {
                return lend(repo);
            }
            idle = self.returned.wait(idle).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Repo {
    /// Finds the repository containing `start` (a subdirectory or linked worktree works).
    pub fn discover(start: &Path) -> Result<Repo, git2::Error> {
        Repository::discover(start).map(Repo::wrap)
    }

    /// Opens the repository whose git directory is `git_dir` (bare repositories too). As
    /// git does with `--git-dir` and no `--work-tree`, the current directory is the top of
    /// the working tree, so ROOT means the same path in the repository from anywhere
    /// (libgit2 would take the git directory's parent).
    pub fn open(git_dir: &Path) -> Result<Repo, git2::Error> {
        let repo = Repository::open(git_dir)?;
        let top = match repo.is_bare() {
            true => None,
            false => std::env::current_dir().ok(),
        };
        Ok(Repo::wrap_at(repo, top))
    }

    fn wrap(repo: Repository) -> Repo {
        let top = repo.workdir().map(Path::to_path_buf);
        Repo::wrap_at(repo, top)
    }

    fn wrap_at(repo: Repository, top: Option<PathBuf>) -> Repo {
        // libgit2 re-hashes every object it reads by default; git itself does not, and for
        // thousands of blobs the hashing costs more than the reading.
        git2::opts::strict_hash_verification(false);
        let workdir = top.map(|w| w.canonicalize().unwrap_or(w));
        Repo {
            handles: Arc::new(Handles {
                git_dir: repo.path().to_path_buf(),
                idle: Mutex::new(vec![repo]),
                returned: Condvar::new(),
            }),
            workdir,
        }
    }

    /// A handle on the repository for this reader alone.
    fn lock(&self) -> Handle<'_> {
        self.handles.take()
    }

    /// Whether HEAD names a branch with no commit yet (`git init`, nothing committed).
    pub fn head_is_unborn(&self) -> bool {
        let repo = self.lock();
        let unborn = matches!(repo.head(), Err(e) if e.code() == ErrorCode::UnbornBranch);
        unborn
    }

    /// The git directory (`.git`, or the bare repository itself).
    pub fn git_dir(&self) -> &Path {
        &self.handles.git_dir
    }

    /// The working directory, `None` for a bare repository.
    pub fn workdir(&self) -> Option<&Path> {
        self.workdir.as_deref()
    }

    /// Where an `-I` directory lies inside the repository, or None when it lies outside
    /// (a dependencies directory anywhere on disk, which no revision can hold). In a bare
    /// repository, an absolute path or one leaving the top with `..` is outside.
    pub fn include_path(&self, path: &Path) -> Option<String> {
        let Some(workdir) = self.workdir() else {
            let leaves =
                path.is_absolute() || path.components().next() == Some(Component::ParentDir);
            return (!leaves).then(|| super::normalize(&path.to_string_lossy()));
        };
        let rel = absolute(path).strip_prefix(workdir).ok()?.to_path_buf();
        Some(
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/"),
        )
    }

    /// Where `path` (on disk, relative to the current directory) lies inside the repository,
    /// `/`-separated, `""` for the top. In a bare repository paths are taken as written.
    pub fn path_in_repo(&self, path: &Path) -> Result<String, Report> {
        let Some(workdir) = self.workdir() else {
            return Ok(super::normalize(&path.to_string_lossy()));
        };
        let absolute = absolute(path);
        let rel = absolute
            .strip_prefix(workdir)
            .map_err(|_| {
                miette!(
                    "{} is outside the git repository at {}",
                    path.display(),
                    workdir.display()
                )
            })?
            .to_path_buf();
        Ok(rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"))
    }

    /// Resolves a revspec to the tree it names (a commit, a tag, or a tree).
    pub fn tree_of(&self, spec: &str) -> Result<Oid, Report> {
        let repo = self.lock();
        let object = revparse(&repo, spec)?;
        if object.kind() == Some(ObjectType::Blob) {
            return Err(miette!(
                "revision `{spec}` names a file (a blob), not a commit or a tree"
            ));
        }
        let tree = object.peel_to_tree().map_err(|e| {
            miette!(
                "revision `{spec}` does not name a commit or a tree: {}",
                e.message()
            )
        })?;
        Ok(tree.id())
    }

    /// Resolves a revspec to a commit.
    pub fn commit_of(&self, spec: &str) -> Result<Oid, Report> {
        let repo = self.lock();
        let object = revparse(&repo, spec)?;
        let commit = object
            .peel_to_commit()
            .map_err(|e| miette!("revision `{spec}` does not name a commit: {}", e.message()))?;
        Ok(commit.id())
    }

    /// The merge base of two commits, as the tree of that commit and its id.
    pub fn merge_base(&self, a: Oid, b: Oid, describe: &str) -> Result<(Oid, Oid), Report> {
        let repo = self.lock();
        let base = repo.merge_base(a, b).map_err(|e| match repo.is_shallow() {
            true => miette!(
                help = SHALLOW_HELP,
                "no merge base for {describe} in this shallow clone: {}",
                e.message()
            ),
            false => miette!("no merge base for {describe}: {}", e.message()),
        })?;
        let tree = repo
            .find_commit(base)
            .and_then(|c| c.tree())
            .map_err(|e| miette!("cannot read merge base {base}: {}", e.message()))?;
        Ok((tree.id(), base))
    }

    /// A short, unambiguous name for an object id.
    pub fn short(&self, oid: Oid) -> String {
        let s = oid.to_string();
        s[..s.len().min(10)].to_string()
    }
}

/// HEAD is unborn and no reference exists (`git init`, nothing committed). libgit2's
/// `is_empty` also wants HEAD on its default branch name, which `git init -b main` is not.
fn has_no_commits(repo: &Repository) -> bool {
    let unborn = matches!(repo.head(), Err(e) if e.code() == ErrorCode::UnbornBranch);
    unborn
        && repo
            .references()
            .is_ok_and(|mut refs| refs.next().is_none())
}

/// What to do when a revision or merge base is missing from a shallow clone, where that
/// usually means it lies beyond the fetched depth rather than that it does not exist.
const SHALLOW_HELP: &str = "the repository is a shallow clone, so older history was not \
     fetched: run `git fetch --unshallow` (in GitHub Actions, check out with `fetch-depth: 0`; \
     actions/checkout fetches a single commit by default)";

fn revparse<'r>(repo: &'r Repository, spec: &str) -> Result<git2::Object<'r>, Report> {
    repo.revparse_single(spec).map_err(|e| {
        if repo.is_shallow() && e.code() != ErrorCode::Ambiguous {
            return miette!(
                help = SHALLOW_HELP,
                "revision `{spec}` cannot be resolved in this shallow clone: {}",
                e.message()
            );
        }
        let why = match e.code() {
            // `git init` without a commit: HEAD points at a branch that does not exist yet.
            ErrorCode::NotFound | ErrorCode::UnbornBranch if has_no_commits(repo) => {
                "the repository has no commits yet".to_string()
            }
            ErrorCode::NotFound => "not found in the repository".to_string(),
            ErrorCode::Ambiguous => "ambiguous (several objects match)".to_string(),
            _ => e.message().to_string(),
        };
        miette!("revision `{spec}` cannot be resolved: {why}")
    })
}

/// `path` made absolute and free of `.`/`..`, resolving symlinks where the path exists.
fn absolute(path: &Path) -> PathBuf {
    if let Ok(canonical) = path.canonicalize() {
        return canonical;
    }
    let joined = std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// A directory of a git tree at one revision.
pub struct GitTree {
    repo: Repo,
    /// The tree object of the base directory.
    base: Oid,
    label: String,
    /// Blob ids of the files `list_protos` saw, so reading them needs no path lookup.
    listed: Mutex<HashMap<String, Oid, ahash::RandomState>>,
}

impl GitTree {
    /// The directory `dir` of the tree `root_tree`; `Ok(None)` when it does not exist there.
    pub fn new(
        repo: &Repo,
        root_tree: Oid,
        dir: &str,
        label: &str,
    ) -> Result<Option<Self>, Report> {
        let base = {
            let guard = repo.lock();
            let tree = guard
                .find_tree(root_tree)
                .map_err(|e| missing(label, dir, root_tree, &e))?;
            if dir.is_empty() {
                Some(tree.id())
            } else {
                match tree.get_path(Path::new(dir)) {
                    Ok(entry) if entry.kind() == Some(ObjectType::Tree) => Some(entry.id()),
                    Ok(_) => None,
                    Err(e) if e.code() == ErrorCode::NotFound => None,
                    Err(e) => return Err(missing(label, dir, root_tree, &e)),
                }
            }
        };
        Ok(base.map(|base| GitTree {
            repo: repo.clone(),
            base,
            label: label.to_string(),
            listed: Mutex::default(),
        }))
    }
}

fn missing(label: &str, path: &str, oid: Oid, e: &git2::Error) -> Report {
    let path = if path.is_empty() { "." } else { path };
    miette!(
        help = "the repository may be a partial or shallow clone; fetch the missing objects",
        "{path} @ {label}: cannot read object {oid} from the object database: {}",
        e.message()
    )
}

impl GitTree {
    /// The blob id of `path` when the tree walk listed it.
    fn listed_blob(&self, path: &str) -> Option<Oid> {
        self.listed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .copied()
    }
}

impl Tree for GitTree {
    fn label(&self) -> &str {
        &self.label
    }

    fn read(&self, path: &str) -> Result<Option<Arc<str>>, Report> {
        if let Some(oid) = self.listed_blob(path) {
            return self.read_blob(path, oid);
        }
        let repo = self.repo.lock();
        let tree = repo
            .find_tree(self.base)
            .map_err(|e| missing(&self.label, "", self.base, &e))?;
        let entry = match tree.get_path(Path::new(path)) {
            Ok(entry) => entry,
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
            Err(e) => return Err(missing(&self.label, path, self.base, &e)),
        };
        if entry.kind() != Some(ObjectType::Blob) || entry.filemode() == MODE_SYMLINK {
            return Ok(None);
        }
        let blob = repo
            .find_blob(entry.id())
            .map_err(|e| missing(&self.label, path, entry.id(), &e))?;
        decode(blob.content(), &self.label, path).map(Some)
    }

    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report> {
        let repo = self.repo.lock();
        let base = repo
            .find_tree(self.base)
            .map_err(|e| missing(&self.label, "", self.base, &e))?;
        let start = if dir.is_empty() {
            base
        } else {
            match base.get_path(Path::new(dir)) {
                Ok(entry) if entry.kind() == Some(ObjectType::Tree) => {
                    repo.find_tree(entry.id())
                        .map_err(|e| missing(&self.label, dir, entry.id(), &e))?
                }
                Ok(_) => return Ok(None),
                Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
                Err(e) => return Err(missing(&self.label, dir, self.base, &e)),
            }
        };
        let mut out = Vec::new();
        start
            .walk(TreeWalkMode::PreOrder, |parent, entry| {
                let is_proto_blob = entry.kind() == Some(ObjectType::Blob)
                    && entry.filemode() != MODE_SYMLINK
                    && entry.name_bytes().ends_with(b".proto");
                if is_proto_blob {
                    let name = String::from_utf8_lossy(entry.name_bytes());
                    out.push((join(dir, &format!("{parent}{name}")), entry.id()));
                }
                TreeWalkResult::Ok
            })
            .map_err(|e| missing(&self.label, dir, start.id(), &e))?;
        out.sort();
        let mut listed = self.listed.lock().unwrap_or_else(|e| e.into_inner());
        listed.extend(out.iter().cloned());
        Ok(Some(out.into_iter().map(|(path, _)| path).collect()))
    }

    fn read_blob(&self, path: &str, oid: Oid) -> Result<Option<Arc<str>>, Report> {
        let repo = self.repo.lock();
        let blob = repo
            .find_blob(oid)
            .map_err(|e| missing(&self.label, path, oid, &e))?;
        decode(blob.content(), &self.label, path).map(Some)
    }

    fn blob_id(&self, path: &str) -> Option<Oid> {
        let known = self.listed_blob(path);
        // Not listed (an `-I` root, or an import outside the listed directory): the tree
        // entry names the blob, found without inflating it. Only what `read` would read.
        known.or_else(|| {
            let repo = self.repo.lock();
            let tree = repo.find_tree(self.base).ok()?;
            let entry = tree.get_path(Path::new(path)).ok()?;
            let is_file =
                entry.kind() == Some(ObjectType::Blob) && entry.filemode() != MODE_SYMLINK;
            is_file.then(|| entry.id())
        })
    }
}

/// A directory of the index (the staging area): what `git commit` would record.
pub struct IndexTree {
    repo: Repo,
    /// Stage-0 entries by path relative to `base`.
    entries: BTreeMap<String, Oid>,
    /// Paths (relative to `base`) with unresolved merge conflicts.
    conflicted: Vec<String>,
    label: String,
}

impl IndexTree {
    /// The directory `dir` of the index; `Ok(None)` when no staged file lies under it.
    pub fn new(repo: &Repo, dir: &str) -> Result<Option<Self>, Report> {
        let label = "index".to_string();
        let mut entries = BTreeMap::new();
        let mut conflicted = Vec::new();
        {
            let guard = repo.lock();
            let index = guard
                .index()
                .map_err(|e| miette!("cannot read the git index: {}", e.message()))?;
            for entry in index.iter() {
                let mode = entry.mode as i32;
                if mode == MODE_SYMLINK || mode == MODE_GITLINK {
                    continue;
                }
                let path = String::from_utf8_lossy(&entry.path).into_owned();
                if !is_within(&path, dir) {
                    continue;
                }
                let rel = if dir.is_empty() {
                    path
                } else {
                    path[dir.len()..].trim_start_matches('/').to_string()
                };
                // Bits 12-13 of the flags hold the merge stage.
                let stage = (entry.flags >> 12) & 0x3;
                if stage == 0 {
                    entries.insert(rel, entry.id);
                } else {
                    conflicted.push(rel);
                }
            }
        }
        if entries.is_empty() && conflicted.is_empty() {
            return Ok(None);
        }
        Ok(Some(IndexTree {
            repo: repo.clone(),
            entries,
            conflicted,
            label,
        }))
    }
}

impl Tree for IndexTree {
    fn label(&self) -> &str {
        &self.label
    }

    fn read(&self, path: &str) -> Result<Option<Arc<str>>, Report> {
        if self.conflicted.iter().any(|p| p == path) {
            return Err(miette!(
                "{path} @ {}: file has unresolved merge conflicts",
                self.label
            ));
        }
        let Some(oid) = self.entries.get(path) else {
            return Ok(None);
        };
        let repo = self.repo.lock();
        let blob = repo
            .find_blob(*oid)
            .map_err(|e| missing(&self.label, path, *oid, &e))?;
        decode(blob.content(), &self.label, path).map(Some)
    }

    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report> {
        let mut any = false;
        let mut out = Vec::new();
        for path in self.entries.keys().chain(self.conflicted.iter()) {
            if is_within(path, dir) && path != dir {
                any = true;
                if path.ends_with(".proto") {
                    out.push(path.clone());
                }
            }
        }
        out.sort();
        out.dedup();
        Ok(any.then_some(out))
    }

    fn blob_id(&self, path: &str) -> Option<Oid> {
        self.entries.get(path).copied()
    }

    fn proto_count(&self) -> Option<usize> {
        let staged = self
            .entries
            .keys()
            .filter(|p| p.ends_with(".proto"))
            .count();
        Some(staged + self.conflicted.len())
    }
}
