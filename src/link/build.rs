//! Builds the schema model from source files: parse (in parallel), load imports (compared
//! files, then the resolver's include roots, then the bundled well-known types), collect
//! symbols, then lower each compared file's syntax tree into the model with names resolved.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use rayon::prelude::*;

use super::lower::lower_file;
use super::symbols::{collect_symbols, Symbols};
use crate::model::{Schema, Span};
use crate::parse::{self, ast::TopItem, ParsedFile};

/// One `.proto` file's text as read from a revision.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the compared root (or include root), `/`-separated.
    pub path: String,
    /// What diagnostics call the file, e.g. `acme/v1/order.proto @ main`.
    pub display_name: String,
    pub text: Arc<str>,
}

/// Finds files named by `import` that are not among the compared files: include roots of the
/// same revision, then the bundled well-known types.
pub trait ImportResolver: Sync {
    /// `Ok(None)`: not found anywhere.
    fn open(&self, import_path: &str) -> Result<Option<SourceFile>, miette::Report>;
}

/// A resolver that finds nothing (beyond what `build_schema` bundles itself).
pub struct NoImports;
impl ImportResolver for NoImports {
    fn open(&self, _import_path: &str) -> Result<Option<SourceFile>, miette::Report> {
        Ok(None)
    }
}

pub struct BuildOutput {
    /// Only the compared files, keyed by path.
    pub schema: Schema,
    /// Imports found nowhere. The schema was built anyway, with names from the missing files
    /// kept as written; the caller decides whether that is good enough (by default the check
    /// refuses: it could not see those types).
    pub unresolved_imports: Vec<MissingImport>,
}

/// An import found nowhere: an error by default, a warning when the user accepts missing
/// imports.
#[derive(Debug, thiserror::Error)]
#[error(
    "import \"{import}\" was not found (in the compared tree, the -I roots or the bundled \
     well-known types)"
)]
pub struct MissingImport {
    pub import: String,
    src: miette::NamedSource<Arc<str>>,
    span: miette::SourceSpan,
    severity: miette::Severity,
}

impl MissingImport {
    fn new(unit: &Unit, import: &str, span: Span) -> Self {
        MissingImport {
            import: import.to_string(),
            src: miette::NamedSource::new(&unit.source.display_name, Arc::clone(&unit.source.text)),
            span: (span.start as usize..span.end as usize).into(),
            severity: miette::Severity::Error,
        }
    }

    /// The same report as a warning.
    pub fn as_warning(mut self) -> Self {
        self.severity = miette::Severity::Warning;
        self
    }
}

impl miette::Diagnostic for MissingImport {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new("protocompat::import"))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let label = miette::LabeledSpan::new_primary_with_span(Some("not found".into()), self.span);
        Some(Box::new(std::iter::once(label)))
    }
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

/// A file taking part in the build: compared, or loaded to satisfy an import.
pub(super) struct Unit {
    pub source: SourceFile,
    pub parsed: ParsedFile,
    /// Indexes of the files this one imports (those that were found).
    pub imports: Vec<usize>,
    /// Indexes of the files it imports publicly.
    pub public_imports: Vec<usize>,
    /// The span of the import statement of each entry of `imports`.
    pub import_spans: Vec<Span>,
    /// Some import of this file could not be found.
    pub missing_import: bool,
}

pub fn build_schema(
    files: Vec<SourceFile>,
    resolver: &dyn ImportResolver,
) -> Result<BuildOutput, BuildError> {
    let compared = files.len();
    let parsed: Vec<ParsedFile> = if files.len() > 4 {
        files.par_iter().map(|f| parse::parse(&f.text)).collect()
    } else {
        files.iter().map(|f| parse::parse(&f.text)).collect()
    };
    let mut units: Vec<Unit> = files
        .into_iter()
        .zip(parsed)
        .map(|(source, parsed)| Unit {
            source,
            parsed,
            imports: Vec::new(),
            public_imports: Vec::new(),
            import_spans: Vec::new(),
            missing_import: false,
        })
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
        for (span, message) in &unit.parsed.errors {
            diagnostics.push(report(unit, *span, message, &parse::label_for(message)));
        }
    }
    if !diagnostics.is_empty() {
        return Err(BuildError { diagnostics });
    }

    let mut symbols = Symbols {
        paths: units.iter().map(|u| u.source.path.clone()).collect(),
        ..Symbols::default()
    };
    let mut errors = Vec::new();
    for (index, unit) in units.iter().enumerate() {
        collect_symbols(&unit.parsed.ast, index, &mut symbols, &mut errors);
    }
    report_all(&units, errors, &mut diagnostics);

    // Lower the compared files, each consuming its unit so that its syntax tree is freed as
    // soon as it is lowered (the trees of all files at once would double the peak memory).
    // Visibility is computed first: it reads the import lists of every unit.
    let visible: Vec<Visible> = (0..compared).map(|i| visible_files(&units, i)).collect();
    let compared_units: Vec<Unit> = units.drain(..compared).collect();
    drop(units);
    let results: Vec<_> = compared_units
        .into_par_iter()
        .zip(visible)
        .enumerate()
        .map(|(index, (unit, visible))| {
            let (file, mut errors) = lower_file(&unit, index, &visible, &symbols);
            errors.extend(super::validate::validate(&file));
            (file, errors, unit.source)
        })
        .collect();
    let mut schema = Schema::default();
    for (file, errors, source) in results {
        for (span, message) in errors {
            diagnostics.push(report_source(
                &source,
                span,
                &message,
                &parse::label_for(&message),
            ));
        }
        schema.files.insert(file.path.clone(), file);
    }
    if !diagnostics.is_empty() {
        return Err(BuildError { diagnostics });
    }
    Ok(BuildOutput {
        schema,
        unresolved_imports,
    })
}

fn report_all(
    units: &[Unit],
    errors: Vec<(usize, Span, String)>,
    diagnostics: &mut Vec<miette::Report>,
) {
    for (index, span, message) in errors {
        diagnostics.push(report(
            &units[index],
            span,
            &message,
            &parse::label_for(&message),
        ));
    }
}

fn report(unit: &Unit, span: Span, message: &str, label: &str) -> miette::Report {
    report_source(&unit.source, span, message, label)
}

fn report_source(source: &SourceFile, span: Span, message: &str, label: &str) -> miette::Report {
    miette::Report::new(parse::diagnostic(
        &source.display_name,
        &source.text,
        span,
        message,
        label,
    ))
}

/// Follows every import, breadth first, adding the files found to `units`.
fn load_imports(
    units: &mut Vec<Unit>,
    resolver: &dyn ImportResolver,
    diagnostics: &mut Vec<miette::Report>,
    unresolved: &mut Vec<MissingImport>,
) {
    let mut by_path: HashMap<String, usize> = units
        .iter()
        .enumerate()
        .map(|(i, u)| (u.source.path.clone(), i))
        .collect();
    let mut not_found: HashSet<String> = HashSet::new();
    let mut queue: VecDeque<usize> = (0..units.len()).collect();
    while let Some(index) = queue.pop_front() {
        let imports: Vec<_> = units[index]
            .parsed
            .ast
            .items
            .iter()
            .filter_map(|item| match item {
                TopItem::Import(import) => Some(import.clone()),
                _ => None,
            })
            .collect();
        for import in imports {
            let found = match by_path.get(&import.path) {
                Some(&i) => Some(i),
                None if not_found.contains(&import.path) => None,
                None => match open_import(&import.path, resolver) {
                    Ok(Some(source)) => {
                        let parsed = parse::parse(&source.text);
                        units.push(Unit {
                            source,
                            parsed,
                            imports: Vec::new(),
                            public_imports: Vec::new(),
                            import_spans: Vec::new(),
                            missing_import: false,
                        });
                        let i = units.len() - 1;
                        by_path.insert(import.path.clone(), i);
                        queue.push_back(i);
                        Some(i)
                    }
                    Ok(None) => {
                        not_found.insert(import.path.clone());
                        None
                    }
                    Err(error) => {
                        diagnostics.push(error);
                        not_found.insert(import.path.clone());
                        None
                    }
                },
            };
            let unit = &mut units[index];
            match found {
                Some(i) => {
                    unit.imports.push(i);
                    unit.import_spans.push(import.span);
                    if import.public {
                        unit.public_imports.push(i);
                    }
                }
                None => {
                    unit.missing_import = true;
                    unresolved.push(MissingImport::new(unit, &import.path, import.span));
                }
            }
        }
    }
}

fn open_import(
    path: &str,
    resolver: &dyn ImportResolver,
) -> Result<Option<SourceFile>, miette::Report> {
    if let Some(source) = resolver.open(path)? {
        return Ok(Some(source));
    }
    Ok(super::wkt::bundled(path).map(|text| SourceFile {
        path: path.to_string(),
        display_name: path.to_string(),
        text: Arc::from(text),
    }))
}

/// Import cycles are errors (protoc and buf refuse them). Each cycle is reported once, at
/// the import statement that closes it. Iterative depth-first search: no recursion.
fn report_import_cycles(units: &[Unit], diagnostics: &mut Vec<miette::Report>) {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        OnStack,
        Done,
    }
    let mut state = vec![State::New; units.len()];
    for root in 0..units.len() {
        if state[root] != State::New {
            continue;
        }
        // (file, index of the next import to visit)
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = State::OnStack;
        while let Some(&mut (file, ref mut next)) = stack.last_mut() {
            let Some(&target) = units[file].imports.get(*next) else {
                state[file] = State::Done;
                stack.pop();
                continue;
            };
            let edge = *next;
            *next += 1;
            match state[target] {
                State::New => {
                    state[target] = State::OnStack;
                    stack.push((target, 0));
                }
                State::OnStack => {
                    let start = stack.iter().position(|&(f, _)| f == target).unwrap_or(0);
                    let mut chain: Vec<&str> = stack[start..]
                        .iter()
                        .map(|&(f, _)| units[f].source.path.as_str())
                        .collect();
                    chain.push(units[target].source.path.as_str());
                    diagnostics.push(report(
                        &units[file],
                        units[file].import_spans[edge],
                        &format!("import cycle: {}", chain.join(" -> ")),
                        "closes the cycle",
                    ));
                }
                State::Done => {}
            }
        }
    }
}

/// The files whose symbols `index` may use: itself, its imports, and whatever those
/// re-export through `import public` (transitively). `None` marks "an import is missing".
fn visible_files(units: &[Unit], index: usize) -> Visible {
    let mut files = HashSet::from([index]);
    let mut missing = units[index].missing_import;
    let mut queue: VecDeque<usize> = units[index].imports.iter().copied().collect();
    while let Some(i) = queue.pop_front() {
        if files.insert(i) {
            for &public in &units[i].public_imports {
                queue.push_back(public);
            }
            // A public import of an imported file that is missing hides symbols too.
            if units[i].missing_import && !units[i].public_imports.is_empty() {
                missing = true;
            }
        }
    }
    Visible { files, missing }
}

pub(super) struct Visible {
    pub files: HashSet<usize>,
    /// Some import could not be found: unresolved names are not errors.
    pub missing: bool,
}
