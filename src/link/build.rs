//! Builds the schema model from source files: parse (in parallel), load imports (compared
//! files, then the resolver's include roots, then the bundled well-known types), collect
//! symbols, then lower each compared file's syntax tree into the model with names resolved.

use std::sync::Arc;

use rayon::prelude::*;

use super::diagnostic::report;
use super::imports::{
    load_imports, report_import_cycles, visible_files, MissingImport, Unit, Visible,
};
use super::input::{ImportResolver, SourceFile};
use super::lower::lower_file;
use super::resolve::Resolver;
use super::reuse::{reusable, Reuse, UnitFacts};
use super::symbols::{collect_symbols, file_package, is_lite, Symbols};
use super::validate::{self, custom_options::Types};
use crate::model::{Schema, Span};
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
    let mut errors = Vec::new();
    for (index, unit) in units.iter().enumerate() {
        collect_symbols(&unit.parsed.ast, index, &mut symbols, &mut errors);
    }
    // A name defined twice: which definition the table kept may differ between builds.
    let reused = match old {
        Some(old) if errors.is_empty() => reusable(&units, compared, old),
        _ => vec![None; units.len()],
    };
    report_all(&units, errors, &mut diagnostics);
    let facts = UnitFacts::of(&units);

    // Lower every file, imports too, each consuming its unit so that its syntax tree is
    // freed as soon as it is lowered (the trees of all files at once would double the peak
    // memory). Visibility is computed first: it reads the import lists of every unit. Only
    // the compared files are validated (an import's own problems are its owner's).
    let visible: Vec<Visible> = (0..units.len()).map(|i| visible_files(&units, i)).collect();
    let results: Vec<_> = units
        .into_par_iter()
        .zip(visible.par_iter())
        .zip(reused)
        .enumerate()
        .map(|(index, ((unit, visible), reused))| {
            if let Some(file) = reused {
                return (index < compared, file, Vec::new(), unit.source, None);
            }
            let (file, mut errors, custom) = lower_file(&unit, index, visible, &symbols);
            if index < compared {
                errors.extend(super::validate::validate(&file));
            }
            (
                index < compared,
                Arc::new(file),
                errors,
                unit.source,
                Some(custom),
            )
        })
        .collect();
    let (mut schema, mut imports) = (Schema::default(), Schema::default());
    // What is checked once every file is lowered: the compared files' custom options, and
    // their extensions against the declarations of their extendees.
    let mut deferred = Vec::new();
    let mut lowered = Vec::with_capacity(results.len());
    for (index, (is_compared, file, errors, source, custom)) in results.into_iter().enumerate() {
        for (span, message) in errors {
            diagnostics.push(report(&source, span, &message, &parse::label_for(&message)));
        }
        // A reused file (no `custom`) passed these checks in its own build, with the same types.
        if let Some(custom) = custom.filter(|_| is_compared) {
            if !custom.is_empty() || !file.all_extensions().is_empty() {
                deferred.push((index, file.path.clone(), source, custom));
            }
        }
        let side = if is_compared {
            &mut schema
        } else {
            &mut imports
        };
        lowered.push(file.clone());
        side.files.insert(file.path.clone(), file);
    }
    if !deferred.is_empty() {
        let types = Types::of(
            schema
                .files
                .values()
                .chain(imports.files.values())
                .map(|f| &**f),
        );
        for (index, path, source, elements) in deferred {
            let resolver = Resolver::new(index, &visible[index], &symbols);
            let file = &schema.files[&path];
            for (span, message) in validate::after_lowering(file, &elements, &resolver, &types) {
                diagnostics.push(report(&source, span, &message, &parse::label_for(&message)));
            }
        }
    }
    if !diagnostics.is_empty() {
        return Err(BuildError { diagnostics });
    }
    Ok(BuildOutput {
        schema,
        imports,
        unresolved_imports,
        reuse: Reuse::of(&facts, &lowered, compared),
    })
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
