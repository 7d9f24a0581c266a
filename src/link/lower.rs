//! Syntax tree -> model: full names, resolved type names (see `resolve`), synthesized map
//! entries, groups, synthetic oneofs, labels, JSON names, defaults and
//! effective features.

use std::collections::HashSet;
use std::sync::Arc;

use super::features::{
    apply_options, field_features, inherited, message_features, syntax_defaults, LegacyPresence,
};
use super::imports::{Unit, Visible};
use super::replay::Recorder;
use super::resolve::{Errors, Resolved, Resolver};
use super::symbols::{file_package, join, Symbols};
use super::validate::{declarations, option_names, proto3, references, written};
use crate::model::*;
use crate::syntax::ast::{self, EnumItem, MessageItem, TopItem, TypeRef};

struct Lower<'a> {
    resolver: Resolver<'a>,
    syntax: Syntax,
    errors: Errors,
    /// The last shared copies of `Features` made for the file, latest last (see
    /// [`Lower::shared`]).
    features: Vec<Arc<Features>>,
}

/// What lowering one file gives: the model file, the resolution errors found, its custom
/// options (checked once every file is lowered), and every lookup and fact it read
/// (`super::replay`; none when an import is missing).
pub(super) type Lowered = (
    File,
    Vec<(Span, String)>,
    Vec<option_names::ElementOptions>,
    Option<Recorder>,
);

/// Lowers one file (see [`Lowered`]); `record`: whether to record its lookups.
pub(super) fn lower_file(
    unit: &Unit,
    (file, record): (usize, bool),
    visible: &Visible,
    symbols: &Symbols,
) -> Lowered {
    let ast = &unit.parsed.ast;
    let syntax = match &ast.syntax {
        Some(decl) if decl.kind == ast::SyntaxKind::Edition => Syntax::Editions(decl.value.clone()),
        Some(decl) if decl.value == "proto3" => Syntax::Proto3,
        _ => Syntax::Proto2,
    };
    let resolver = if visible.missing || !record {
        Resolver::new(file, visible, symbols)
    } else {
        Resolver::recording(file, visible, symbols)
    };
    let mut lower = Lower {
        resolver,
        syntax: syntax.clone(),
        errors: written::check(ast, &syntax),
        features: Vec::new(),
    };
    let unstable = declarations::unstable_edition(&unit.source.path, ast.syntax.as_ref());
    lower.errors.extend(unstable);
    let imports = unit
        .imports
        .iter()
        .copied()
        .zip(unit.import_spans.iter().copied());
    let lite_errors = references::lite_imports(symbols, file, imports);
    lower.errors.extend(lite_errors);
    let package = file_package(ast).to_string();
    let (option_errors, custom_options) = option_names::check(ast, &package, &lower.resolver);
    lower.errors.extend(option_errors);
    let mut out = File {
        path: unit.source.path.clone(),
        text: unit.source.text.clone(),
        syntax: syntax.clone(),
        syntax_span: ast.syntax.as_ref().map(|s| s.span),
        package: package.clone(),
        package_span: None,
        imports: Vec::new(),
        options: Options::default(),
        messages: Vec::new(),
        enums: Vec::new(),
        services: Vec::new(),
        extensions: Vec::new(),
        features: syntax_defaults(&syntax),
        comments: unit.parsed.comments.clone(),
        line_index: Default::default(),
    };
    out.options = lower_options(ast.items.iter().filter_map(|item| match item {
        TopItem::Option(o) => Some(o),
        _ => None,
    }));
    apply_options(&mut out.features, &out.options.entries);
    let file_features = out.features.clone();
    for item in &ast.items {
        match item {
            TopItem::Package(p) => {
                lower
                    .errors
                    .extend(declarations::single_package(out.package_span, p.span));
                out.package_span = Some(p.span);
            }
            TopItem::Import(i) => out.imports.push(Import {
                path: i.path.clone(),
                public: i.public,
                weak: i.weak,
                span: i.span,
            }),
            TopItem::Option(_) => {}
            TopItem::Message(m) => {
                let scope = Scope {
                    name: &package,
                    features: &file_features,
                    file_options: &out.options,
                };
                let message = lower.message(m, &scope);
                out.messages.push(message);
            }
            TopItem::Enum(e) => out
                .enums
                .push(lower.enumeration(e, &package, &file_features)),
            TopItem::Service(s) => out.services.push(lower.service(s, &package)),
            TopItem::Extend(e) => {
                let scope = Scope {
                    name: &package,
                    features: &file_features,
                    file_options: &out.options,
                };
                let mut nested = Vec::new();
                let fields = lower.extend(e, &scope, &mut nested);
                out.extensions.extend(fields);
                // Groups declared in a top-level extend become top-level messages.
                out.messages.extend(nested);
            }
        }
    }
    tight(&mut out.messages);
    tight(&mut out.enums);
    tight(&mut out.services);
    tight(&mut out.extensions);
    tight(&mut out.imports);
    let recorder = lower.resolver.into_recorder();
    (out, lower.errors, custom_options, recorder)
}

/// Drops a vector's spare capacity. The model is built by `push` and `collect` from
/// filtered iterators, which leave up to half of a vector unused and give even a
/// one-element vector room for four; the model outlives its build, so the slack would be
/// kept to the end (a third of the memory of fields' options, for instance).
fn tight<T>(items: &mut Vec<T>) {
    items.shrink_to_fit();
}

/// Where a declaration sits: the enclosing full name and features.
struct Scope<'s> {
    name: &'s str,
    features: &'s Features,
    file_options: &'s Options,
}

fn lower_options<'o>(decls: impl Iterator<Item = &'o ast::OptionDecl>) -> Options {
    let entries = decls
        .map(|d| OptionEntry {
            name: d.canonical_name(),
            value: d.value.clone(),
            span: d.span,
            resolved: Default::default(),
        })
        .collect();
    Options { entries }
}

impl Lower<'_> {
    /// A shared copy of `features`: the elements of a file have only a few distinct ones,
    /// and one per element would be a third of the model's memory. Only the last few copies
    /// are looked at (siblings share their parent's): no hashing, which cost a tenth of the
    /// build's instructions, and no quadratic scan where many elements set their own.
    fn shared(&mut self, features: Features) -> Arc<Features> {
        const RECENT: usize = 8;
        if let Some(copy) = self.features.iter().rev().find(|copy| ***copy == features) {
            return Arc::clone(copy);
        }
        let copy = Arc::new(features);
        if self.features.len() == RECENT {
            self.features.remove(0);
        }
        self.features.push(Arc::clone(&copy));
        copy
    }

    fn is_editions(&self) -> bool {
        matches!(self.syntax, Syntax::Editions(_))
    }

    // ---- messages ----

    fn message(&mut self, decl: &ast::MessageDecl, scope: &Scope) -> Message {
        self.message_body(
            &decl.name.text,
            decl.span,
            decl.name.span,
            &decl.body,
            scope,
            false,
        )
    }

    fn message_body(
        &mut self,
        name: &str,
        span: Span,
        name_span: Span,
        body: &[MessageItem],
        scope: &Scope,
        is_group: bool,
    ) -> Message {
        let full_name = join(scope.name, name);
        let options = lower_options(body.iter().filter_map(|item| match item {
            MessageItem::Option(o) => Some(o),
            _ => None,
        }));
        let features = message_features(&self.syntax, scope.features, &options);
        let features = self.shared(features);
        // The full name goes into the message once its body is lowered (the body's scope
        // borrows it): one allocation, not two.
        let mut message = Message {
            name: name.to_string(),
            span,
            name_span,
            options,
            is_group,
            features,
            ..Message::default()
        };
        let features = message.features.clone();
        let inner = Scope {
            name: &full_name,
            features: &features,
            file_options: scope.file_options,
        };
        for item in body {
            match item {
                MessageItem::Field(f) => {
                    let field = self.field(f, &inner, None, false, &mut message.messages);
                    message.fields.push(field);
                }
                MessageItem::Oneof(o) => self.oneof(o, &inner, &mut message),
                MessageItem::Message(m) => {
                    let nested = self.message(m, &inner);
                    message.messages.push(nested);
                }
                MessageItem::Enum(e) => {
                    let nested = self.enumeration(e, &full_name, &features);
                    message.enums.push(nested);
                }
                MessageItem::Extend(e) => {
                    let fields = self.extend(e, &inner, &mut message.messages);
                    message.extensions.extend(fields);
                }
                MessageItem::Extensions(e) => {
                    message
                        .extension_ranges
                        .extend(e.ranges.iter().map(|r| ReservedRange {
                            start: r.start,
                            end: r.end,
                            span: r.span,
                            options: lower_options(e.options.iter()),
                        }))
                }
                MessageItem::Reserved(r) => {
                    message
                        .reserved_ranges
                        .extend(r.ranges.iter().map(|r| ReservedRange {
                            start: r.start,
                            end: r.end,
                            span: r.span,
                            options: Options::default(),
                        }));
                    message
                        .reserved_names
                        .extend(r.names.iter().map(|n| ReservedName {
                            name: n.text.to_string(),
                            span: n.span,
                        }));
                }
                MessageItem::Option(_) => {}
            }
        }
        message.full_name = full_name;
        add_synthetic_oneofs(&mut message);
        tight(&mut message.fields);
        tight(&mut message.oneofs);
        tight(&mut message.messages);
        tight(&mut message.enums);
        tight(&mut message.extensions);
        tight(&mut message.reserved_ranges);
        tight(&mut message.reserved_names);
        tight(&mut message.extension_ranges);
        message
    }

    fn oneof(&mut self, decl: &ast::OneofDecl, scope: &Scope, message: &mut Message) {
        let options = lower_options(decl.options.iter());
        let mut features = inherited(scope.features);
        apply_options(&mut features, &options.entries);
        let index = message.oneofs.len();
        message.oneofs.push(Oneof {
            name: decl.name.text.to_string(),
            span: decl.span,
            name_span: decl.name.span,
            synthetic: false,
            options,
        });
        let inner = Scope {
            name: scope.name,
            features: &features,
            file_options: scope.file_options,
        };
        for f in &decl.fields {
            let field = self.field(
                f,
                &inner,
                Some(oneof_number(index)),
                false,
                &mut message.messages,
            );
            message.fields.push(field);
        }
    }

    /// Fields of an `extend` block; groups declared there add messages to `nested`.
    fn extend(
        &mut self,
        decl: &ast::ExtendDecl,
        scope: &Scope,
        nested: &mut Vec<Message>,
    ) -> Vec<Field> {
        let (extendee, resolved) = self.resolver.resolve_message_of_any_kind(
            &decl.extendee.text,
            scope.name,
            decl.extendee.span,
            &mut self.errors,
        );
        if resolved {
            self.errors.extend(proto3::extends_options_only(
                &self.syntax,
                &extendee,
                decl.extendee.span,
            ));
            let lite = references::lite_extendee(&self.resolver, &extendee, decl.extendee.span);
            self.errors.extend(lite);
        }
        decl.fields
            .iter()
            .map(|f| {
                if resolved {
                    self.errors
                        .extend(references::extension_number(&self.resolver, &extendee, f));
                }
                let mut field = self.field(f, scope, None, true, nested);
                if resolved {
                    self.errors.extend(references::message_set_extension(
                        &self.resolver,
                        &extendee,
                        &field,
                    ));
                }
                let rare = field.rare_mut();
                rare.extendee = Some(extendee.as_str().into());
                rare.extendee_span = Some(decl.extendee.span);
                field
            })
            .collect()
    }

    /// Lowers one field. A map field's entry or a group's message is pushed to `nested`
    /// (the enclosing message's nested messages, in declaration order as protoc does).
    fn field(
        &mut self,
        decl: &ast::FieldDecl,
        scope: &Scope,
        oneof_index: Option<u32>,
        is_extension: bool,
        nested: &mut Vec<Message>,
    ) -> Field {
        let options = lower_options(decl.options.iter());
        let written_label = decl.label.map(|(l, _)| l);
        let is_map = matches!(decl.ty, TypeRef::Map { .. });
        let is_group = decl.ty == TypeRef::Group;
        self.errors.extend(declarations::proto2_label(
            &self.syntax,
            decl,
            oneof_index.is_some(),
        ));
        let name = if is_group {
            decl.name.text.as_str().to_ascii_lowercase()
        } else {
            decl.name.text.to_string()
        };
        let (mut ty, type_name) = self.field_type(decl, scope, nested);
        let mut label = match written_label {
            Some(l) => l,
            None if is_map => Label::Repeated,
            None => Label::Optional,
        };
        let proto3_optional =
            self.syntax == Syntax::Proto3 && written_label == Some(Label::Optional);
        let presence = LegacyPresence {
            label,
            ty,
            in_oneof: oneof_index.is_some(),
            proto3_optional,
            is_group,
        };
        let features = field_features(
            &self.syntax,
            scope.features,
            scope.file_options,
            &options,
            presence,
        );
        if let TypeRef::Map {
            key,
            key_span,
            value,
            value_span,
        } = &decl.ty
        {
            let entry = self.map_entry(
                decl,
                (key, *key_span),
                (value, *value_span),
                scope,
                &features,
            );
            nested.push(entry);
        }
        if self.is_editions() {
            if features.field_presence.value == FieldPresence::LegacyRequired
                && label != Label::Repeated
            {
                label = Label::Required;
            }
            if features.message_encoding.value == MessageEncoding::Delimited
                && ty == FieldType::Message
                && !is_map
            {
                ty = FieldType::Group;
            }
        }
        if ty == FieldType::Enum {
            // Extensions always have presence, whatever the file's `field_presence` (protoc's
            // `has_presence`; buf refuses a closed enum there).
            let implicit_singular = label != Label::Repeated
                && oneof_index.is_none()
                && !is_extension
                && features.field_presence.value == FieldPresence::Implicit;
            self.closed_enum(type_name.as_deref(), decl.type_span, implicit_singular);
        }
        let json_name_option = options.str("json_name").map(|s| s.into_owned());
        let default_value = options.value("default").map(|v| default_string(v, ty));
        Field {
            full_name: join(scope.name, &name),
            json_name_explicit: json_name_option.is_some(),
            json_name: json_name_option
                .unwrap_or_else(|| default_json_name(&name))
                .into_boxed_str(),
            name,
            number: decl.number,
            label,
            ty,
            type_name: type_name.map(String::into_boxed_str),
            oneof_index,
            proto3_optional,
            options,
            rare: default_value.map(|value| {
                Box::new(RareField {
                    default_value: Some(value.into_boxed_str()),
                    ..RareField::default()
                })
            }),
            features: self.shared(features),
            span: decl.span,
            name_span: decl.name.span,
            number_span: decl.number_span,
            label_span: decl.label.map(|(_, s)| s),
            type_span: decl.type_span,
        }
    }

    /// The field's type and fully-qualified type name. A group's message is lowered here and
    /// pushed to `nested`; a map's entry is built by the caller once features are known.
    fn field_type(
        &mut self,
        decl: &ast::FieldDecl,
        scope: &Scope,
        nested: &mut Vec<Message>,
    ) -> (FieldType, Option<String>) {
        match &decl.ty {
            TypeRef::Scalar(t) => (*t, None),
            TypeRef::Named(n) => {
                match self
                    .resolver
                    .resolve_type(n, scope.name, decl.type_span, &mut self.errors)
                {
                    Resolved::Message(full) => {
                        self.map_entry_use(&full, decl.type_span);
                        (FieldType::Message, Some(full))
                    }
                    Resolved::Enum(full) => (FieldType::Enum, Some(full)),
                    Resolved::Unknown(written) => (FieldType::Message, Some(written)),
                }
            }
            TypeRef::Map { .. } => (
                FieldType::Message,
                Some(join(scope.name, &map_entry_name(&decl.name.text))),
            ),
            TypeRef::Group => {
                let body = decl.group_body.as_deref().unwrap_or(&[]);
                let group = self.message_body(
                    &decl.name.text,
                    decl.span,
                    decl.name.span,
                    body,
                    scope,
                    true,
                );
                let full = group.full_name.clone();
                nested.push(group);
                (FieldType::Group, Some(full))
            }
        }
    }

    /// Reports a field that names a map's entry message (see [`references::map_entry_use`]).
    fn map_entry_use(&mut self, type_name: &str, span: Span) {
        if let Some(message) = references::map_entry_use(&self.resolver, type_name) {
            self.errors.push((span, message));
        }
    }

    /// Reports a closed enum used where buf refuses it (see [`references::closed_enum`]).
    fn closed_enum(&mut self, type_name: Option<&str>, span: Span, implicit_singular: bool) {
        if let Some(message) =
            references::closed_enum(&self.resolver, &self.syntax, type_name, implicit_singular)
        {
            self.errors.push((span, message));
        }
    }

    /// The `XxxEntry` message protoc synthesizes for `map<K, V> xxx = n;`. Its key and value
    /// fields carry the map field's features (protoc propagates them), with the presence a
    /// plain singular field of that type has; every span of theirs is the `map<K, V>` type,
    /// where protocompile puts them.
    fn map_entry(
        &mut self,
        decl: &ast::FieldDecl,
        (key, key_span): (&TypeRef, Span),
        (value, value_span): (&TypeRef, Span),
        scope: &Scope,
        map_features: &Features,
    ) -> Message {
        let name = map_entry_name(&decl.name.text);
        let full_name = join(scope.name, &name);
        let features = inherited(scope.features);
        let span = decl.type_span;
        let syntax = self.syntax.clone();
        let entry_field =
            |this: &mut Self, field_name: &str, number: i64, ty: &TypeRef, at: Span| {
                let (ty, type_name) = match ty {
                    TypeRef::Scalar(t) => (*t, None),
                    TypeRef::Named(n) => {
                        match this
                            .resolver
                            .resolve_type(n, scope.name, at, &mut this.errors)
                        {
                            Resolved::Message(full) => {
                                this.map_entry_use(&full, at);
                                (FieldType::Message, Some(full))
                            }
                            Resolved::Enum(full) => (FieldType::Enum, Some(full)),
                            Resolved::Unknown(w) => (FieldType::Message, Some(w)),
                        }
                    }
                    _ => (FieldType::Message, None),
                };
                if ty == FieldType::Enum && syntax == Syntax::Proto3 {
                    this.closed_enum(type_name.as_deref(), at, false);
                }
                if ty == FieldType::Enum && number == 2 {
                    let resolver = &this.resolver;
                    if let Some(message) =
                        references::map_value_enum(resolver, type_name.as_deref())
                    {
                        this.errors.push((at, message));
                    }
                }
                let mut features = inherited(map_features);
                features.field_presence.value = match syntax {
                    Syntax::Proto3 if ty != FieldType::Message => FieldPresence::Implicit,
                    Syntax::Proto2 | Syntax::Proto3 => FieldPresence::Explicit,
                    Syntax::Editions(_) => inherited(scope.features).field_presence.value,
                };
                Field {
                    name: field_name.to_string(),
                    full_name: join(&full_name, field_name),
                    number,
                    label: Label::Optional,
                    ty,
                    type_name: type_name.map(String::into_boxed_str),
                    oneof_index: None,
                    proto3_optional: false,
                    json_name: field_name.into(),
                    json_name_explicit: false,
                    options: Options::default(),
                    rare: None,
                    features: this.shared(features),
                    span,
                    name_span: span,
                    number_span: span,
                    label_span: None,
                    type_span: span,
                }
            };
        let key_field = entry_field(self, "key", 1, key, key_span);
        let value_field = entry_field(self, "value", 2, value, value_span);
        Message {
            name,
            full_name,
            // protocompile gives the synthesized entry message the `map<K, V>` type's span.
            span,
            name_span: decl.name.span,
            fields: vec![key_field, value_field],
            is_map_entry: true,
            features: self.shared(features),
            ..Message::default()
        }
    }

    // ---- enums ----

    fn enumeration(&mut self, decl: &ast::EnumDecl, scope: &str, parent: &Features) -> Enum {
        let options = lower_options(decl.body.iter().filter_map(|item| match item {
            EnumItem::Option(o) => Some(o),
            _ => None,
        }));
        let mut features = inherited(parent);
        apply_options(&mut features, &options.entries);
        let mut out = Enum {
            name: decl.name.text.to_string(),
            full_name: join(scope, &decl.name.text),
            span: decl.span,
            name_span: decl.name.span,
            values: Vec::new(),
            reserved_ranges: Vec::new(),
            reserved_names: Vec::new(),
            options,
            features: self.shared(features),
        };
        for item in &decl.body {
            match item {
                EnumItem::Value(v) => out.values.push(EnumValue {
                    name: v.name.text.to_string(),
                    // Enum values are siblings of their enum (C++ scoping), as in descriptors.
                    full_name: join(scope, &v.name.text),
                    number: v.number,
                    span: v.span,
                    name_span: v.name.span,
                    number_span: v.number_span,
                    options: lower_options(v.options.iter()),
                }),
                EnumItem::Reserved(r) => {
                    out.reserved_ranges
                        .extend(r.ranges.iter().map(|r| ReservedRange {
                            start: r.start,
                            end: r.end,
                            span: r.span,
                            options: Options::default(),
                        }));
                    out.reserved_names
                        .extend(r.names.iter().map(|n| ReservedName {
                            name: n.text.to_string(),
                            span: n.span,
                        }));
                }
                EnumItem::Option(_) => {}
            }
        }
        tight(&mut out.values);
        tight(&mut out.reserved_ranges);
        tight(&mut out.reserved_names);
        out
    }

    // ---- services ----

    fn method_type(&mut self, name: &ast::Name, service: &str) -> String {
        let resolver = &self.resolver;
        let (full, _) =
            resolver.resolve_message_of_any_kind(&name.text, service, name.span, &mut self.errors);
        full
    }

    fn service(&mut self, decl: &ast::ServiceDecl, scope: &str) -> Service {
        let full_name = join(scope, &decl.name.text);
        let methods = decl
            .methods
            .iter()
            .map(|m| Method {
                name: m.name.text.to_string(),
                full_name: join(&full_name, &m.name.text),
                span: m.span,
                name_span: m.name.span,
                // protoc resolves them from the method's own scope: the service.
                input_type: self.method_type(&m.input, &full_name),
                output_type: self.method_type(&m.output, &full_name),
                input_span: m.input.span,
                output_span: m.output.span,
                client_streaming: m.client_streaming.is_some(),
                server_streaming: m.server_streaming.is_some(),
                client_streaming_span: m.client_streaming,
                server_streaming_span: m.server_streaming,
                options: lower_options(m.options.iter()),
            })
            .collect();
        Service {
            name: decl.name.text.to_string(),
            full_name,
            span: decl.span,
            name_span: decl.name.span,
            methods,
            options: lower_options(decl.options.iter()),
        }
    }
}

/// The synthetic oneofs of proto3 `optional` fields, named as protocompile (buf) names them:
/// `_name`, prefixed with `X` until no field, oneof, extension, nested message, nested enum
/// or enum value of the message has that name (protoc only looks at fields and oneofs);
/// appended after the real oneofs.
fn add_synthetic_oneofs(message: &mut Message) {
    // Most messages have none: no set of every name to build then.
    if !message.fields.iter().any(|f| f.proto3_optional) {
        return;
    }
    let mut taken: HashSet<String, ahash::RandomState> = message
        .fields
        .iter()
        .chain(&message.extensions)
        .map(|f| f.name.clone())
        .chain(message.oneofs.iter().map(|o| o.name.clone()))
        .chain(message.messages.iter().map(|m| m.name.clone()))
        .chain(message.enums.iter().flat_map(|e| {
            std::iter::once(e.name.clone()).chain(e.values.iter().map(|v| v.name.clone()))
        }))
        .collect();
    for i in 0..message.fields.len() {
        if !message.fields[i].proto3_optional {
            continue;
        }
        let field = &message.fields[i];
        let mut name = if field.name.starts_with('_') {
            field.name.clone()
        } else {
            format!("_{}", field.name)
        };
        while taken.contains(&name) {
            name.insert(0, 'X');
        }
        taken.insert(name.clone());
        let oneof = Oneof {
            name,
            span: field.span,
            name_span: field.name_span,
            synthetic: true,
            options: Options::default(),
        };
        message.fields[i].oneof_index = Some(oneof_number(message.oneofs.len()));
        message.oneofs.push(oneof);
    }
}

/// A oneof's index as `model::Field` keeps it (32 bits).
fn oneof_number(index: usize) -> u32 {
    u32::try_from(index).expect("fewer than 2^32 oneofs")
}

/// `FieldDescriptorProto.default_value` form of a `default = ...` option: enum value name,
/// `true`/`false`, decimal integers, floats as protoc prints them (`1e+20`, `inf`, `-inf`,
/// `nan`), strings unescaped, bytes C-escaped (octal for non-printable bytes, as protoc).
pub fn default_string(value: &OptionValue, ty: FieldType) -> String {
    match value {
        OptionValue::Ident(s) => s.clone(),
        OptionValue::Int(n) if matches!(ty, FieldType::Float | FieldType::Double) => {
            protoc_float(*n as f64)
        }
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Float(f) => protoc_float(*f),
        OptionValue::String(bytes) if ty == FieldType::Bytes => c_escape(bytes),
        // protoc keeps a string default's bytes as they are; the model's text is UTF-8.
        OptionValue::String(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        OptionValue::Aggregate(s) => s.clone(),
    }
}

/// A `double` or `float` default as protoc writes it into `default_value` (`SimpleDtoa`:
/// C's `%.15g`, or `%.17g` when 15 digits do not read back as the same double): `0.1`,
/// `1e+20`, `1.8446744073709552e+19`, `inf`, `-inf`, `nan`.
pub fn protoc_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let short = c_format_g(f, 15);
    if short.parse::<f64>() == Ok(f) {
        short
    } else {
        c_format_g(f, 17)
    }
}

/// C's `printf("%.*g", precision, f)` for a finite `f`: `precision` significant digits,
/// trailing zeros dropped, exponent form (`1e+20`, `1.5e-05`) when the decimal exponent is
/// below -4 or at least the precision.
fn c_format_g(f: f64, precision: usize) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    let sci = format!("{:.*e}", precision - 1, f);
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if exponent < -4 || exponent >= precision as i32 {
        let mantissa = trim_fraction(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs());
    }
    let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
    trim_fraction(&format!("{f:.decimals$}")).to_string()
}

/// `1.500` -> `1.5`, `2.000` -> `2`, `10` -> `10`.
fn trim_fraction(number: &str) -> &str {
    if number.contains('.') {
        number.trim_end_matches('0').trim_end_matches('.')
    } else {
        number
    }
}

fn c_escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

#[cfg(test)]
#[path = "lower_memory_tests.rs"]
mod memory_tests;
