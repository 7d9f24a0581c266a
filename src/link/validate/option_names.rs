//! Option names resolve as protoc's `OptionInterpreter` resolves them: a plain name is a field
//! of the descriptor options message of the element (`google.protobuf.FileOptions` for a
//! file option, ...), a name in parentheses is an extension of that message, looked up from
//! the element's scope among the files this file sees. Only the first part of a name is
//! checked here (`(f)` of `(f).a.b`); each element's custom options are handed on to
//! `custom_options`, which checks the parts after it and the values once every file's types
//! are known.

use std::cell::RefCell;
use std::collections::HashMap;

use super::option_values;
use crate::link::resolve::Resolver;
use crate::link::symbols::{join, Sym, SymKind, Symbols};
use crate::syntax::ast::{self, EnumItem, MessageItem, OptionDecl, OptionNamePart, TopItem};
use crate::syntax::Span;

type Errors = Vec<(Span, String)>;

/// The options message of each kind of element, with its fields (descriptor.proto, protobuf
/// v36.0, as bundled in `src/link/wkt`).
#[derive(Clone, Copy)]
enum OptionsMessage {
    File,
    Message,
    Field,
    Oneof,
    Enum,
    EnumValue,
    Service,
    Method,
    ExtensionRange,
}

impl OptionsMessage {
    /// The message's full name, as descriptor.proto declares it.
    fn full_name(self) -> &'static str {
        match self {
            OptionsMessage::File => "google.protobuf.FileOptions",
            OptionsMessage::Message => "google.protobuf.MessageOptions",
            OptionsMessage::Field => "google.protobuf.FieldOptions",
            OptionsMessage::Oneof => "google.protobuf.OneofOptions",
            OptionsMessage::Enum => "google.protobuf.EnumOptions",
            OptionsMessage::EnumValue => "google.protobuf.EnumValueOptions",
            OptionsMessage::Service => "google.protobuf.ServiceOptions",
            OptionsMessage::Method => "google.protobuf.MethodOptions",
            OptionsMessage::ExtensionRange => "google.protobuf.ExtensionRangeOptions",
        }
    }

    /// The message's name in its package (`FileOptions`).
    fn name(self) -> &'static str {
        &self.full_name()["google.protobuf.".len()..]
    }

    /// The fields of the message (`uninterpreted_option` aside: no option may name it).
    fn fields(self) -> &'static [&'static str] {
        match self {
            OptionsMessage::File => &[
                "java_package",
                "java_outer_classname",
                "java_multiple_files",
                "java_generate_equals_and_hash",
                "java_string_check_utf8",
                "optimize_for",
                "go_package",
                "cc_generic_services",
                "java_generic_services",
                "py_generic_services",
                "deprecated",
                "cc_enable_arenas",
                "objc_class_prefix",
                "csharp_namespace",
                "swift_prefix",
                "php_class_prefix",
                "php_namespace",
                "php_metadata_namespace",
                "ruby_package",
                "features",
            ],
            OptionsMessage::Message => &[
                "message_set_wire_format",
                "no_standard_descriptor_accessor",
                "deprecated",
                "map_entry",
                "deprecated_legacy_json_field_conflicts",
                "features",
            ],
            // `default` and `json_name` are not options but fields of the field descriptor,
            // written in the same brackets.
            OptionsMessage::Field => &[
                "ctype",
                "packed",
                "jstype",
                "lazy",
                "unverified_lazy",
                "deprecated",
                "weak",
                "debug_redact",
                "retention",
                "targets",
                "edition_defaults",
                "features",
                "feature_support",
                "default",
                "json_name",
            ],
            OptionsMessage::Oneof => &["features"],
            OptionsMessage::Enum => &[
                "allow_alias",
                "deprecated",
                "deprecated_legacy_json_field_conflicts",
                "features",
            ],
            OptionsMessage::EnumValue => {
                &["deprecated", "features", "debug_redact", "feature_support"]
            }
            OptionsMessage::Service => &["features", "deprecated"],
            OptionsMessage::Method => &["deprecated", "idempotency_level", "features"],
            OptionsMessage::ExtensionRange => &["declaration", "features", "verification"],
        }
    }
}

/// The custom options written on one element (those whose first part resolved to an
/// extension of the element's options message), and the built-in ones that need the same
/// types (`needs_types`), for `custom_options` to check.
#[derive(Debug)]
pub(in crate::link) struct ElementOptions {
    /// The scope protoc resolves the element's option names from.
    pub scope: String,
    /// Each option with the full name of the field its first part names: an extension, or
    /// a field of the options message (`google.protobuf.FileOptions.features`).
    pub options: Vec<(OptionDecl, Name)>,
}

/// Every option of `file` whose name does not resolve to a field or extension of its options
/// message, and the custom options of each element.
pub(in crate::link) fn check(
    file: &ast::FileAst,
    package: &str,
    resolver: &Resolver,
) -> (Errors, Vec<ElementOptions>) {
    let mut walk = Walk {
        resolver,
        errors: Vec::new(),
        custom: Vec::new(),
        scratch: Vec::new(),
        names: HashMap::default(),
        extendees: HashMap::default(),
        candidate: RefCell::default(),
    };
    let file_options = file.items.iter().filter_map(|item| match item {
        TopItem::Option(o) => Some(o),
        _ => None,
    });
    walk.options(file_options, OptionsMessage::File, package);
    for item in &file.items {
        match item {
            TopItem::Option(_) => {}
            TopItem::Message(m) => walk.message(m, package),
            TopItem::Enum(e) => walk.enumeration(e, package),
            TopItem::Service(s) => {
                let name = join(package, &s.name.text);
                walk.options(&s.options, OptionsMessage::Service, &name);
                for method in &s.methods {
                    let scope = join(&name, &method.name.text);
                    walk.options(&method.options, OptionsMessage::Method, &scope);
                }
            }
            TopItem::Extend(e) => walk.extend(e, package),
            TopItem::Package(_) | TopItem::Import(_) => {}
        }
    }
    walk.custom.shrink_to_fit();
    (walk.errors, walk.custom)
}

struct Walk<'a> {
    resolver: &'a Resolver<'a>,
    errors: Errors,
    custom: Vec<ElementOptions>,
    /// The options of the element being walked, until moved into `custom`.
    scratch: Vec<(OptionDecl, Name)>,
    /// What each extension name written in parentheses resolved to, by the name as written
    /// and then by a scope of its walk (see [`Walk::resolve_extension`]).
    names: Memo<Memo<Option<(Name, Sym)>>>,
    /// The extendee of each extension an option named, by the extension's full name.
    extendees: Memo<Option<Option<(String, SymKind)>>>,
    /// The name a probe looks up, spelled in one reused buffer: most probes find nothing.
    candidate: RefCell<String>,
}

/// A file's answers by name: googleapis writes a few option names thousands of times.
type Memo<T> = HashMap<String, T, ahash::RandomState>;

/// An extension's full name, as the walk hands it on: one allocation per name resolved,
/// shared by the memo and by every option naming it (googleapis writes
/// `(google.api.field_behavior)` hundreds of times a file).
pub(in crate::link) type Name = std::sync::Arc<str>;

/// The scope protoc looks option names up from: it drops the last component of the
/// element's name first (`DescriptorBuilder::LookupSymbol`), so a message's options resolve
/// from the scope the message is declared in. A file's scope is its package, and a field's
/// or enum value's own name is no scope, so those are searched from as they are.
fn lookup_scope(scope: &str, target: OptionsMessage) -> &str {
    match target {
        OptionsMessage::File | OptionsMessage::Field | OptionsMessage::EnumValue => scope,
        _ => scope.rfind('.').map_or("", |i| &scope[..i]),
    }
}

impl Walk<'_> {
    /// The options of one element.
    fn options<'o>(
        &mut self,
        options: impl IntoIterator<Item = &'o OptionDecl>,
        target: OptionsMessage,
        scope: &str,
    ) {
        let scope = lookup_scope(scope, target);
        for option in options {
            if let Some(extension) = self.option(option, target, scope) {
                self.scratch.push((option.clone(), extension));
            }
        }
        if !self.scratch.is_empty() {
            // Sized exactly (a vector grown one push at a time holds room for four): a
            // build keeps these for every file, for a later build to check again.
            let options = self.scratch.drain(..).collect();
            self.custom.push(ElementOptions {
                scope: scope.to_string(),
                options,
            });
        }
    }

    /// Checks the option's first name part; for a custom option that resolves, the full
    /// name of its extension (its value is checked later, with every file's types).
    fn option(&mut self, option: &OptionDecl, target: OptionsMessage, scope: &str) -> Option<Name> {
        let first = option.name.first()?;
        if !first.is_extension {
            if let Some(message) = builtin_problem(first, target) {
                self.errors.push((first.span, message));
                return None;
            }
            let typed_later = needs_types(option);
            if !typed_later {
                self.errors.extend(option_values::builtin_value_problem(
                    option,
                    target.full_name(),
                ));
            }
            // Typed by the lowered descriptor.proto, with the custom options; a name of
            // several parts also goes there to tell what it sets (`features.enum_type`,
            // then `features = { ... }`: set twice).
            let handed_on = typed_later || option.name.len() > 1;
            return handed_on.then(|| format!("{}.{}", target.full_name(), first.name).into());
        }
        match self.extension_problem(first, target, scope) {
            Err(message) => {
                self.errors.push((first.span, message));
                None
            }
            Ok(extension) => extension,
        }
    }

    /// protoc: `Option "(foo)" unknown. Ensure that your proto definition file imports the
    /// proto which defines the option ...` (nothing, or not a field, by that name), and
    /// `Option field "(b)" is not a field or extension of message "FileOptions".`
    /// When the name is right: the extension's full name, if known.
    fn extension_problem(
        &mut self,
        part: &OptionNamePart,
        target: OptionsMessage,
        scope: &str,
    ) -> Result<Option<Name>, String> {
        if self.resolver.visible.missing {
            return Ok(None); // the extension may be in the missing import
        }
        let written = part.name.as_str();
        let options_message = target.name();
        let Some(full) = self
            .resolve_extension(written, scope, target)
            .filter(|(_, sym)| sym.kind == SymKind::Field)
            .map(|(full, _)| full)
        else {
            return Err(format!(
                "option `({})` is unknown: no extension of that name is visible here (declare it, or import the file that declares it)",
                written.trim_start_matches('.')
            ));
        };
        let extension = self.extendee_of(&full);
        let is_extension = extension.is_some();
        let extendee = extension.as_ref().and_then(Option::as_ref);
        if let Some((name, SymKind::Message)) = extendee {
            if name.strip_prefix("google.protobuf.") == Some(options_message) {
                return Ok(Some(full));
            }
        }
        let what = match extendee.map(|(name, _)| name) {
            Some(extendee) => format!("it extends `{extendee}`"),
            None if !is_extension => "it is a field, not an extension".to_string(),
            None => return Ok(None), // its extendee did not resolve: reported there
        };
        Err(format!(
            "option `({})`: `{full}` is not an extension of `google.protobuf.{options_message}` ({what})",
            written.trim_start_matches('.')
        ))
    }

    /// `Resolver::resolve_any(written, scope)`, with the walk shared between the options of
    /// a file. Why that is the same answer, with the same lookups recorded for replay: the
    /// walk from a scope probes `scope.first` and, when that decides nothing, continues
    /// exactly as the walk from the parent scope does; every probe goes through the same
    /// resolver (one file, one build), so a scope's walk always ends the same way. A scope
    /// walked before is therefore answered from the memo, and the probes it skips were
    /// recorded the first time (the recorder keeps one answer per probe: a repeat adds
    /// nothing). A field's or enum value's own name starts only its own walk: it is probed,
    /// not kept.
    fn resolve_extension(
        &mut self,
        written: &str,
        scope: &str,
        target: OptionsMessage,
    ) -> Option<(Name, Sym)> {
        if let Some(full) = written.strip_prefix('.') {
            return self
                .resolver
                .lookup_for_options(full)
                .map(|sym| (full.into(), sym));
        }
        let first = written.split('.').next().unwrap_or(written);
        let by_scope = self.names.get(written);
        let own_scope_kept = !matches!(target, OptionsMessage::Field | OptionsMessage::EnumValue);
        let mut walked: Vec<&str> = Vec::new();
        let mut at = scope;
        let found = loop {
            if let Some(known) = by_scope.and_then(|memo| memo.get(at)) {
                break known.clone();
            }
            if own_scope_kept || at.len() != scope.len() {
                walked.push(at);
            }
            if let Some(found) = self.probe(at, first, written) {
                break found;
            }
            if at.is_empty() {
                break None;
            }
            at = at.rfind('.').map_or("", |i| &at[..i]);
        };
        if !walked.is_empty() {
            let memo = self.names.entry(written.to_string()).or_default();
            for at in walked {
                memo.insert(at.to_string(), found.clone());
            }
        }
        found
    }

    /// One step of the scope walk of `Resolver::resolve_any`: `Some` when the probe of
    /// `scope.first` decides the answer, `None` to go on with the parent scope.
    fn probe(&self, scope: &str, first: &str, written: &str) -> Option<Option<(Name, Sym)>> {
        let mut candidate = self.candidate.borrow_mut();
        let sym = self.lookup_joined(&mut candidate, scope, first)?;
        if first == written {
            return Some(Some((candidate.as_str().into(), sym)));
        }
        if !sym.kind.is_scope() {
            return None;
        }
        // The first component names a scope: the rest must be found inside it.
        let found = self.lookup_joined(&mut candidate, scope, written);
        Some(found.map(|sym| (candidate.as_str().into(), sym)))
    }

    /// `lookup_for_options(join(scope, name))`, the name spelled in `buffer`.
    fn lookup_joined(&self, buffer: &mut String, scope: &str, name: &str) -> Option<Sym> {
        buffer.clear();
        buffer.push_str(scope);
        if !scope.is_empty() {
            buffer.push('.');
        }
        buffer.push_str(name);
        self.resolver.lookup_for_options(buffer)
    }

    /// `Resolver::extendee_of`, asked once per extension of the file: the fact is recorded
    /// the first time, and a repeat reads the same table.
    /// Answered by reference: a repeat costs a lookup, not a copy of the extendee's name.
    fn extendee_of(&mut self, full: &str) -> &Option<Option<(String, SymKind)>> {
        if !self.extendees.contains_key(full) {
            let extendee = self.resolver.extendee_of(full);
            self.extendees.insert(full.to_string(), extendee);
        }
        &self.extendees[full]
    }

    fn message(&mut self, decl: &ast::MessageDecl, scope: &str) {
        let name = join(scope, &decl.name.text);
        self.message_body(&decl.body, &name);
    }

    fn message_body(&mut self, body: &[MessageItem], name: &str) {
        let own = body.iter().filter_map(|item| match item {
            MessageItem::Option(o) => Some(o),
            _ => None,
        });
        self.options(own, OptionsMessage::Message, name);
        for item in body {
            match item {
                MessageItem::Option(_) => {}
                MessageItem::Field(f) => self.field(f, name),
                MessageItem::Oneof(o) => {
                    let scope = join(name, &o.name.text);
                    self.options(&o.options, OptionsMessage::Oneof, &scope);
                    for f in &o.fields {
                        self.field(f, name);
                    }
                }
                MessageItem::Message(m) => self.message(m, name),
                MessageItem::Enum(e) => self.enumeration(e, name),
                MessageItem::Extend(e) => self.extend(e, name),
                MessageItem::Extensions(e) => {
                    self.options(&e.options, OptionsMessage::ExtensionRange, name)
                }
                MessageItem::Reserved(_) => {}
            }
        }
    }

    fn field(&mut self, field: &ast::FieldDecl, scope: &str) {
        if field.options.is_empty() && field.group_body.is_none() {
            return; // most fields: no name to build
        }
        let name = join(scope, &field.name.text);
        self.options(&field.options, OptionsMessage::Field, &name);
        if let Some(body) = &field.group_body {
            self.message_body(body, &name);
        }
    }

    fn extend(&mut self, decl: &ast::ExtendDecl, scope: &str) {
        for f in &decl.fields {
            self.field(f, scope);
        }
    }

    fn enumeration(&mut self, decl: &ast::EnumDecl, scope: &str) {
        let name = join(scope, &decl.name.text);
        let own = decl.body.iter().filter_map(|item| match item {
            EnumItem::Option(o) => Some(o),
            _ => None,
        });
        self.options(own, OptionsMessage::Enum, &name);
        for item in &decl.body {
            match item {
                EnumItem::Option(_) => {}
                EnumItem::Value(v) if v.options.is_empty() => {}
                // Enum values are siblings of their enum.
                EnumItem::Value(v) => self.options(
                    &v.options,
                    OptionsMessage::EnumValue,
                    &join(scope, &v.name.text),
                ),
                EnumItem::Reserved(_) => {}
            }
        }
    }
}

/// A built-in option whose check needs every type of the build: a message literal (its
/// fields may be extensions, `features = { [pb.cpp] { ... } }`) or a name with an extension
/// part (`features.(pb.cpp).legacy_closed_enum`). `default` and `json_name` are not options.
fn needs_types(option: &OptionDecl) -> bool {
    let pseudo = matches!(
        option.name.first().map(|p| p.name.as_str()),
        Some("default" | "json_name")
    );
    !pseudo
        && (matches!(option.value, crate::syntax::OptionValue::Aggregate(_))
            || option.name.iter().any(|part| part.is_extension))
}

/// protoc: `Option "java_pakage" unknown. Ensure that your proto definition file imports the
/// proto which defines the option ...`, and `Option must not use reserved name
/// "uninterpreted_option".`
fn builtin_problem(part: &OptionNamePart, target: OptionsMessage) -> Option<String> {
    let name = part.name.as_str();
    if name == "uninterpreted_option" {
        return Some("option `uninterpreted_option` is reserved: no option may set it".into());
    }
    if target.fields().contains(&name) {
        return None;
    }
    Some(format!(
        "option `{name}` is unknown: `google.protobuf.{}` has no field of that name (a custom option is written in parentheses: `({name})`)",
        target.name()
    ))
}

/// The full name and kind of what `written` names from `scope` (for an extension declared
/// elsewhere: its extendee and type), looked up in every file of the build.
pub(in crate::link) fn resolve_in_scope(
    symbols: &Symbols,
    written: &str,
    scope: &str,
) -> Option<(String, SymKind)> {
    if let Some(full) = written.strip_prefix('.') {
        return symbols.map.get(full).map(|s| (full.to_string(), s.kind));
    }
    let first = written.split('.').next().unwrap_or(written);
    let mut scope = scope;
    loop {
        let candidate = join(scope, first);
        if let Some(sym) = symbols.map.get(candidate.as_str()) {
            if sym.kind.is_scope() {
                let full = join(scope, written);
                return symbols.map.get(full.as_str()).map(|s| (full, s.kind));
            }
        }
        if scope.is_empty() {
            return None;
        }
        scope = scope.rfind('.').map_or("", |i| &scope[..i]);
    }
}
