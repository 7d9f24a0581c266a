//! Name resolution with protobuf's scoping (as protoc's `DescriptorBuilder::LookupSymbol`):
//! a leading dot is fully qualified; otherwise the first component is searched from the
//! innermost scope outwards, and the rest is resolved inside what it names. Only symbols of
//! files the current file can see count.

use std::cell::RefCell;
use std::collections::HashSet;

use super::imports::Visible;
use super::replay::{Answer, Fact, FactValue, Recorder};
use super::symbols::{join, LocalBy, Sym, SymKind, Symbols};
use crate::syntax::Span;

/// Errors found while lowering one file: (span, message).
pub(super) type Errors = Vec<(Span, String)>;

/// What a type reference resolved to.
pub(super) enum Resolved {
    Message(String),
    Enum(String),
    /// Not found while some import is missing: keep the name as written.
    Unknown(String),
}

/// Which files' symbols a lookup may see.
#[derive(Clone, Copy, PartialEq)]
enum Reach {
    /// The file itself and the files it sees (imports, and what they import publicly).
    Visible,
    /// Those and one more file: would importing it make the name resolve?
    VisibleAnd(usize),
    /// Those and the files imported with `import option`: where option names are found.
    Options,
}

/// Package names, hashed with ahash as the symbol table is.
type PackageSet<'a> = HashSet<&'a str, ahash::RandomState>;

/// Resolves the names one file writes.
pub(super) struct Resolver<'a> {
    /// The index of the file whose names are resolved.
    pub file: usize,
    pub visible: &'a Visible,
    pub symbols: &'a Symbols,
    /// The packages this file can see, each with its parents: the packages of the file
    /// itself and of the files it sees.
    packages: PackageSet<'a>,
    /// The packages of the files only `import option` reaches, for option names.
    option_packages: PackageSet<'a>,
    /// Every lookup and fact read, while the file is lowered (see `super::replay`).
    recorder: Option<RefCell<Recorder>>,
}

impl<'a> Resolver<'a> {
    pub(super) fn new(file: usize, visible: &'a Visible, symbols: &'a Symbols) -> Self {
        let packages_of = |files: &mut dyn Iterator<Item = usize>| {
            let mut packages = PackageSet::default();
            for f in files {
                let package = symbols.packages[f].as_str();
                // A package already in the set came with its enclosing ones: most files a
                // file sees share a few packages, so this skips most of the inserts.
                if package.is_empty() || packages.contains(package) {
                    continue;
                }
                packages.extend(package.match_indices('.').map(|(i, _)| &package[..i]));
                packages.insert(package);
            }
            packages
        };
        let packages = packages_of(&mut std::iter::once(file).chain(visible.files.iter().copied()));
        let option_packages = packages_of(&mut visible.options_only.iter().copied());
        Resolver {
            file,
            visible,
            symbols,
            packages,
            option_packages,
            recorder: None,
        }
    }

    /// A resolver that records every lookup and fact it reads, for `super::replay`.
    pub(super) fn recording(file: usize, visible: &'a Visible, symbols: &'a Symbols) -> Self {
        let mut resolver = Resolver::new(file, visible, symbols);
        resolver.recorder = Some(RefCell::default());
        resolver
    }

    /// What was recorded, if this resolver records.
    pub(super) fn into_recorder(self) -> Option<Recorder> {
        self.recorder.map(RefCell::into_inner)
    }
}

/// A lookup's result as `super::replay` compares it: a package's file is whichever declared it
/// first, which lowering never reads.
fn answer(found: Option<Sym>) -> Answer {
    match found {
        None => Answer::NotVisible,
        Some(sym) if sym.kind == SymKind::Package => Answer::Package,
        Some(sym) => Answer::Found {
            kind: sym.kind,
            file: sym.file(),
        },
    }
}

/// `buffer` set to [`join`]`(scope, name)`, keeping its allocation.
fn join_into(buffer: &mut String, scope: &str, name: &str) {
    buffer.clear();
    if !scope.is_empty() {
        buffer.push_str(scope);
        buffer.push('.');
    }
    buffer.push_str(name);
}

/// A resolved name without the spare room of the buffer it was built in: it is kept in the
/// model.
fn exact(mut name: String) -> String {
    name.shrink_to_fit();
    name
}

/// Whether `package` is `name` or nested in it (protoc's `IsInPackage`).
fn in_package(package: &str, name: &str) -> bool {
    package
        .strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

impl Resolver<'_> {
    /// A symbol by full name, if a lookup with this reach can see it. As in protoc's
    /// `DescriptorBuilder::FindSymbol`, a package counts only when this file or a file it
    /// sees declares that package or one nested in it: with `package a.b;`, `config.T`
    /// skips a package `a.b.config` declared only elsewhere and finds `a.config.T`.
    /// A symbol that exists but is not visible leaves its file in `hidden`.
    fn lookup(&self, full: &str, reach: Reach, hidden: &mut Option<usize>) -> Option<Sym> {
        let found = self.lookup_unrecorded(full, reach, hidden);
        if let Some(recorder) = &self.recorder {
            let mut recorder = recorder.borrow_mut();
            match reach {
                Reach::VisibleAnd(_) => recorder.spoil(),
                _ => recorder.probe(full, reach == Reach::Options, answer(found)),
            }
        }
        found
    }

    /// A probe of `super::replay` answered in this resolver's build.
    pub(super) fn replay_probe(&self, full: &str, options: bool) -> Answer {
        let reach = if options {
            Reach::Options
        } else {
            Reach::Visible
        };
        answer(self.lookup_unrecorded(full, reach, &mut None))
    }

    /// A fact about an element of the build, recorded when this resolver records.
    pub(super) fn fact(&self, fact: Fact, name: &str) -> FactValue {
        let value = fact.value(name, self.symbols);
        if let Some(recorder) = &self.recorder {
            recorder.borrow_mut().fact(fact, name, &value);
        }
        value
    }

    /// The first value of `name` if it is a closed enum.
    pub(super) fn closed_enum(&self, name: &str) -> Option<i64> {
        match self.fact(Fact::ClosedEnum, name) {
            FactValue::Number(first) => first,
            _ => None,
        }
    }

    pub(super) fn is_map_entry(&self, name: &str) -> bool {
        self.fact(Fact::MapEntry, name) == FactValue::Flag(true)
    }

    pub(super) fn is_message_set(&self, name: &str) -> bool {
        self.fact(Fact::MessageSet, name) == FactValue::Flag(true)
    }

    /// The extension ranges (inclusive) a message declares.
    pub(super) fn extension_ranges(&self, name: &str) -> Vec<(i64, i64)> {
        match self.fact(Fact::ExtensionRanges, name) {
            FactValue::Ranges(ranges) => ranges.unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Whether the file declaring `name` says `optimize_for = LITE_RUNTIME` (`None`: no such
    /// name in the build).
    pub(super) fn lite_of_declaring(&self, name: &str) -> Option<bool> {
        match self.fact(Fact::LiteOfDeclaring, name) {
            FactValue::Lite(lite) => lite,
            _ => None,
        }
    }

    /// `None` when `name` is no extension; else what its extendee resolves to from the
    /// extension's own scope, in every file of the build.
    pub(super) fn extendee_of(&self, name: &str) -> Option<Option<(String, SymKind)>> {
        match self.fact(Fact::Extendee, name) {
            FactValue::Extendee(extendee) => extendee,
            _ => None,
        }
    }

    fn local_type(&self, name: &str) -> Option<LocalBy> {
        match self.fact(Fact::Local, name) {
            FactValue::Local(why) => why,
            _ => None,
        }
    }

    /// [`Resolver::lookup`], not recorded.
    fn lookup_unrecorded(
        &self,
        full: &str,
        reach: Reach,
        hidden: &mut Option<usize>,
    ) -> Option<Sym> {
        let sym = self.symbols.map.get(full)?;
        let visible = match (reach, sym.kind) {
            (_, SymKind::Package) => {
                self.packages.contains(full)
                    || (reach == Reach::Options && self.option_packages.contains(full))
                    || matches!(reach, Reach::VisibleAnd(extra)
                        if in_package(&self.symbols.packages[extra], full))
            }
            _ => {
                sym.file() == self.file
                    || self.visible.files.contains(&sym.file())
                    || reach == Reach::VisibleAnd(sym.file())
                    || (reach == Reach::Options && self.visible.options_only.contains(&sym.file()))
            }
        };
        if !visible {
            *hidden = Some(sym.file());
        }
        visible.then_some(*sym)
    }

    /// protobuf's lookup: a leading dot means fully qualified; otherwise search the scope and
    /// its parents, innermost first, for the first component, then resolve the rest under it.
    /// `hidden` ends with the file of the last symbol found but not visible (protoc's
    /// `possible_undeclared_dependency_`).
    fn resolve_symbol(
        &self,
        name: &str,
        scope: &str,
        reach: Reach,
        hidden: &mut Option<usize>,
    ) -> Option<(String, Sym)> {
        self.lookup_symbol(name, scope, reach, hidden, |kind| {
            matches!(kind, SymKind::Message | SymKind::Enum)
        })
    }

    /// A symbol by full name as option names see it (`import option` files too), recorded:
    /// one probe of [`Resolver::resolve_any`]'s walk, for a caller that shares walks.
    pub(super) fn lookup_for_options(&self, full: &str) -> Option<Sym> {
        self.lookup(full, Reach::Options, &mut None)
    }

    /// Any visible symbol `name` names from `scope`, as protoc looks up an option name
    /// (`LOOKUP_ALL`): the innermost match of any kind wins, so `(Bar)` inside method `Bar`
    /// names the method.
    pub(super) fn resolve_any(&self, name: &str, scope: &str) -> Option<(String, Sym)> {
        self.lookup_symbol(name, scope, Reach::Options, &mut None, |_| true)
    }

    /// The scope walk of [`Resolver::resolve_symbol`]; a one-component name stops at the
    /// first symbol whose kind `accept`s.
    fn lookup_symbol(
        &self,
        name: &str,
        scope: &str,
        reach: Reach,
        hidden: &mut Option<usize>,
        accept: impl Fn(SymKind) -> bool,
    ) -> Option<(String, Sym)> {
        if let Some(full) = name.strip_prefix('.') {
            return self
                .lookup(full, reach, hidden)
                .map(|s| (full.to_string(), s));
        }
        let first = name.split('.').next().unwrap_or(name);
        let mut scope = scope;
        // One buffer for every candidate of the walk: a lookup probes a name per enclosing
        // scope, and lowering makes one per field type.
        let mut candidate = String::with_capacity(scope.len() + 1 + name.len());
        loop {
            join_into(&mut candidate, scope, first);
            if let Some(sym) = self.lookup(&candidate, reach, hidden) {
                if first == name {
                    if accept(sym.kind) {
                        return Some((exact(candidate), sym));
                    }
                } else if sym.kind.is_scope() {
                    // The first component names a scope: the rest must be found inside it.
                    join_into(&mut candidate, scope, name);
                    let found = self.lookup(&candidate, reach, hidden);
                    return found.map(|s| (exact(candidate), s));
                }
            }
            if scope.is_empty() {
                return None;
            }
            scope = match scope.rfind('.') {
                Some(i) => &scope[..i],
                None => "",
            };
        }
    }

    pub(super) fn resolve_type(
        &self,
        name: &str,
        scope: &str,
        span: Span,
        errors: &mut Errors,
    ) -> Resolved {
        match self.resolve_symbol(name, scope, Reach::Visible, &mut None) {
            Some((full, sym)) if sym.kind == SymKind::Message => {
                self.exported(&full, sym, span, errors);
                Resolved::Message(full)
            }
            Some((full, sym)) if sym.kind == SymKind::Enum => {
                self.exported(&full, sym, span, errors);
                Resolved::Enum(full)
            }
            Some((full, _)) => {
                errors.push((
                    span,
                    format!("`{name}` resolves to `{full}`, which is not a type"),
                ));
                Resolved::Unknown(name.trim_start_matches('.').to_string())
            }
            None => {
                if !self.visible.missing {
                    let message = match self.missing_import(name, scope) {
                        // protoc says the file is not imported, `import option` or not.
                        Some((full, file)) if self.visible.options_only.contains(&file) => format!(
                            "cannot resolve type `{name}`: `{full}` is defined in \"{}\", which this file imports with `import option`, for its options only; import it plainly to use its types",
                            self.symbols.paths.get(file).map_or("?", String::as_str)
                        ),
                        Some((full, file)) => format!(
                            "cannot resolve type `{name}`: `{full}` is defined in \"{}\", which this file does not import",
                            self.symbols.paths.get(file).map_or("?", String::as_str)
                        ),
                        None => match self.captured(name, scope) {
                            Some(full) => format!(
                                "cannot resolve type `{name}`: it resolves to `{full}`, which is not defined (the innermost scope is searched first; `.{name}` starts from the outermost)"
                            ),
                            None => format!("cannot resolve type `{name}`"),
                        },
                    };
                    errors.push((span, message));
                }
                Resolved::Unknown(name.trim_start_matches('.').to_string())
            }
        }
    }

    pub(super) fn resolve_message(
        &self,
        name: &str,
        scope: &str,
        span: Span,
        errors: &mut Errors,
    ) -> String {
        match self.resolve_type(name, scope, span, errors) {
            Resolved::Message(full) | Resolved::Unknown(full) => full,
            Resolved::Enum(full) => {
                errors.push((
                    span,
                    format!("`{full}` is an enum; a message type is expected here"),
                ));
                full
            }
        }
    }

    /// A message named where protoc looks the name up among symbols of every kind
    /// (`LOOKUP_ALL`: an extendee, a method's input or output type), and whether it resolved
    /// to a message (only then can extension numbers be checked against its ranges). The
    /// innermost symbol wins, so `rpc Foo(Foo)` names the method itself and a field named like
    /// the extendee hides it. protoc: `"Foo" is not a message type.`
    pub(super) fn resolve_message_of_any_kind(
        &self,
        name: &str,
        scope: &str,
        span: Span,
        errors: &mut Errors,
    ) -> (String, bool) {
        match self.lookup_symbol(name, scope, Reach::Visible, &mut None, |_| true) {
            Some((full, sym)) if sym.kind == SymKind::Message => {
                self.exported(&full, sym, span, errors);
                (full, true)
            }
            Some((full, sym)) if sym.kind != SymKind::Enum => {
                errors.push((
                    span,
                    format!("`{name}` resolves to `{full}`, which is not a message type"),
                ));
                (full, false)
            }
            // An enum, or nothing: the type lookup reports it.
            _ => (self.resolve_message(name, scope, span, errors), false),
        }
    }

    /// A type of another file must not be local to it (edition 2024). protoc: `Symbol
    /// "p.Hidden", defined in "a.proto" is not visible from "b.proto". It is explicitly
    /// marked 'local' and cannot be accessed outside its own file`, or `It defaulted to local
    /// from file-level 'option features.default_symbol_visibility = 'EXPORT_TOP_LEVEL';`.
    fn exported(&self, full: &str, sym: Sym, span: Span, errors: &mut Errors) {
        if sym.file() == self.file {
            return;
        }
        let Some(why) = self.local_type(full) else {
            return;
        };
        let reason = match why {
            LocalBy::Keyword => "it is marked `local`".to_string(),
            LocalBy::Default("EXPORT_TOP_LEVEL") => "it is nested, and nested types are local under `default_symbol_visibility = EXPORT_TOP_LEVEL` (edition 2024's default); mark it `export`".to_string(),
            LocalBy::Default(default) => {
                format!("it is local under `default_symbol_visibility = {default}`; mark it `export`")
            }
        };
        let path = self
            .symbols
            .paths
            .get(sym.file())
            .map_or("?", String::as_str);
        errors.push((
            span,
            format!("`{full}`, defined in \"{path}\", cannot be used outside its file: {reason}"),
        ));
    }

    /// The symbol an unresolved name would find if this file imported one more file, and
    /// that file. As protoc does, the candidate is the file of the last symbol the lookup
    /// found but could not see; the advice is given only when importing that file resolves
    /// the name to a symbol of that very file, so "add an import" is always the right fix.
    fn missing_import(&self, name: &str, scope: &str) -> Option<(String, usize)> {
        let mut hidden = None;
        self.resolve_symbol(name, scope, Reach::Visible, &mut hidden);
        let file = hidden?;
        let (full, sym) = self.resolve_symbol(name, scope, Reach::VisibleAnd(file), &mut None)?;
        (sym.file() == file && matches!(sym.kind, SymKind::Message | SymKind::Enum))
            .then_some((full, file))
    }

    /// For a dotted name whose first component named a visible scope in which the rest is
    /// missing, the full name it was looked up as (protoc's "is resolved to ..., which is not
    /// defined").
    fn captured(&self, name: &str, scope: &str) -> Option<String> {
        let (first, _) = name.split_once('.').filter(|_| !name.starts_with('.'))?;
        let mut scope = scope;
        loop {
            let candidate = join(scope, first);
            let sym = self.lookup(&candidate, Reach::Visible, &mut None);
            if sym.is_some_and(|sym| sym.kind.is_scope()) {
                return Some(join(scope, name));
            }
            scope = match scope.rfind('.') {
                Some(i) => &scope[..i],
                None if scope.is_empty() => return None,
                None => "",
            };
        }
    }
}
