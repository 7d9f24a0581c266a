//! Lowering a file once for both sides of a comparison: the new side takes the old side's
//! `model::File` for every file whose text and whole import closure are the same at both
//! (below), and for every file whose path and text are the same and whose recorded lookups
//! all answer alike at the new side (`super::replay` says why that is enough; the checks
//! that need every file's types then run again on it, see `super::build`).
//!
//! Why that gives exactly what lowering and validating again would give. A file's model,
//! and the errors its lowering and validation report, depend only on:
//! - its own text (the syntax tree is a function of it);
//! - the symbols of the files it can see (itself, its imports, what those re-export with
//!   `import public`, and its `import option` files) and their packages: a lookup finds a
//!   symbol only when its file is visible (`Resolver::lookup`), so a symbol elsewhere acts as
//!   if absent;
//! - facts about the types it resolves to (a closed enum, a map entry, the extension ranges
//!   and declarations of an extendee), each declared in a visible file;
//! - the custom options' types: the extension an option names is visible, and every type
//!   reachable from it (its message, the fields of that message, an `Any`'s expansion,
//!   which is resolved from the file) is declared in the import closure of the file
//!   declaring it, so inside this file's closure;
//! - whether an import is missing (a name may then live in the missing file).
//!
//! All of these are read from files of the import closure, so two builds in which a file
//! and every file of its closure have the same path and text (and the same imports found or
//! missing) lower it to equal models with equal errors. Two provisos: names must be unique
//! in the build (a name defined twice is an error of the build, and which definition the
//! table keeps could differ; no reuse then), and the file must have been validated on the
//! side it is taken from (an import of the old side was lowered but not validated), and
//! have given no error there (the old build succeeded: it returns nothing otherwise).

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use super::imports::{Unit, Visible};
use super::replay::Trace;
use super::resolve::Resolver;
use super::symbols::Symbols;
use super::validate::option_names::ElementOptions;
use crate::model::File;

/// What a successful build lets a later build take instead of lowering again, by path.
#[derive(Default)]
pub struct Reuse {
    files: HashMap<String, Reusable, ahash::RandomState>,
}

struct Reusable {
    text: Arc<str>,
    /// The paths of the imports found, in the order they are written.
    imports: Vec<String>,
    missing_import: bool,
    /// Validated as a compared file (an import is only lowered).
    validated: bool,
    file: Arc<File>,
    /// What the file's lowering read (`super::replay`), in the build that lowered it.
    trace: Option<Arc<Trace>>,
    /// Its custom options, for a build that takes it by replay to check again (validated
    /// files only).
    custom: Option<Arc<Vec<ElementOptions>>>,
}

/// What a later build keeps of each file of a successful one, beside its model.
#[derive(Clone, Default)]
pub(super) struct Kept {
    pub trace: Option<Arc<Trace>>,
    pub custom: Option<Arc<Vec<ElementOptions>>>,
}

impl Reuse {
    /// The files of a successful build: `units` in build order, `files[i]` lowered from
    /// `units[i]` (or taken) with `kept[i]`, the first `compared` of them validated.
    pub(super) fn of(
        units: &[UnitFacts],
        files: &[Arc<File>],
        kept: Vec<Kept>,
        compared: usize,
    ) -> Reuse {
        let files = units
            .iter()
            .zip(files)
            .zip(kept)
            .enumerate()
            .map(|(index, ((unit, file), kept))| {
                let reusable = Reusable {
                    text: unit.text.clone(),
                    imports: unit.imports.clone(),
                    missing_import: unit.missing_import,
                    validated: index < compared,
                    file: file.clone(),
                    trace: kept.trace,
                    custom: kept.custom.filter(|_| index < compared),
                };
                (unit.path.clone(), reusable)
            })
            .collect();
        Reuse { files }
    }

    /// How many files it holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// What [`Reuse`] compares of a unit, kept once its unit (and syntax tree) is gone.
pub(super) struct UnitFacts {
    path: String,
    text: Arc<str>,
    imports: Vec<String>,
    missing_import: bool,
}

impl UnitFacts {
    pub fn of(units: &[Unit]) -> Vec<UnitFacts> {
        units
            .iter()
            .map(|unit| UnitFacts {
                path: unit.source.path.clone(),
                text: unit.source.text.clone(),
                imports: import_paths(units, unit),
                missing_import: unit.missing_import,
            })
            .collect()
    }
}

fn import_paths(units: &[Unit], unit: &Unit) -> Vec<String> {
    unit.imports
        .iter()
        .map(|&i| units[i].source.path.clone())
        .collect()
}

/// A file the new build takes from the old one.
#[derive(Clone)]
pub(super) struct Reused {
    pub file: Arc<File>,
    /// Taken by replaying its lookups: a file of its closure changed, so the checks that need
    /// every file's types (and the option values they type) run again on it.
    pub replayed: bool,
    pub kept: Kept,
}

impl Reused {
    /// The custom options to check again, for a file taken by replay.
    pub fn custom(&self) -> Arc<Vec<ElementOptions>> {
        self.kept.custom.clone().unwrap_or_default()
    }
}

/// For each unit, the old side's model when the unit and its whole import closure are the
/// same there (see the module documentation), or else when the unit itself is the same and
/// every lookup its lowering made answers alike in this build (`super::replay`); `None`
/// otherwise. The first `compared` units are validated, so they take only validated files.
pub(super) fn reusable(
    units: &[Unit],
    compared: usize,
    old: &Reuse,
    visible: &[Visible],
    symbols: &Symbols,
) -> Vec<Option<Reused>> {
    let same_file: Vec<bool> = (0..units.len()).map(|i| same_file(units, i, old)).collect();
    // same[i]: unit i and its closure are the same at both sides, imports first.
    let mut same: Vec<Option<bool>> = vec![None; units.len()];
    for i in super::imports::imports_first(units) {
        let imports_same = units[i].imports.iter().all(|&j| same[j] == Some(true));
        same[i] = Some(imports_same && same_file[i]);
    }
    (0..units.len())
        .into_par_iter()
        .map(|i| {
            let unit = &units[i];
            let old = old.files.get(&unit.source.path)?;
            if !same_file[i] || (i < compared && !old.validated) {
                return None;
            }
            let kept = Kept {
                trace: old.trace.clone(),
                custom: old.custom.clone(),
            };
            let file = old.file.clone();
            if same[i] == Some(true) {
                return Some(Reused {
                    file,
                    replayed: false,
                    kept,
                });
            }
            let trace = old.trace.as_deref()?;
            // A compared file taken by replay has its custom options checked again.
            if i < compared && old.custom.is_none() {
                return None;
            }
            replays(trace, units, i, &visible[i], symbols).then_some(Reused {
                file,
                replayed: true,
                kept,
            })
        })
        .collect()
}

/// Whether every lookup and fact of `trace` answers alike for unit `i` of this build.
fn replays(trace: &Trace, units: &[Unit], i: usize, visible: &Visible, symbols: &Symbols) -> bool {
    if visible.missing {
        return false;
    }
    let resolver = Resolver::new(i, visible, symbols);
    let import_lite = import_lite(units, i, symbols);
    trace.replays(
        |name, options| resolver.replay_probe(name, options),
        symbols,
        &import_lite,
    )
}

/// The `LITE_RUNTIME` flag of each import of unit `i`, in order (`Trace::import_lite`).
pub(super) fn import_lite(units: &[Unit], i: usize, symbols: &Symbols) -> Vec<bool> {
    units[i]
        .imports
        .iter()
        .map(|&j| symbols.lite.get(j).copied().unwrap_or(false))
        .collect()
}

/// Unit `i` itself is the same at the old side: same path and text, the same imports found.
fn same_file(units: &[Unit], i: usize, old: &Reuse) -> bool {
    let unit = &units[i];
    let Some(old) = old.files.get(&unit.source.path) else {
        return false;
    };
    let text_same = Arc::ptr_eq(&old.text, &unit.source.text) || old.text == unit.source.text;
    text_same
        && old.missing_import == unit.missing_import
        && old.imports.len() == unit.imports.len()
        && old
            .imports
            .iter()
            .zip(&unit.imports)
            .all(|(path, &j)| *path == units[j].source.path)
}

#[cfg(test)]
#[path = "reuse_tests.rs"]
mod tests;
