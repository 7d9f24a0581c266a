//! Both sides' files for one module of a check: listed, then read whole, or only the files
//! a narrowed build needs ([`super::narrow`]) when the repository's cache allows it.

use std::path::PathBuf;

use miette::Report;

use super::clean_cache::CleanCache;
use super::header;
use super::load::{list, share_identical, Collected, Listing, Loader, PathFilter};
use super::narrow::{self, Full, Narrowed};
use super::Error;
use crate::config::Layout;
use crate::source::Snapshot;

/// A check's narrowing: the cache of the repository both sides are read from.
pub struct Narrowing {
    git_dir: PathBuf,
    cache: CleanCache,
    /// Say on stderr what each module builds (tests and benchmarks read it).
    report: bool,
}

impl Narrowing {
    /// The environment variable that makes every check build everything.
    pub const FULL_BUILD_VAR: &'static str = "PROTOCOMPAT_FULL_BUILD";
    /// The environment variable that makes a check say what it builds.
    pub const REPORT_VAR: &'static str = "PROTOCOMPAT_NARROW_STATS";

    /// The narrowing of checks reading `git_dir`, unless [`Narrowing::FULL_BUILD_VAR`] is set.
    pub fn open(git_dir: PathBuf) -> Option<Narrowing> {
        if std::env::var_os(Self::FULL_BUILD_VAR).is_some_and(|v| !v.is_empty()) {
            return None;
        }
        Some(Narrowing {
            cache: CleanCache::load(&git_dir),
            git_dir,
            report: std::env::var_os(Self::REPORT_VAR).is_some_and(|v| !v.is_empty()),
        })
    }

    /// Writes what this check learned. A cache that cannot be written only costs time in
    /// the next check, so that is not an error.
    pub fn save(&self) {
        let _ = self.cache.save(&self.git_dir);
    }

    /// After both builds of a module succeeded: every unit built is clean.
    pub fn record(&self, planned: Option<Planned>) {
        let Some(planned) = planned else {
            return;
        };
        match planned.plan {
            Ok(narrowed) => self.cache.add_clean(narrowed.built_keys().iter().copied()),
            Err(_) => {
                if let Ok(keys) = narrow::all_keys(&planned.old, &planned.new, &self.cache) {
                    self.cache.add_clean(keys);
                }
            }
        }
    }
}

/// How one module's sides were read, kept until the builds are judged.
pub struct Planned {
    old: Listing,
    new: Listing,
    plan: Result<Narrowed, Full>,
}

/// One module's files, both sides.
pub struct Sides {
    pub new: Collected,
    pub old: Collected,
    /// Set when the check narrows: hand it to [`Narrowing::record`] once both builds
    /// succeeded.
    pub planned: Option<Planned>,
}

/// Lists and reads both sides of one module through `loader` (the new side first), only
/// what a narrowed build needs when `narrowing` allows; with `limit_to_input_files`, the old
/// side keeps only the files the new side has.
pub fn collect_sides(
    loader: &Loader,
    (new, new_layout, new_module): (&Snapshot, &Layout, usize),
    (old, old_layout, old_module): (&Snapshot, &Layout, usize),
    filter: &PathFilter,
    limit_to_input_files: bool,
    narrowing: Option<&Narrowing>,
) -> Result<Sides, Error> {
    // The two tree walks are independent unless the old side is limited to the new side's
    // files: then they run one after the other, else on both cores.
    let (new_listing, old_listing) = if limit_to_input_files {
        let new_listing = list(new, new_layout, new_module, filter);
        let old_listing = match &new_listing {
            Ok(new_listing) => list_limited(old, (old_layout, old_module), new_listing, filter),
            Err(_) => list(old, old_layout, old_module, filter),
        };
        (new_listing, old_listing)
    } else {
        rayon::join(
            || list(new, new_layout, new_module, filter),
            || list(old, old_layout, old_module, filter),
        )
    };
    let (new_listing, old_listing) = both(new_listing, old_listing)?;
    let plan = narrowing.map(|n| narrow::plan(&old_listing, &new_listing, &n.cache));
    if narrowing.is_some_and(|n| n.report) {
        eprintln!("protocompat: {}", describe(plan.as_ref()));
    }
    let (only_new, only_old) = match &plan {
        Some(Ok(narrowed)) => (Some(&narrowed.new), Some(&narrowed.old)),
        _ => (None, None),
    };
    let new_files = loader.read(&new_listing, only_new);
    let old_files = loader.read(&old_listing, only_old);
    let (mut new_files, mut old_files) = both(new_files, old_files)?;
    if let (Some(narrowing), Some(Err(_))) = (narrowing, &plan) {
        // A full build parses every file: its headers cost nothing now and make the next
        // check narrow.
        for files in [&new_files, &old_files] {
            for (blob, header) in files.headers() {
                narrowing.cache.add_header(blob, header);
            }
        }
    }
    // Files without a blob id (a directory on disk) are shared by their bytes.
    share_identical(&mut new_files, &mut old_files);
    let planned = plan.map(|plan| Planned {
        old: old_listing,
        new: new_listing,
        plan,
    });
    Ok(Sides {
        new: new_files,
        old: old_files,
        planned,
    })
}

fn describe(plan: Option<&Result<Narrowed, Full>>) -> String {
    match plan {
        Some(Ok(n)) => format!(
            "narrowed build: {} of {} files @ old side, {} of {} @ new side",
            n.old.len(),
            n.listed[0],
            n.new.len(),
            n.listed[1]
        ),
        Some(Err(why)) => format!("full build ({})", why.describe()),
        None => "full build (asked)".to_string(),
    }
}

/// The old side's listing limited to the files the new side has (`--limit-to-input-files`).
fn list_limited(
    old: &Snapshot,
    (layout, module): (&Layout, usize),
    new_listing: &Listing,
    filter: &PathFilter,
) -> Result<Listing, Report> {
    // An empty list means "every file"; a path no file can have means "none".
    const NO_FILE: &str = "\0";
    let mut paths = new_listing.compared();
    if paths.is_empty() {
        paths.push(NO_FILE.to_string());
    }
    let limited = PathFilter {
        paths: &paths,
        exclude_paths: filter.exclude_paths,
    };
    list(old, layout, module, &limited)
}

fn both<A, B>(a: Result<A, Report>, b: Result<B, Report>) -> Result<(A, B), Error> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (a, b) => Err(Error {
            diagnostics: [a.err(), b.err()].into_iter().flatten().collect(),
        }),
    }
}

impl Collected {
    /// The headers of the files read with a blob id and a syntax tree.
    fn headers(&self) -> Vec<(crate::source::BlobId, header::Header)> {
        self.files
            .iter()
            .zip(&self.blobs)
            .zip(&self.trees)
            .filter_map(|((file, blob), tree)| {
                Some(((*blob)?, header::of_tree(&file.text, &tree.as_ref()?.ast)))
            })
            .collect()
    }
}
