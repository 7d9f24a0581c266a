//! Builds the schema model from source files: parse (in parallel), load imports (compared
//! files, then the resolver's include roots, then the bundled well-known types), collect
//! symbols, then lower each compared file's syntax tree into the model with names resolved.

use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::diagnostic::report;
use super::imports::{
    load_imports, report_import_cycles, visible_files, MissingImport, Unit, Visible,
};
use super::input::{ImportResolver, SourceFile};
use super::lower::lower_file;
use super::resolve::Resolver;
use super::reuse::{reusable, Kept, Reuse, Reused, UnitFacts};
use super::symbols::{collect_symbols, declared_names, file_package, is_lite, Symbols};
use super::validate::custom_options::{Resolved, Types};
use super::validate::{self, option_names::ElementOptions};
use crate::model::{File, Schema, Span};
use crate::parse::{self, ParsedFile};

pub struct BuildOutput {
    /// Only the compared files, keyed by path.
    pub schema: Schema,
    /// The files the compared ones import (directly or not), lowered the same way: buf
    /// compares every file of the two builds and drops only the findings located in
    /// imports, so a file that left the compared set but is still imported is not deleted.
    pub imports: Schema,
    /// Imports found nowhere. The schema was built anyway, with names from the missing files
    /// kept as written; the caller decides whether that is good enough (by default the check
    /// refuses: it could not see those types).
    pub unresolved_imports: Vec<MissingImport>,
    /// What a later build of another revision may take instead of lowering again
    /// ([`build_parsed_reusing`]).
    pub reuse: Reuse,
}

/// The files could not be built: every syntax or resolution error found, each a diagnostic
/// with its source and span.
#[derive(Debug)]
pub struct BuildError {
    pub diagnostics: Vec<miette::Report>,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} error(s) in the schema", self.diagnostics.len())
    }
}

impl std::error::Error for BuildError {}

/// Parses the compared files (in parallel), then builds them as [`build_parsed`] does.
pub fn build_schema(
    files: Vec<SourceFile>,
    resolver: &dyn ImportResolver,
) -> Result<BuildOutput, BuildError> {
    let parse_one = |f: &SourceFile| Arc::new(parse::parse(&f.text));
    let parsed: Vec<Arc<ParsedFile>> = if files.len() > 4 {
        files.par_iter().map(parse_one).collect()
    } else {
        files.iter().map(parse_one).collect()
    };
    build_parsed(files.into_iter().zip(parsed).collect(), resolver)
}

/// Builds the schema of compared files already parsed (each with the tree `parse::parse`
/// gave for its text), so a caller that has seen a file before (the same blob id at another
/// revision) can skip parsing it again. Imports come from the resolver's
/// [`ImportResolver::open_parsed`], which may share trees the same way. A tree is only
/// read here, never changed: sharing one between builds is safe.
pub fn build_parsed(
    files: Vec<(SourceFile, Arc<ParsedFile>)>,
    resolver: &dyn ImportResolver,
) -> Result<BuildOutput, BuildError> {
    build_parsed_reusing(files, resolver, None)
}

/// [`build_parsed`], taking from `old` (another revision's build) the model of each file
/// whose text and whole import closure are the same in both builds, instead of lowering and
/// validating it again: `super::reuse` says why that is exactly what lowering would give.
/// Both schemas then share those files (`Arc`).
pub fn build_parsed_reusing(
    files: Vec<(SourceFile, Arc<ParsedFile>)>,
    resolver: &dyn ImportResolver,
    old: Option<&Reuse>,
) -> Result<BuildOutput, BuildError> {
    prepare_parsed(files, resolver)?.finish(old)
}

/// A build up to its lowering: every file loaded (imports followed), syntax errors and
/// import cycles refused, symbols collected. Nothing of it depends on another revision's
/// build, so a caller may prepare one side while the other side builds, then
/// [`Prepared::finish`] it with that side's [`Reuse`].
pub struct Prepared {
    units: Vec<Unit>,
    /// The first `compared` units are the compared files; imports follow.
    compared: usize,
    symbols: Symbols,
    /// Names defined twice and the like, reported once lowering has found the rest.
    symbol_errors: Vec<(usize, Span, String)>,
    unresolved_imports: Vec<MissingImport>,
    /// The units whose tree [`Prepared::release_trees`] dropped.
    released: Vec<bool>,
}

/// Loads the imports of files already parsed and collects their symbols: the first half of
/// [`build_parsed_reusing`] (the second is [`Prepared::finish`]).
pub fn prepare_parsed(
    files: Vec<(SourceFile, Arc<ParsedFile>)>,
    resolver: &dyn ImportResolver,
) -> Result<Prepared, BuildError> {
    let compared = files.len();
    let mut units: Vec<Unit> = files
        .into_iter()
        .map(|(source, parsed)| Unit::new(source, parsed))
        .collect();

    let mut diagnostics = Vec::new();
    let mut unresolved_imports = Vec::new();
    load_imports(
        &mut units,
        resolver,
        &mut diagnostics,
        &mut unresolved_imports,
    );
    report_import_cycles(&units, &mut diagnostics);

    for unit in &units {
        report_syntax_errors(unit, &mut diagnostics);
    }
    if !diagnostics.is_empty() {
        return Err(BuildError { diagnostics });
    }

    let mut symbols = Symbols {
        paths: units.iter().map(|u| u.source.path.clone()).collect(),
        packages: units
            .iter()
            .map(|u| file_package(&u.parsed.ast).to_string())
            .collect(),
        lite: units.iter().map(|u| is_lite(&u.parsed.ast)).collect(),
        ..Symbols::default()
    };
    let names: usize = units
        .par_iter()
        .map(|unit| declared_names(&unit.parsed.ast))
        .sum();
    symbols.map.reserve(names);
    let mut symbol_errors = Vec::new();
    for (index, unit) in units.iter().enumerate() {
        collect_symbols(&unit.parsed.ast, index, &mut symbols, &mut symbol_errors);
    }
    Ok(Prepared {
        released: vec![false; units.len()],
        units,
        compared,
        symbols,
        symbol_errors,
        unresolved_imports,
    })
}

impl Prepared {
    /// Drops now the syntax tree of each compared file that `likely_taken` expects the
    /// finish to take from the other revision's build (its path and text are the same
    /// there): such a tree is never lowered, and a side prepared while the other one builds
    /// would otherwise hold all its trees until then, the largest part of the peak memory.
    /// A released file that is lowered after all (something it sees changed, and its
    /// lookups do not replay) is parsed again from its text, which gives the same tree.
    pub fn release_trees(&mut self, likely_taken: impl Fn(&SourceFile) -> bool) {
        let units = self.units.iter_mut().zip(&mut self.released);
        for (unit, released) in units.take(self.compared) {
            if likely_taken(&unit.source) {
                unit.parsed = empty_tree();
                *released = true;
            }
        }
    }

    /// Lowers and validates the prepared files, taking from `old` (another revision's
    /// build) each file [`build_parsed_reusing`] may take.
    pub fn finish(self, old: Option<&Reuse>) -> Result<BuildOutput, BuildError> {
        self.finish_keeping(old, true)
    }

    /// [`Prepared::finish`] for a build no later build takes from (the new side of a
    /// check): it records no lookups (`super::replay`), and its [`BuildOutput::reuse`] is
    /// empty. Its schema is the same.
    pub fn finish_last(self, old: Option<&Reuse>) -> Result<BuildOutput, BuildError> {
        self.finish_keeping(old, false)
    }

    fn finish_keeping(self, old: Option<&Reuse>, keep: bool) -> Result<BuildOutput, BuildError> {
        let Prepared {
            units,
            compared,
            symbols,
            symbol_errors,
            unresolved_imports,
            released,
        } = self;
        lower_prepared(
            (units, compared, released),
            (symbols, symbol_errors),
            unresolved_imports,
            (old, keep),
        )
    }
}

/// [`Prepared::finish`], by its parts; `keep`: whether to give a [`Reuse`] for a later build.
fn lower_prepared(
    (units, compared, released): (Vec<Unit>, usize, Vec<bool>),
    (symbols, errors): (Symbols, Vec<(usize, Span, String)>),
    unresolved_imports: Vec<MissingImport>,
    (old, keep): (Option<&Reuse>, bool),
) -> Result<BuildOutput, BuildError> {
    let mut diagnostics = Vec::new();
    // A name defined twice: which definition the table kept may differ between builds.
    let symbols_clean = errors.is_empty();
    report_all(&units, errors, &mut diagnostics);
    let facts = if keep {
        UnitFacts::of(&units)
    } else {
        Vec::new()
    };

    // Files are lowered by levels of the import graph (a file after everything it imports),
    // so that each file's custom options can be checked as soon as it is lowered: every type
    // they can reach is declared in its import closure (see `super::reuse`), lowered by then.
    // Nothing waits for the whole build but the checks of files `tainted` below.
    // Visibility is computed first: it reads the import lists of every unit.
    let visible: Vec<Visible> = (0..units.len())
        .into_par_iter()
        .map(|i| visible_files(&units, i))
        .collect();
    let reused = match old {
        Some(old) if symbols_clean => reusable(&units, compared, old, &visible, &symbols),
        _ => vec![None; units.len()],
    };
    let units = free_taken_trees(units, &reused);
    let import_lite: Vec<Vec<bool>> = (0..units.len())
        .map(|i| super::reuse::import_lite(&units, i, &symbols))
        .collect();
    let imports_of: Vec<Vec<usize>> = units.iter().map(|u| u.imports.clone()).collect();
    let count = units.len();
    let slots: Vec<OnceLock<Arc<File>>> = (0..count).map(|_| OnceLock::new()).collect();
    let mut sources: Vec<Option<SourceFile>> = (0..count).map(|_| None).collect();
    let mut lowering_errors: Vec<Errors> = (0..count).map(|_| Vec::new()).collect();
    let mut kept: Vec<Kept> = vec![Kept::default(); count];
    // A file is checked with the types of the levels lowered so far only when they give
    // what the types of the whole build would: its names all resolved inside its closure
    // (no error, no missing import there) and every name is defined once in the build.
    let (levels, level_of) = by_level(units);
    // The bundled descriptor.proto types the built-in options unless a file of the build
    // declares its names; such a file must be lowered before any check (at level 0).
    let builtin_replaced_late = replaces_builtin_types(&symbols, &level_of);
    let mut tainted = vec![!symbols_clean || builtin_replaced_late; count];
    let mut checked: Vec<(usize, Errors)> = Vec::new();
    let mut deferred: Vec<ToCheck> = Vec::new();
    // Files taken by replay whose option values this build types differently: each gets a
    // copy of the taken model with this build's values, once every check has run.
    let mut retyped: Vec<(usize, Vec<Resolved>)> = Vec::new();
    let mut types = Types::of(std::iter::empty());
    for level in levels {
        // Each unit is consumed, so its syntax tree is freed once lowered (the trees of all
        // files at once would double the peak memory). Only the compared files are
        // validated (an import's own problems are its owner's).
        let results: Vec<_> = level
            .into_par_iter()
            .map(|(index, unit)| {
                if let Some(taken) = &reused[index] {
                    // Taken by closure: checked in its own build, with the same types. Taken
                    // by replay: checked again below.
                    let custom = if taken.replayed {
                        taken.custom()
                    } else {
                        Arc::default()
                    };
                    let kept = taken.kept.clone();
                    return (
                        index,
                        taken.file.clone(),
                        Vec::new(),
                        unit.source,
                        custom,
                        kept,
                    );
                }
                let unit = if released[index] {
                    reparsed(unit)
                } else {
                    unit
                };
                let (file, mut errors, custom, recorder) =
                    lower_file(&unit, (index, keep), &visible[index], &symbols);
                if index < compared {
                    errors.extend(super::validate::validate(&file));
                }
                let trace = recorder
                    .and_then(|r| r.finish(&symbols, import_lite[index].clone()))
                    .map(Arc::new);
                let custom = Arc::new(custom);
                // Only a build that gives a `Reuse` keeps each file's custom options: in
                // the last build they go once checked (most at this level).
                let kept = Kept {
                    trace,
                    custom: keep.then(|| custom.clone()),
                };
                (index, Arc::new(file), errors, unit.source, custom, kept)
            })
            .collect();
        let mut to_check = Vec::new();
        let mut this_level = Vec::with_capacity(results.len());
        for (index, file, errors, source, custom, kept_here) in results {
            tainted[index] |= !errors.is_empty()
                || visible[index].missing
                || imports_of[index].iter().any(|&i| tainted[i]);
            let taken = reused[index].as_ref();
            let replayed = taken.is_some_and(|t| t.replayed);
            let typed_alike = replayed && {
                let declared_alike = |name: &str| {
                    let by_closure = |sym: &super::symbols::Sym| {
                        reused[sym.file()].as_ref().is_some_and(|t| !t.replayed)
                    };
                    symbols.map.get(name).is_some_and(by_closure)
                };
                validate::options_typed_alike(&file, &custom, &declared_alike)
            };
            if (taken.is_none() || (replayed && !typed_alike))
                && index < compared
                && (!custom.is_empty() || !file.all_extensions().is_empty())
            {
                to_check.push(ToCheck {
                    index,
                    custom,
                    replayed,
                });
            }
            lowering_errors[index] = errors;
            sources[index] = Some(source);
            kept[index] = kept_here;
            let _ = slots[index].set(file);
            this_level.push(index);
        }
        types.add(this_level.iter().map(|&i| lowered(&slots, i)));
        let (later, now): (Vec<_>, Vec<_>) =
            to_check.into_iter().partition(|check| tainted[check.index]);
        deferred.extend(later);
        checked.extend(check_options(
            now,
            (&slots, &visible, &symbols),
            &types,
            &mut retyped,
        ));
    }
    drop(types);
    if !deferred.is_empty() {
        // The types of the whole build, added in the order of the schema's files (compared
        // files, then imports, each by path): where a name is declared twice, the last
        // declaration is the one kept, as when every check waited for the whole build.
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_by(|&a, &b| {
            (a >= compared, &sources[a].as_ref().map(|s| &s.path))
                .cmp(&(b >= compared, &sources[b].as_ref().map(|s| &s.path)))
        });
        let types = Types::of(order.iter().map(|&i| lowered(&slots, i)));
        checked.extend(check_options(
            deferred,
            (&slots, &visible, &symbols),
            &types,
            &mut retyped,
        ));
    }
    // Freed now: the table is a few large buffers (`symbols::SymbolMap`), and the next
    // build (the new side of a check) fills its own meanwhile.
    drop(symbols);
    // Diagnostics in the order of the files: lowering and validation first, then the checks
    // of custom options and extensions.
    checked.sort_by_key(|(index, _)| *index);
    let sources: Vec<SourceFile> = sources
        .into_iter()
        .map(|s| s.expect("every unit is lowered"))
        .collect();
    let errors = lowering_errors.into_iter().enumerate().chain(checked);
    for (index, errors) in errors {
        for (span, message) in errors {
            let source = &sources[index];
            diagnostics.push(report(source, span, &message, &parse::label_for(&message)));
        }
    }
    let (mut schema, mut imports) = (Schema::default(), Schema::default());
    let mut files = Vec::with_capacity(count);
    let mut retyped: std::collections::HashMap<usize, Vec<Resolved>> =
        retyped.into_iter().collect();
    for (index, slot) in slots.into_iter().enumerate() {
        let mut file = slot.into_inner().expect("every unit is lowered");
        if let Some(resolved) = retyped.remove(&index) {
            let copy = validate::unresolved_copy(&file);
            validate::keep_resolved(&copy, resolved);
            file = Arc::new(copy);
        }
        files.push(file.clone());
        let side = if index < compared {
            &mut schema
        } else {
            &mut imports
        };
        side.files.insert(file.path.clone(), file);
    }
    if !diagnostics.is_empty() {
        return Err(BuildError { diagnostics });
    }
    Ok(BuildOutput {
        schema,
        imports,
        unresolved_imports,
        reuse: if keep {
            Reuse::of(&facts, &files, kept, compared)
        } else {
            Reuse::default()
        },
    })
}

/// The units with the syntax tree of each one taken from the old build replaced by an empty
/// one: a taken unit is never lowered, and nothing after [`reusable`] reads its tree (its
/// symbols, imports and visibility are known by then). Its tree would otherwise live until
/// its level is lowered, and the trees of the files not yet lowered are the largest part of
/// the build's peak memory. Dropped on every core: hundreds of megabytes of small nodes.
fn free_taken_trees(mut units: Vec<Unit>, reused: &[Option<Reused>]) -> Vec<Unit> {
    units
        .par_iter_mut()
        .zip(reused)
        .filter(|(_, taken)| taken.is_some())
        .for_each(|(unit, _)| unit.parsed = empty_tree());
    units
}

/// The tree a unit holds once its own is dropped (shared: no allocation per unit).
fn empty_tree() -> Arc<ParsedFile> {
    static EMPTY: OnceLock<Arc<ParsedFile>> = OnceLock::new();
    let empty = EMPTY.get_or_init(|| {
        Arc::new(ParsedFile {
            ast: Default::default(),
            comments: Vec::new(),
            errors: Vec::new(),
        })
    });
    Arc::clone(empty)
}

/// A unit whose tree was released, with its tree again: parsed from its text, as the
/// first time (a tree depends on the text alone).
fn reparsed(mut unit: Unit) -> Unit {
    unit.parsed = Arc::new(parse::parse(&unit.source.text));
    unit
}

/// Syntax errors shown per file: past the first few, errors mostly follow from the first
/// ones (as rustc's do), and thousands of them would bury the cause.
const SYNTAX_ERRORS_SHOWN: usize = 20;

/// A file's syntax errors, the first [`SYNTAX_ERRORS_SHOWN`] of them, then how many more.
fn report_syntax_errors(unit: &Unit, diagnostics: &mut Vec<miette::Report>) {
    let errors = &unit.parsed.errors;
    for (span, message) in errors.iter().take(SYNTAX_ERRORS_SHOWN) {
        diagnostics.push(report(
            &unit.source,
            *span,
            message,
            &parse::label_for(message),
        ));
    }
    if errors.len() > SYNTAX_ERRORS_SHOWN {
        let more = errors.len() - SYNTAX_ERRORS_SHOWN;
        diagnostics.push(miette::miette!(
            help = "fix the errors above first: later ones often follow from them",
            "{}: {more} more syntax error{} not shown ({} in all)",
            unit.source.display_name,
            if more == 1 { "" } else { "s" },
            errors.len()
        ));
    }
}

fn report_all(
    units: &[Unit],
    errors: Vec<(usize, Span, String)>,
    diagnostics: &mut Vec<miette::Report>,
) {
    for (index, span, message) in errors {
        diagnostics.push(report(
            &units[index].source,
            span,
            &message,
            &parse::label_for(&message),
        ));
    }
}

/// (span, message) problems of one file.
type Errors = Vec<(Span, String)>;

/// A compared file whose custom options (or extensions) are checked once the types they can
/// reach are lowered.
struct ToCheck {
    index: usize,
    custom: Arc<Vec<ElementOptions>>,
    /// Taken from the old build by replay: its model already holds the old build's option
    /// values.
    replayed: bool,
}

/// Stores the option values a check typed in a file lowered here; for a file taken by
/// replay, whose model is shared with the old build, gives back the values that differ from
/// the old build's instead (the caller notes them in `retyped`).
fn keep_or_retype(file: &File, check: &ToCheck, resolved: Vec<Resolved>) -> Option<Vec<Resolved>> {
    if !check.replayed {
        validate::keep_resolved(file, resolved);
        None
    } else {
        (!validate::same_resolved(file, &resolved)).then_some(resolved)
    }
}

/// The checks of custom options and extensions of lowered files, in parallel: each reads the
/// types and its own file only, and keeps (or, for a replayed file, compares) its typed
/// option values in its own file's entries, so that too runs on every core.
fn check_options(
    files: Vec<ToCheck>,
    (slots, visible, symbols): (&[OnceLock<Arc<File>>], &[Visible], &Symbols),
    types: &Types,
    retyped: &mut Vec<(usize, Vec<Resolved>)>,
) -> Vec<(usize, Errors)> {
    let results: Vec<(usize, Errors, Option<Vec<Resolved>>)> = files
        .into_par_iter()
        .map(|check| {
            let resolver = Resolver::new(check.index, &visible[check.index], symbols);
            let file = lowered(slots, check.index);
            let (errors, resolved) =
                validate::after_lowering(file, &check.custom, &resolver, types);
            let differing = keep_or_retype(file, &check, resolved);
            (check.index, errors, differing)
        })
        .collect();
    results
        .into_iter()
        .map(|(index, errors, differing)| {
            if let Some(resolved) = differing {
                retyped.push((index, resolved));
            }
            (index, errors)
        })
        .collect()
}

fn lowered(slots: &[OnceLock<Arc<File>>], index: usize) -> &File {
    slots[index].get().expect("lowered at an earlier level")
}

/// The units grouped by level of the import graph, lowest first: a file with no import is at
/// level 0, any other one level above the highest of its imports. Each unit keeps its
/// index.
fn by_level(units: Vec<Unit>) -> (Vec<Vec<(usize, Unit)>>, Vec<usize>) {
    let mut level: Vec<Option<usize>> = vec![None; units.len()];
    for i in super::imports::imports_first(&units) {
        let below = units[i].imports.iter().filter_map(|&j| level[j]).max();
        level[i] = Some(below.map_or(0, |l| l + 1));
    }
    let mut levels: Vec<Vec<(usize, Unit)>> = Vec::new();
    for (index, unit) in units.into_iter().enumerate() {
        let at = level[index].unwrap_or(0);
        if levels.len() <= at {
            levels.resize_with(at + 1, Vec::new);
        }
        levels[at].push((index, unit));
    }
    let level = level.into_iter().map(|l| l.unwrap_or(0)).collect();
    (levels, level)
}

/// Whether a file above level 0 declares a name of the bundled descriptor.proto: the
/// checks of lower levels would then see the bundled type where the whole build's types
/// have that file's.
fn replaces_builtin_types(symbols: &Symbols, level_of: &[usize]) -> bool {
    // Every name of descriptor.proto starts with `google.protobuf.`, and the table holds the
    // scope of each name it holds (package prefixes, then each message around a nested
    // name: `collect_symbols`). Without `google.protobuf` no file declares one of them, and
    // the lowered descriptor.proto (most of a one-file build) is not needed to tell.
    if symbols.map.get(super::wkt::DESCRIPTOR_PACKAGE).is_none() {
        return false;
    }
    let builtin = super::wkt::descriptor_model();
    let names = builtin
        .all_messages()
        .into_iter()
        .map(|m| m.full_name.as_str())
        .chain(
            builtin
                .all_enums()
                .into_iter()
                .map(|e| e.full_name.as_str()),
        )
        .chain(
            builtin
                .all_extensions()
                .into_iter()
                .map(|e| e.full_name.as_str()),
        );
    names
        .filter_map(|name| symbols.map.get(name))
        .any(|sym| level_of.get(sym.file()).is_some_and(|&level| level > 0))
}

#[cfg(test)]
mod tests {
    use super::{collect_symbols, file_package, replaces_builtin_types, Symbols};

    /// The symbols of `texts`, one file each, in order.
    fn symbols_of(texts: &[&str]) -> Symbols {
        let mut symbols = Symbols::default();
        let mut errors = Vec::new();
        for (index, text) in texts.iter().enumerate() {
            let parsed = crate::parse::parse(text);
            symbols.paths.push(format!("f{index}.proto"));
            symbols.packages.push(file_package(&parsed.ast).to_string());
            collect_symbols(&parsed.ast, index, &mut symbols, &mut errors);
        }
        symbols
    }

    /// The shortcut (no `google.protobuf` in the table: no descriptor.proto name either)
    /// answers as the lookup of every name would, whichever way the name is declared.
    #[test]
    fn a_file_declaring_a_descriptor_name_above_level_0_is_seen() {
        let level_of = [0, 1];
        let plain = "syntax = \"proto3\"; package acme.v1; message M { int32 a = 1; }";
        let by_package = "syntax = \"proto2\"; package google.protobuf; message FileOptions {}";
        let by_nesting =
            "syntax = \"proto2\"; package google; message protobuf { message FeatureSet {} }";
        let unrelated = "syntax = \"proto2\"; package google.protobuf; message NotInDescriptor {}";
        assert!(!replaces_builtin_types(
            &symbols_of(&[plain, plain]),
            &level_of
        ));
        assert!(replaces_builtin_types(
            &symbols_of(&[plain, by_package]),
            &level_of
        ));
        assert!(replaces_builtin_types(
            &symbols_of(&[plain, by_nesting]),
            &level_of
        ));
        assert!(!replaces_builtin_types(
            &symbols_of(&[by_package, plain]),
            &level_of
        ));
        assert!(!replaces_builtin_types(
            &symbols_of(&[plain, unrelated]),
            &level_of
        ));
    }
}
