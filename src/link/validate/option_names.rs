//! Option names resolve as protoc's `OptionInterpreter` resolves them: a plain name is a field
//! of the descriptor options message of the element (`google.protobuf.FileOptions` for a
//! file option, ...), a name in parentheses is an extension of that message, looked up from
//! the element's scope among the files this file sees. Only the first part of a name is
//! checked here (`(f)` of `(f).a.b`); the parts after it and the values are not yet.

use super::option_values::{self, Kind};
use crate::link::resolve::Resolver;
use crate::link::symbols::{join, Extension, SymKind};
use crate::syntax::ast::{
    self, EnumItem, MessageItem, OptionDecl, OptionNamePart, TopItem, TypeRef,
};
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
    fn name(self) -> &'static str {
        match self {
            OptionsMessage::File => "FileOptions",
            OptionsMessage::Message => "MessageOptions",
            OptionsMessage::Field => "FieldOptions",
            OptionsMessage::Oneof => "OneofOptions",
            OptionsMessage::Enum => "EnumOptions",
            OptionsMessage::EnumValue => "EnumValueOptions",
            OptionsMessage::Service => "ServiceOptions",
            OptionsMessage::Method => "MethodOptions",
            OptionsMessage::ExtensionRange => "ExtensionRangeOptions",
        }
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

/// Every option of `file` whose name does not resolve to a field or extension of its options
/// message.
pub(in crate::link) fn check(file: &ast::FileAst, package: &str, resolver: &Resolver) -> Errors {
    let mut walk = Walk {
        resolver,
        errors: Vec::new(),
    };
    for item in &file.items {
        match item {
            TopItem::Option(o) => walk.option(o, OptionsMessage::File, package),
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
    walk.errors
}

struct Walk<'a> {
    resolver: &'a Resolver<'a>,
    errors: Errors,
}

impl Walk<'_> {
    fn options(&mut self, options: &[OptionDecl], target: OptionsMessage, scope: &str) {
        for option in options {
            self.option(option, target, scope);
        }
    }

    fn option(&mut self, option: &OptionDecl, target: OptionsMessage, scope: &str) {
        let Some(first) = option.name.first() else {
            return;
        };
        let problem = if first.is_extension {
            self.extension_problem(first, target, scope)
        } else {
            builtin_problem(first, target).map_or(Ok(None), Err)
        };
        match problem {
            Err(message) => self.errors.push((first.span, message)),
            Ok(_) if !first.is_extension => self
                .errors
                .extend(option_values::builtin_value_problem(option, target.name())),
            Ok(Some(kind)) if option.name.len() == 1 => {
                let name = option.canonical_name();
                let problem = option_values::value_problem(&kind, &option.value, &name);
                self.errors
                    .extend(problem.map(|message| (option.value_span, message)));
            }
            Ok(_) => {}
        }
    }

    /// protoc: `Option "(foo)" unknown. Ensure that your proto definition file imports the
    /// proto which defines the option ...` (nothing, or not a field, by that name), and
    /// `Option field "(b)" is not a field or extension of message "FileOptions".`
    /// When the name is right: the type of the extension's value, if known.
    fn extension_problem(
        &self,
        part: &OptionNamePart,
        target: OptionsMessage,
        scope: &str,
    ) -> Result<Option<Kind>, String> {
        if self.resolver.visible.missing {
            return Ok(None); // the extension may be in the missing import
        }
        let written = part.name.as_str();
        let options_message = target.name();
        let Some((full, _)) = self
            .resolver
            .resolve_any(written, scope)
            .filter(|(_, sym)| sym.kind == SymKind::Field)
        else {
            return Err(format!(
                "option `({})` is unknown: no extension of that name is visible here (declare it, or import the file that declares it)",
                written.trim_start_matches('.')
            ));
        };
        let symbols = self.resolver.symbols;
        let extension = symbols.extensions.get(&full);
        let extendee =
            extension.and_then(|e| resolve_in_scope(self.resolver, &e.extendee, &e.scope));
        if let Some(((_, SymKind::Message), e)) = extendee.as_ref().zip(extension) {
            if extendee.as_ref().map(|(n, _)| n.as_str())
                == Some(format!("google.protobuf.{options_message}").as_str())
            {
                return Ok(Some(value_kind(self.resolver, e)));
            }
        }
        let extendee = extendee.map(|(name, _)| name);
        let what = match extendee {
            Some(extendee) => format!("it extends `{extendee}`"),
            None if !symbols.extensions.contains_key(&full) => {
                "it is a field, not an extension".to_string()
            }
            None => return Ok(None), // its extendee did not resolve: reported there
        };
        Err(format!(
            "option `({})`: `{full}` is not an extension of `google.protobuf.{options_message}` ({what})",
            written.trim_start_matches('.')
        ))
    }

    fn message(&mut self, decl: &ast::MessageDecl, scope: &str) {
        let name = join(scope, &decl.name.text);
        self.message_body(&decl.body, &name);
    }

    fn message_body(&mut self, body: &[MessageItem], name: &str) {
        for item in body {
            match item {
                MessageItem::Option(o) => self.option(o, OptionsMessage::Message, name),
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
        for item in &decl.body {
            match item {
                EnumItem::Option(o) => self.option(o, OptionsMessage::Enum, &name),
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
fn resolve_in_scope(resolver: &Resolver, written: &str, scope: &str) -> Option<(String, SymKind)> {
    let symbols = resolver.symbols;
    if let Some(full) = written.strip_prefix('.') {
        return symbols.map.get(full).map(|s| (full.to_string(), s.kind));
    }
    let first = written.split('.').next().unwrap_or(written);
    let mut scope = scope;
    loop {
        let candidate = join(scope, first);
        if let Some(sym) = symbols.map.get(&candidate) {
            if sym.kind.is_scope() {
                let full = join(scope, written);
                return symbols.map.get(&full).map(|s| (full, s.kind));
            }
        }
        if scope.is_empty() {
            return None;
        }
        scope = scope.rfind('.').map_or("", |i| &scope[..i]);
    }
}

/// The type of an extension's value: its scalar type, or what its type name resolves to (an
/// enum's value names are not known here).
fn value_kind(resolver: &Resolver, extension: &Extension) -> Kind {
    match &extension.ty {
        TypeRef::Scalar(scalar) => Kind::Scalar(*scalar),
        TypeRef::Named(name) => match resolve_in_scope(resolver, name, &extension.scope) {
            Some((full, SymKind::Enum)) => Kind::Enum(full, Vec::new()),
            _ => Kind::Message(String::new()),
        },
        TypeRef::Group => Kind::Message(String::new()),
        TypeRef::Map { .. } => Kind::Message(String::new()),
    }
}
