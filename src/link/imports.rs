//! Loading the files a build needs: every import is followed (compared files, then the
//! resolver's include roots, then the bundled well-known types); import cycles and missing
//! imports are reported; and each file's visible set (itself, its imports, and what those
//! re-export with `import public`) is computed for name resolution.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use super::diagnostic::report;
use super::input::{ImportResolver, SourceFile};
use crate::parse::ParsedFile;
use crate::syntax::ast::TopItem;
use crate::syntax::Span;

/// A file taking part in the build: compared, or loaded to satisfy an import.
pub(super) struct Unit {
    pub source: SourceFile,
    /// Shared with a parse cache when the caller keeps one (see `build_parsed`).
    pub parsed: Arc<ParsedFile>,
    /// Indexes of the files this one imports (those that were found).
    pub imports: Vec<usize>,
    /// Indexes of the files it imports publicly.
    pub public_imports: Vec<usize>,
    /// Indexes of the files it imports with `import option` (edition 2024): only their
    /// options (extensions of the options messages) may be used, not their types.
    pub option_imports: Vec<usize>,
    /// The span of the import statement of each entry of `imports`.
    pub import_spans: Vec<Span>,
    /// Some import of this file could not be found.
    pub missing_import: bool,
}

impl Unit {
    /// A parsed file whose imports are not loaded yet.
    pub fn new(source: SourceFile, parsed: Arc<ParsedFile>) -> Unit {
        Unit {
            source,
            parsed,
            imports: Vec::new(),
            public_imports: Vec::new(),
            option_imports: Vec::new(),
            import_spans: Vec::new(),
            missing_import: false,
        }
    }
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

/// Follows every import, breadth first, adding the files found to `units`.
pub(super) fn load_imports(
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
                    Ok(Some((source, parsed))) => {
                        units.push(Unit::new(source, parsed));
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
                    if import.option_only {
                        unit.option_imports.push(i);
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
) -> Result<Option<(SourceFile, Arc<ParsedFile>)>, miette::Report> {
    if let Some(found) = resolver.open_parsed(path)? {
        return Ok(Some(found));
    }
    Ok(super::wkt::bundled_parsed(path).map(|(text, parsed)| {
        let source = SourceFile {
            path: path.to_string(),
            display_name: path.to_string(),
            text,
        };
        (source, parsed)
    }))
}

/// The unit indexes ordered so that each comes after every unit it imports. The graph must
/// have no cycle (the build refuses one before lowering). Explicit stack: a long import
/// chain must not overflow the call stack.
pub(super) fn imports_first(units: &[Unit]) -> Vec<usize> {
    let mut placed = vec![false; units.len()];
    let mut order = Vec::with_capacity(units.len());
    for root in 0..units.len() {
        let mut stack = vec![root];
        while let Some(&i) = stack.last() {
            if placed[i] {
                stack.pop();
                continue;
            }
            let pending: Vec<usize> = units[i]
                .imports
                .iter()
                .copied()
                .filter(|&j| !placed[j])
                .collect();
            if pending.is_empty() {
                placed[i] = true;
                order.push(i);
                stack.pop();
            } else {
                stack.extend(pending);
            }
        }
    }
    order
}

/// Import cycles are errors (protoc and buf refuse them). Each cycle is reported once, at
/// the import statement that closes it. Iterative depth-first search: no recursion.
pub(super) fn report_import_cycles(units: &[Unit], diagnostics: &mut Vec<miette::Report>) {
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
                        &units[file].source,
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
/// Files reached only through `import option` are kept apart: only option names may use
/// their symbols.
pub(super) fn visible_files(units: &[Unit], index: usize) -> Visible {
    let unit = &units[index];
    let plain = unit
        .imports
        .iter()
        .copied()
        .filter(|i| !unit.option_imports.contains(i));
    let mut itself = FileSet::default();
    itself.insert(index);
    let (mut files, mut missing) = reexported(units, plain, itself);
    missing |= unit.missing_import;
    let (with_options, options_missing) =
        reexported(units, unit.option_imports.iter().copied(), files.clone());
    missing |= options_missing;
    let options_only = with_options.difference(&files).copied().collect();
    files.shrink_to_fit();
    Visible {
        files,
        options_only,
        missing,
    }
}

/// `seen` and the files `imports` name, with what those re-export through `import public`
/// (transitively); and whether a re-exported import is missing.
fn reexported(
    units: &[Unit],
    imports: impl Iterator<Item = usize>,
    mut seen: FileSet,
) -> (FileSet, bool) {
    let mut missing = false;
    let mut queue: VecDeque<usize> = imports.collect();
    while let Some(i) = queue.pop_front() {
        if seen.insert(i) {
            for &public in &units[i].public_imports {
                queue.push_back(public);
            }
            // A public import of an imported file that is missing hides symbols too.
            if units[i].missing_import && !units[i].public_imports.is_empty() {
                missing = true;
            }
        }
    }
    (seen, missing)
}

/// Files by index, hashed with ahash: every lookup that finds a symbol of another file asks
/// whether that file is visible (SipHash there was a visible part of lowering).
pub(super) type FileSet = HashSet<usize, ahash::RandomState>;

pub(super) struct Visible {
    pub files: FileSet,
    /// The files only `import option` reaches: their symbols count for option names only.
    pub options_only: FileSet,
    /// Some import could not be found: unresolved names are not errors.
    pub missing: bool,
}
