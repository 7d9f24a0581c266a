//! Loading a schema from a snapshot: list and read the compared files of one module (by the
//! layout and `--path`/`--exclude-path`), then build them with imports resolved in the same
//! snapshot. Nothing here knows the command line, so `audit` can load thousands of
//! snapshots in one process; a [`Loader`] makes that cheap by reading and parsing each
//! distinct file (git blob) once.

use std::collections::HashMap;
use std::sync::Arc;

use miette::{miette, Report};
use rayon::prelude::*;

use super::cache::{CacheStats, ParseCache, Parsed};
use super::Error;
use crate::config::Layout;
use crate::link::{self, BuildOutput, ImportResolver, MissingImport, SourceFile};
use crate::parse::{self, ParsedFile};
use crate::source::{
    is_within, join, normalize, shown, BlobId, SearchRoot, Snapshot, TreeResolver,
};

/// Which files of ROOT are compared: under one of `paths` (all when empty) and under none
/// of `exclude_paths` (both relative to ROOT).
#[derive(Debug, Clone, Copy, Default)]
pub struct PathFilter<'a> {
    pub paths: &'a [String],
    pub exclude_paths: &'a [String],
}

/// One side's module, loaded: its files and the schema built from them.
pub struct Loaded {
    pub files: Collected,
    pub built: BuildOutput,
}

/// Reads one module of a snapshot and builds its schema. Missing imports are in
/// `built.unresolved_imports`, for the caller to judge (see [`unresolved_imports`]).
/// One-shot: nothing is kept for a later load (see [`Loader`] for that).
pub fn load(
    side: &Snapshot,
    layout: &Layout,
    module: usize,
    filter: &PathFilter,
) -> Result<Loaded, Error> {
    let mut files = collect(side, layout, module, filter)?;
    let built = build(&mut files)?;
    Ok(Loaded { files, built })
}

/// Builds the schema of collected files. Syntax trees a [`Loader::collect`] gave are moved
/// into the build (taken out of `files`), so each is freed once its file is lowered.
pub fn build(files: &mut Collected) -> Result<BuildOutput, Error> {
    build_with(files, None, None)
}

/// [`build`], taking from `old` (the build of another revision) each file whose text and
/// import closure did not change (see [`link::build_parsed_reusing`]).
pub fn build_reusing(files: &mut Collected, old: &link::Reuse) -> Result<BuildOutput, Error> {
    build_with(files, None, Some(old))
}

/// Loads many snapshots of one repository cheaply: each file's text and syntax tree are
/// kept by git blob id, so a file unchanged since an earlier load is neither read nor
/// parsed again (compared files and imports alike, `-I` roots included). Names, symbols and
/// the model are still built per load, since they depend on the other files.
///
/// ```ignore
/// let loader = engine::Loader::new();
/// for commit in commits {
///     let snapshot = Snapshot { root: Arc::new(GitTree::new(&repo, tree, "", &label)?.unwrap()), includes: vec![] };
///     let loaded = loader.load(&snapshot, &layout, 0, &PathFilter::default())?;
///     // loaded.built.schema: the compared files; loaded.built.imports: what they import
/// }
/// ```
///
/// Memory stays at about the files of the last few loads (entries unused by the last
/// [`Loader::DEFAULT_KEEP`] loads are dropped). Files whose tree has no blob id (a
/// directory on disk) are read and parsed every time, as [`load`] does. The result of a
/// load is exactly [`load`]'s. A `Loader` is `Sync`: loads may run on several threads.
pub struct Loader {
    cache: ParseCache,
}

impl Default for Loader {
    fn default() -> Self {
        Loader::new()
    }
}

impl Loader {
    /// How many recent loads' files stay cached by default: both sides of a comparison and
    /// the previous pair, so walking history one commit at a time hits on every unchanged file.
    pub const DEFAULT_KEEP: u64 = 4;

    pub fn new() -> Loader {
        Loader::keeping(Loader::DEFAULT_KEEP)
    }

    /// A loader that keeps the files used by the last `loads` loads (at least 1).
    pub fn keeping(loads: u64) -> Loader {
        Loader {
            cache: ParseCache::new(loads),
        }
    }

    /// As [`load`], with texts and trees from the cache where the blob id is known.
    pub fn load(
        &self,
        side: &Snapshot,
        layout: &Layout,
        module: usize,
        filter: &PathFilter,
    ) -> Result<Loaded, Error> {
        self.cache.start_load();
        let loaded = collect_with(side, layout, module, filter, Some(&self.cache))
            .map_err(Error::from)
            .and_then(|mut files| {
                let built = build_with(&mut files, Some(&self.cache), None)?;
                Ok(Loaded { files, built })
            });
        self.cache.finish_load();
        loaded
    }

    /// As [`collect`], with each file read and parsed once per blob id across the loads of
    /// this loader: `check` collects both sides through one loader, so a file identical at
    /// both revisions (the same blob) is read and parsed once, and both builds share its
    /// text and tree. The trees travel in the [`Collected`], for [`build`].
    pub fn collect(
        &self,
        side: &Snapshot,
        layout: &Layout,
        module: usize,
        filter: &PathFilter,
    ) -> Result<Collected, Report> {
        self.cache.start_load();
        let collected = collect_with(side, layout, module, filter, Some(&self.cache));
        self.cache.finish_load();
        collected
    }

    /// As [`Loader::collect`], for files already listed ([`list`]): only those whose path
    /// relative to their root is in `only`, when given.
    pub fn read(
        &self,
        listing: &Listing,
        only: Option<&std::collections::HashSet<String>>,
    ) -> Result<Collected, Report> {
        self.cache.start_load();
        let collected = read_listed(listing, only, Some(&self.cache));
        self.cache.finish_load();
        collected
    }

    /// What the cache did so far.
    pub fn stats(&self) -> CacheStats {
        self.cache.stats()
    }
}

/// Builds collected files, parsing those the cache did not give, and resolving imports
/// through the cache when there is one.
fn build_with(
    files: &mut Collected,
    cache: Option<&ParseCache>,
    old: Option<&link::Reuse>,
) -> Result<BuildOutput, Error> {
    finish(prepare_with(files, cache)?, old)
}

/// The first half of [`build`]: the files parsed, their imports loaded and their symbols
/// collected, none of which depends on another revision's build. `check` prepares the new
/// side while the old side builds, then [`finish`]es it with the old side's reuse.
pub fn prepare(files: &mut Collected) -> Result<link::Prepared, Error> {
    prepare_with(files, None)
}

/// The second half of [`build`]: lowering a [`prepare`]d side, taking from `old` (the
/// build of another revision) each file whose text and import closure did not change.
pub fn finish(prepared: link::Prepared, old: Option<&link::Reuse>) -> Result<BuildOutput, Error> {
    prepared.finish(old).map_err(|e| Error {
        diagnostics: e.diagnostics,
    })
}

/// [`finish`] for the last build of a series (the new side of a check): no later build
/// takes from it, so it records nothing for one (`link::Prepared::finish_last`) and its
/// `reuse` is empty.
pub fn finish_last(
    prepared: link::Prepared,
    old: Option<&link::Reuse>,
) -> Result<BuildOutput, Error> {
    prepared.finish_last(old).map_err(|e| Error {
        diagnostics: e.diagnostics,
    })
}

fn prepare_with(
    files: &mut Collected,
    cache: Option<&ParseCache>,
) -> Result<link::Prepared, Error> {
    let parse_missing = |(file, tree): (&SourceFile, Option<Arc<ParsedFile>>)| {
        let tree = tree.unwrap_or_else(|| Arc::new(parse::parse(&file.text)));
        (file.clone(), tree)
    };
    let trees = std::mem::take(&mut files.trees);
    let trees = trees
        .into_iter()
        .chain(std::iter::repeat(None))
        .take(files.files.len());
    let pairs = files.files.iter().zip(trees);
    let parsed: Vec<(SourceFile, Arc<ParsedFile>)> = if files.files.len() > 4 {
        pairs
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(parse_missing)
            .collect()
    } else {
        pairs.map(parse_missing).collect()
    };
    let result = match cache {
        Some(cache) => {
            let resolver = CachedResolver {
                resolver: &files.resolver,
                cache,
            };
            link::prepare_parsed(parsed, &resolver)
        }
        None => link::prepare_parsed(parsed, &files.resolver),
    };
    result.map_err(|e| Error {
        diagnostics: e.diagnostics,
    })
}

/// Resolves imports as [`TreeResolver`] does (the first root holding the path wins), taking
/// texts and trees from the cache when the root's tree knows the file's blob id.
struct CachedResolver<'a> {
    resolver: &'a TreeResolver,
    cache: &'a ParseCache,
}

impl ImportResolver for CachedResolver<'_> {
    fn open(&self, import_path: &str) -> Result<Option<SourceFile>, Report> {
        self.resolver.open(import_path)
    }

    fn open_parsed(
        &self,
        import_path: &str,
    ) -> Result<Option<(SourceFile, Arc<ParsedFile>)>, Report> {
        for root in &self.resolver.roots {
            let path = join(&root.dir, import_path);
            let found = match root.tree.blob_id(&path) {
                Some(id) => self.cache.get_or_read(id, || root.tree.read(&path))?,
                None => root.tree.read(&path)?.map(|text| {
                    let tree = Arc::new(parse::parse(&text));
                    Parsed { text, tree }
                }),
            };
            if let Some(Parsed { text, tree }) = found {
                let source = SourceFile {
                    path: import_path.to_string(),
                    display_name: format!("{} @ {}", root.tree.shown(&path), root.tree.label()),
                    text,
                };
                return Ok(Some((source, tree)));
            }
        }
        Ok(None)
    }
}

/// Shares what two sides' files have in common before they are built: a file whose text is
/// the same at both sides (same path, equal bytes) is parsed once, and both sides hold one
/// copy of its text and tree. A tree depends on the text alone, so each side builds exactly
/// what it would have built from its own copy. Files a [`Loader`] already shared (by blob
/// id) are left as they are; this covers directories on disk, whose files have no blob id.
pub fn share_identical(new: &mut Collected, old: &mut Collected) {
    let new_by_path: HashMap<&str, usize> = new
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i))
        .collect();
    let same: Vec<(usize, usize)> = old
        .files
        .iter()
        .enumerate()
        .filter_map(|(o, file)| {
            let n = *new_by_path.get(file.path.as_str())?;
            let unshared = new.trees.get(n).is_none_or(Option::is_none)
                && old.trees.get(o).is_none_or(Option::is_none);
            (unshared && new.files[n].text == file.text).then_some((n, o))
        })
        .collect();
    if same.is_empty() {
        return;
    }
    let trees: Vec<Arc<ParsedFile>> = same
        .par_iter()
        .map(|&(n, _)| Arc::new(parse::parse(&new.files[n].text)))
        .collect();
    new.trees.resize(new.files.len(), None);
    old.trees.resize(old.files.len(), None);
    for ((n, o), tree) in same.into_iter().zip(trees) {
        old.files[o].text = new.files[n].text.clone();
        new.trees[n] = Some(tree.clone());
        old.trees[o] = Some(tree);
    }
}

/// A side's files, ready for the front-end, and how to report their paths.
pub struct Collected {
    pub files: Vec<SourceFile>,
    /// Each file's git blob id, when its tree knows it without reading (same order as
    /// `files`): equal ids on both sides mean byte-identical files.
    pub blobs: Vec<Option<BlobId>>,
    /// Each file's syntax tree, when a [`Loader`]'s cache had it (same order as `files`).
    pub(super) trees: Vec<Option<Arc<ParsedFile>>>,
    pub resolver: TreeResolver,
    /// Path relative to its root -> path relative to ROOT.
    pub external: HashMap<String, String>,
    /// The compared files, as paths relative to ROOT: every one listed, also those a
    /// narrowed build did not read.
    pub compared: Vec<String>,
    /// The same files, as paths relative to their root.
    pub listed: Vec<String>,
    /// Their blob ids, when the tree knows them without reading (same order).
    pub listed_blobs: Vec<Option<BlobId>>,
}

/// Reads a side's compared files (filtered by the layout and `--path`/`--exclude-path`).
pub fn collect(
    side: &Snapshot,
    layout: &Layout,
    module: usize,
    filter: &PathFilter,
) -> Result<Collected, Report> {
    collect_with(side, layout, module, filter, None)
}

fn collect_with(
    side: &Snapshot,
    layout: &Layout,
    module: usize,
    filter: &PathFilter,
    cache: Option<&ParseCache>,
) -> Result<Collected, Report> {
    let listing = list(side, layout, module, filter)?;
    read_listed(&listing, None, cache)
}

/// A side's compared files as listed, before any is read: what the narrowed build plans
/// from (`super::narrow`), then [`read_listed`] reads.
pub struct Listing {
    /// (path relative to its root, path relative to ROOT, blob id when the tree knows it
    /// without reading), in listing order. The id is looked up once, here: the plan and
    /// the reads use it.
    pub(super) chosen: Vec<(String, String, Option<BlobId>)>,
    pub(super) tree: Arc<dyn crate::source::Tree>,
    /// Where imports outside the compared files are looked for, in order.
    pub(super) roots: Vec<SearchRoot>,
    /// Path relative to its root -> path relative to ROOT (every file listed, compared
    /// or not).
    pub(super) external: HashMap<String, String>,
}

impl Listing {
    /// The compared files, as paths relative to ROOT.
    pub fn compared(&self) -> Vec<String> {
        self.chosen.iter().map(|(_, ext, _)| ext.clone()).collect()
    }

    /// Keeps only the compared files whose path relative to ROOT is in `paths` (buf's
    /// `--limit-to-input-files`).
    pub fn limit_to(&mut self, paths: &std::collections::HashSet<String>) {
        self.chosen.retain(|(_, ext, _)| paths.contains(ext));
    }
}

/// Lists a side's compared files (filtered by the layout and `--path`/`--exclude-path`)
/// and where its imports are looked for, reading no file.
pub fn list(
    side: &Snapshot,
    layout: &Layout,
    module: usize,
    filter: &PathFilter,
) -> Result<Listing, Report> {
    let this = &layout.modules[module];
    let label = side.root.label().to_string();
    let paths: Vec<String> = filter.paths.iter().map(|p| normalize(p)).collect();
    let excluded: Vec<String> = filter.exclude_paths.iter().map(|p| normalize(p)).collect();
    let wanted = |external: &str| {
        (paths.is_empty() || paths.iter().any(|p| is_within(external, p)))
            && !excluded.iter().any(|p| is_within(external, p))
            && !this.excludes.iter().any(|p| is_within(external, p))
    };

    // (path relative to its root, path relative to ROOT, blob id)
    let mut chosen: Vec<(String, String, Option<BlobId>)> = Vec::new();
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
                let blob = side.root.blob_id(&ext);
                chosen.push((rel, ext, blob));
            }
        }
    }

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
    Ok(Listing {
        chosen,
        tree: side.root.clone(),
        roots,
        external,
    })
}

/// Reads the listed files (only those whose path relative to their root is in `only`, when
/// given: the narrowed build's), through the cache when there is one.
pub(super) fn read_listed(
    listing: &Listing,
    only: Option<&std::collections::HashSet<String>>,
    cache: Option<&ParseCache>,
) -> Result<Collected, Report> {
    let Listing {
        chosen,
        tree,
        roots,
        external,
    } = listing;
    let roots = roots
        .iter()
        .map(|r| SearchRoot {
            tree: r.tree.clone(),
            dir: r.dir.clone(),
        })
        .collect();
    let external = external.clone();
    let label = tree.label().to_string();
    let compared = chosen.iter().map(|(_, ext, _)| ext.clone()).collect();
    let listed = chosen.iter().map(|(rel, _, _)| rel.clone()).collect();
    let listed_blobs = chosen.iter().map(|(_, _, blob)| *blob).collect();
    let read = |ext: &str, blob: Option<BlobId>| {
        let text = match blob {
            Some(id) => tree.read_blob(ext, id)?,
            None => tree.read(ext)?,
        };
        text.ok_or_else(|| miette!("{ext} @ {label}: file vanished while reading"))
    };
    let kept: Vec<&(String, String, Option<BlobId>)> = chosen
        .iter()
        .filter(|(rel, _, _)| only.is_none_or(|only| only.contains(rel)))
        .collect();
    let read: Vec<(SourceFile, Option<BlobId>, Option<Arc<ParsedFile>>)> = kept
        .par_iter()
        .map(|(rel, ext, blob)| {
            let blob = *blob;
            let (text, parsed) = match (cache, blob) {
                (Some(cache), Some(id)) => {
                    let found = cache.get_or_read(id, || read(ext, blob).map(Some))?;
                    let Parsed { text, tree } = found.expect("read gives a text or an error");
                    (text, Some(tree))
                }
                _ => (read(ext, blob)?, None),
            };
            let file = SourceFile {
                path: rel.clone(),
                display_name: format!("{} @ {label}", tree.shown(ext)),
                text,
            };
            Ok((file, blob, parsed))
        })
        .collect::<Result<Vec<_>, Report>>()?;
    let mut files = Vec::with_capacity(read.len());
    let mut blobs = Vec::with_capacity(read.len());
    let mut trees = Vec::with_capacity(read.len());
    for (file, blob, parsed) in read {
        files.push(file);
        blobs.push(blob);
        trees.push(parsed);
    }
    Ok(Collected {
        files,
        blobs,
        trees,
        resolver: TreeResolver { roots },
        external,
        compared,
        listed,
        listed_blobs,
    })
}

/// Imports that could not be found: an error, unless `--allow-missing-imports` accepts them
/// as warnings. A type from a missing file cannot be checked (its fields, its wire type), so
/// a pass would claim more than was seen.
pub fn unresolved_imports(
    sides: [Vec<MissingImport>; 2],
    (allowed, deps): (bool, &[String]),
    warnings: &mut Vec<Report>,
) -> Result<(), Error> {
    // One import missing from three files of a side is one thing to fix there: each file's
    // import is shown, but the summary counts the import once per side.
    let count: usize = sides
        .iter()
        .map(|side| {
            let distinct: std::collections::HashSet<&str> =
                side.iter().map(|m| m.import.as_str()).collect();
            distinct.len()
        })
        .sum();
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
        "{count} import{} could not be found, so the types from {} were not checked",
        if count == 1 { "" } else { "s" },
        if count == 1 { "it" } else { "them" },
    ));
    Err(Error {
        diagnostics: missing,
    })
}
