//! Opening the two sides of a comparison: the new side (the working tree, a revision or the
//! index) and the old one (a revision, a merge base or a directory), each a [`Snapshot`]: its
//! ROOT and its include roots, read from the same revision.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{miette, Report};

use super::{
    image_warning, is_image, normalize, FsTree, GitTree, ImageTree, IndexTree, Repo, Shown, Tree,
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

/// What to compare, as the command line gives it.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The compared root (a directory on disk, or a path inside the repository).
    pub root: &'a Path,
    /// A git revspec or an existing directory.
    pub against: &'a str,
    pub new_side: &'a NewSide,
    /// Compare against the merge base of the new side's commit and `against`.
    pub merge_base: bool,
    pub git_dir: Option<&'a Path>,
    /// Include roots for imports, read from the same revision as each side.
    pub includes: &'a [PathBuf],
    /// The repository found from `root`, if the caller opened it already.
    pub repo: Option<&'a Repo>,
}

impl Request<'_> {
    /// The old side is a directory on disk rather than a revision.
    pub fn against_is_dir(&self) -> bool {
        Path::new(self.against).is_dir() && !self.merge_base
    }

    /// The old side is an image file (a buf image or protoc descriptor set).
    pub fn against_is_image(&self) -> bool {
        is_image(Path::new(self.against)) && !self.merge_base
    }

    /// The new side is an image file given as ROOT.
    pub fn root_is_image(&self) -> bool {
        *self.new_side == NewSide::Worktree && is_image(self.root)
    }
}

/// One side of the comparison: its ROOT and its include roots.
pub struct Snapshot {
    pub root: Arc<dyn Tree>,
    pub includes: Vec<Arc<dyn Tree>>,
}

impl Snapshot {
    /// What diagnostics call this side.
    pub fn label(&self) -> &str {
        self.root.label()
    }
}

/// Opens both sides of a comparison: (new, old, and the git directory both are read from
/// when both are revisions or the index: a directory or an image on either side has no
/// blob ids to key a cache by).
pub fn open_sides(
    opts: &Request,
    warnings: &mut Vec<Report>,
) -> Result<(Snapshot, Snapshot, Option<PathBuf>), Report> {
    let against_dir = Path::new(opts.against);
    let against_is_dir = opts.against_is_dir();
    let against_is_image = opts.against_is_image();
    let needs_git = !(against_is_dir || against_is_image) || *opts.new_side != NewSide::Worktree;
    let repo = if needs_git {
        Some(open_repo(opts)?)
    } else {
        None
    };
    let on_disk = against_is_dir || against_is_image || opts.root_is_image();
    let git_dir = repo
        .as_ref()
        .filter(|_| !on_disk)
        .map(|repo| repo.git_dir().to_path_buf());
    let new = match (opts.new_side, &repo) {
        (NewSide::Worktree, _) if opts.root_is_image() => {
            image_side(opts.root, &opts.root.display().to_string(), warnings)?
        }
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
        _ if against_is_image => image_side(against_dir, opts.against, warnings)?,
        Some(repo) if !against_is_dir => {
            let (tree, label) = old_tree(opts, repo)?;
            let root_path = repo.path_in_repo(opts.root)?;
            if GitTree::new(repo, tree, &root_path, &label)?.is_some() {
                git_side(opts, repo, tree, &label)?
            } else {
                warnings.push(miette!(
                    severity = miette::Severity::Warning,
                    "{} @ {label}: ROOT does not exist at this revision; every file is new, so \
                     nothing can break",
                    shown(&root_path)
                ));
                Snapshot {
                    root: Arc::new(EmptyTree(label)),
                    includes: Vec::new(),
                }
            }
        }
        _ => dir_side(opts, against_dir)?,
    };
    Ok((new, old, git_dir))
}

/// The old side when ROOT was created after the `--against` revision (the first commit of a
/// `proto/` directory): no files, so every file of the new side is an addition.
struct EmptyTree(String);

impl Tree for EmptyTree {
    fn label(&self) -> &str {
        &self.0
    }
    fn read(&self, _path: &str) -> Result<Option<Arc<str>>, Report> {
        Ok(None)
    }
    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report> {
        Ok(normalize(dir).is_empty().then(Vec::new))
    }
}

fn unreachable_side() -> Result<Snapshot, Report> {
    Err(miette!("internal error: a git side without a repository"))
}

fn open_repo(opts: &Request) -> Result<Repo, Report> {
    if let (Some(repo), None) = (opts.repo, opts.git_dir) {
        return Ok(repo.clone());
    }
    if let Some(git_dir) = opts.git_dir {
        return Repo::open(git_dir).map_err(|e| {
            miette!(
                "--git-dir {}: not a git repository: {}",
                git_dir.display(),
                e.message()
            )
        });
    }
    let start = if opts.root.exists() {
        opts.root.to_path_buf()
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

fn worktree_side(opts: &Request, label: &str) -> Result<Snapshot, Report> {
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
    Ok(Snapshot {
        root: Shown::wrap(Arc::new(FsTree::new(opts.root, label)), opts.root),
        includes,
    })
}

/// An image side: its files only (an image built with `--include_imports` holds its
/// imports too), and a warning when its positions are not the user's.
fn image_side(path: &Path, label: &str, warnings: &mut Vec<Report>) -> Result<Snapshot, Report> {
    let tree = ImageTree::open(path, label)?;
    warnings.extend(image_warning(label, &tree));
    Ok(Snapshot {
        root: Arc::new(tree),
        includes: Vec::new(),
    })
}

fn dir_side(opts: &Request, dir: &Path) -> Result<Snapshot, Report> {
    let label = opts.against;
    let includes = opts
        .includes
        .iter()
        .map(|inc| disk_include(inc, label))
        .collect::<Result<_, _>>()?;
    Ok(Snapshot {
        root: Shown::wrap(Arc::new(FsTree::new(dir, label)), dir),
        includes,
    })
}

/// An `-I` directory for one revision (or the index): read from it when the repository
/// tracks the directory there; read from disk for every revision when git does not track it
/// or it lies outside the repository (no revision can have it then).
fn revision_include(
    repo: &Repo,
    dir: &Path,
    label: &str,
    in_revision: impl Fn(&str) -> Result<Option<Arc<dyn Tree>>, Report>,
) -> Result<Arc<dyn Tree>, Report> {
    let Some(path) = repo.include_path(dir) else {
        return outside_include(dir, label);
    };
    match in_revision(&path)? {
        Some(include) => Ok(Shown::wrap(include, dir)),
        None => untracked_include(dir, &path, label),
    }
}

/// An include root outside the repository: a dependencies directory anywhere on disk.
fn outside_include(dir: &Path, label: &str) -> Result<Arc<dyn Tree>, Report> {
    if dir.is_dir() {
        return Ok(Shown::wrap(Arc::new(FsTree::new(dir, "disk")), dir));
    }
    Err(miette!(
        help = "an -I directory outside the repository is read from disk for both sides",
        "{} @ {label}: include root is not a directory",
        dir.display()
    ))
}

/// An include root that git does not track (dependencies exported with `buf export` into a
/// git-ignored directory): read from disk for every revision, since no revision has it.
fn untracked_include(dir: &Path, path: &str, label: &str) -> Result<Arc<dyn Tree>, Report> {
    if dir.is_dir() {
        return Ok(Shown::wrap(Arc::new(FsTree::new(dir, "working tree")), dir));
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
    Ok(Shown::wrap(Arc::new(FsTree::new(dir, label)), dir))
}

fn git_side(opts: &Request, repo: &Repo, tree: git2::Oid, label: &str) -> Result<Snapshot, Report> {
    let root_path = repo.path_in_repo(opts.root)?;
    let root = GitTree::new(repo, tree, &root_path, label)?.ok_or_else(|| {
        miette!(
            "{} @ {label}: ROOT does not exist at this revision",
            shown(&root_path)
        )
    })?;
    let mut includes: Vec<Arc<dyn Tree>> = Vec::new();
    for dir in opts.includes {
        includes.push(revision_include(repo, dir, label, |path| {
            Ok(GitTree::new(repo, tree, path, label)?.map(|t| Arc::new(t) as Arc<dyn Tree>))
        })?);
    }
    Ok(Snapshot {
        root: Shown::wrap(Arc::new(root), opts.root),
        includes,
    })
}

fn index_side(opts: &Request, repo: &Repo) -> Result<Snapshot, Report> {
    let root_path = repo.path_in_repo(opts.root)?;
    let root = IndexTree::new(repo, &root_path)?
        .ok_or_else(|| miette!("{} @ index: no staged file under ROOT", shown(&root_path)))?;
    let mut includes: Vec<Arc<dyn Tree>> = Vec::new();
    for dir in opts.includes {
        includes.push(revision_include(repo, dir, "index", |path| {
            Ok(IndexTree::new(repo, path)?.map(|t| Arc::new(t) as Arc<dyn Tree>))
        })?);
    }
    Ok(Snapshot {
        root: Shown::wrap(Arc::new(root), opts.root),
        includes,
    })
}

/// The old side's tree and what to call it.
fn old_tree(opts: &Request, repo: &Repo) -> Result<(git2::Oid, String), Report> {
    if !opts.merge_base {
        return Ok((repo.tree_of(opts.against)?, opts.against.to_string()));
    }
    let new_spec = match opts.new_side {
        NewSide::Rev(rev) => rev.as_str(),
        NewSide::Worktree | NewSide::Staged => "HEAD",
    };
    let new_commit = repo.commit_of(new_spec)?;
    let against = repo.commit_of(opts.against)?;
    let describe = format!("`{new_spec}` and `{}`", opts.against);
    let (tree, base) = repo.merge_base(new_commit, against, &describe)?;
    let label = format!(
        "merge-base({new_spec}, {}) = {}",
        opts.against,
        repo.short(base)
    );
    Ok((tree, label))
}

/// A path inside the repository as diagnostics show it: `.` for the top.
pub fn shown(path: &str) -> &str {
    if path.is_empty() {
        "."
    } else {
        path
    }
}
