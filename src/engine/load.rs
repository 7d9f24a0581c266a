//! Loading a schema from a snapshot: list and read the compared files of one module (by the
//! layout and `--path`/`--exclude-path`), then build them with imports resolved in the same
//! snapshot. Nothing here knows the command line, so `audit` can load thousands of
//! snapshots in one process.

use std::collections::HashMap;

use miette::{miette, Report};
use rayon::prelude::*;

use super::Error;
use crate::config::Layout;
use crate::link::{self, BuildOutput, MissingImport, SourceFile};
use crate::source::{is_within, normalize, shown, SearchRoot, Snapshot, TreeResolver};

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
pub fn load(
    side: &Snapshot,
    layout: &Layout,
    module: usize,
    filter: &PathFilter,
) -> Result<Loaded, Error> {
    let files = collect(side, layout, module, filter)?;
    let built = build(&files)?;
    Ok(Loaded { files, built })
}

/// Builds the schema of collected files.
pub fn build(files: &Collected) -> Result<BuildOutput, Error> {
    link::build_schema(files.files.clone(), &files.resolver).map_err(|e| Error {
        diagnostics: e.diagnostics,
    })
}

/// A side's files, ready for the front-end, and how to report their paths.
pub struct Collected {
    pub files: Vec<SourceFile>,
    pub resolver: TreeResolver,
    /// Path relative to its root -> path relative to ROOT.
    pub external: HashMap<String, String>,
    /// The compared files, as paths relative to ROOT.
    pub compared: Vec<String>,
}

/// Reads a side's compared files (filtered by the layout and `--path`/`--exclude-path`).
pub fn collect(
    side: &Snapshot,
    layout: &Layout,
    module: usize,
    filter: &PathFilter,
) -> Result<Collected, Report> {
    let this = &layout.modules[module];
    let label = side.root.label().to_string();
    let paths: Vec<String> = filter.paths.iter().map(|p| normalize(p)).collect();
    let excluded: Vec<String> = filter.exclude_paths.iter().map(|p| normalize(p)).collect();
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
