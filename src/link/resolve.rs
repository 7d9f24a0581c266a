//! Name resolution with protobuf's scoping (as protoc's `DescriptorBuilder::LookupSymbol`):
//! a leading dot is fully qualified; otherwise the first component is searched from the
//! innermost scope outwards, and the rest is resolved inside what it names. Only symbols of
//! files the current file can see count.

use super::imports::Visible;
use super::symbols::{join, Sym, SymKind, Symbols};
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

/// Resolves the names one file writes.
pub(super) struct Resolver<'a> {
    pub file: usize,
    pub visible: &'a Visible,
    pub symbols: &'a Symbols,
}

impl Resolver<'_> {
    /// A symbol by full name, if this file can see it (or anyway, with `everywhere`).
    fn lookup(&self, full: &str, everywhere: bool) -> Option<Sym> {
        let sym = self.symbols.map.get(full)?;
        let visible = everywhere
            || sym.kind == SymKind::Package
            || sym.file == self.file
            || self.visible.files.contains(&sym.file);
        visible.then_some(*sym)
    }

    /// protobuf's lookup: a leading dot means fully qualified; otherwise search the scope and
    /// its parents, innermost first, for the first component, then resolve the rest under it.
    pub(super) fn resolve_symbol(
        &self,
        name: &str,
        scope: &str,
        everywhere: bool,
    ) -> Option<(String, Sym)> {
        if let Some(full) = name.strip_prefix('.') {
            return self.lookup(full, everywhere).map(|s| (full.to_string(), s));
        }
        let first = name.split('.').next().unwrap_or(name);
        let mut scope = scope.to_string();
        loop {
            let candidate = join(&scope, first);
            if let Some(sym) = self.lookup(&candidate, everywhere) {
                if first == name {
                    if matches!(sym.kind, SymKind::Message | SymKind::Enum) {
                        return Some((candidate, sym));
                    }
                } else if sym.kind != SymKind::Value {
                    // The first component names a scope: the rest must be found inside it.
                    let full = join(&scope, name);
                    return self.lookup(&full, everywhere).map(|s| (full, s));
                }
            }
            if scope.is_empty() {
                return None;
            }
            scope = match scope.rfind('.') {
                Some(i) => scope[..i].to_string(),
                None => String::new(),
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
        match self.resolve_symbol(name, scope, false) {
            Some((full, sym)) if sym.kind == SymKind::Message => Resolved::Message(full),
            Some((full, sym)) if sym.kind == SymKind::Enum => Resolved::Enum(full),
            Some((full, _)) => {
                errors.push((
                    span,
                    format!("`{name}` resolves to `{full}`, which is not a type"),
                ));
                Resolved::Unknown(name.trim_start_matches('.').to_string())
            }
            None => {
                if !self.visible.missing {
                    let message = match self.resolve_symbol(name, scope, true) {
                        Some((full, sym)) => format!(
                            "cannot resolve type `{name}`: `{full}` is defined in \"{}\", which this file does not import",
                            self.symbols.paths.get(sym.file).map_or("?", String::as_str)
                        ),
                        None => format!("cannot resolve type `{name}`"),
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

    /// The extendee of an `extend` block, and whether it resolved to a message (only then can
    /// extension numbers be checked against its ranges).
    pub(super) fn resolve_extendee(
        &self,
        name: &str,
        scope: &str,
        span: Span,
        errors: &mut Errors,
    ) -> (String, bool) {
        let is_message = matches!(
            self.resolve_symbol(name, scope, false),
            Some((_, sym)) if sym.kind == SymKind::Message
        );
        (self.resolve_message(name, scope, span, errors), is_message)
    }
}
