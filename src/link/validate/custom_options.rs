//! Custom options checked as protoc's `OptionInterpreter` checks them, once every file is
//! lowered (an option's type may be declared in any file of the build), and the built-in
//! options that need the same types (a message literal, `features.(pb.cpp).x`), typed by the
//! bundled descriptor.proto: the parts of a name
//! after the first (`(f).a.b`, `(f).(nested_ext)`), the value against the type of the last
//! part (scalars, enum value names, message literals), an option or a field of one set twice,
//! and the required fields of a message option.

use std::collections::HashMap;

use super::feature_lifetimes;
use super::message_literals::{self, Literals, SetField};
use super::option_names::ElementOptions;
use super::option_values::{self, Kind};
use super::typed_values;
use crate::link::resolve::Resolver;
use crate::link::symbols::SymKind;
use crate::model::{
    Enum, EnumValue, Field, FieldType, File, Label, Message, OptionValue, ResolvedOption, Span,
};
use crate::syntax::ast::{OptionDecl, OptionNamePart};
use crate::syntax::literal::MessageLiteral;

type Errors = Vec<(Span, String)>;

/// The maps here are keyed by full names of the build, hashed millions of times on a large
/// tree, and never iterated: ahash instead of SipHash. A fixed-key hasher for the maps made
/// per option (`Set`): seeding a random state for each cost more than the lookups.
type Map<K, V> = HashMap<K, V, ahash::RandomState>;
type FixedMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<ahash::AHasher>>;

/// The messages, enums and extensions of every file of the build, by full name. Looked up
/// with [`Types::message`], [`Types::enumeration`] and [`Types::extension`], which fall back
/// to the bundled descriptor.proto (the types of the built-in options) for what the build
/// does not declare itself.
pub(in crate::link) struct Types<'a> {
    pub messages: Map<&'a str, &'a Message>,
    pub enums: Map<&'a str, &'a Enum>,
    pub extensions: Map<&'a str, &'a Field>,
    /// The messages declared by a bundled copy of a well-known file (see [`Types::is_bundled`]).
    bundled: std::collections::HashSet<&'a str, ahash::RandomState>,
}

impl<'a> Types<'a> {
    /// The types of `files`.
    pub(in crate::link) fn of(files: impl Iterator<Item = &'a File>) -> Self {
        let mut types = Types {
            messages: Map::default(),
            enums: Map::default(),
            extensions: Map::default(),
            bundled: Default::default(),
        };
        types.add(files);
        types
    }

    /// Adds the types of more files (where a name is declared twice, the last one stays).
    pub(in crate::link) fn add(&mut self, files: impl Iterator<Item = &'a File>) {
        for file in files {
            let bundled = crate::link::wkt::is_bundled_copy(&file.path, &file.text);
            for message in file.all_messages() {
                self.messages.insert(&message.full_name, message);
                if bundled {
                    self.bundled.insert(&message.full_name);
                }
            }
            for enumeration in file.all_enums() {
                self.enums.insert(&enumeration.full_name, enumeration);
            }
            for extension in file.all_extensions() {
                self.extensions.insert(&extension.full_name, extension);
            }
        }
    }

    /// The types of the bundled descriptor.proto, built once.
    fn builtin() -> &'static Types<'static> {
        static BUILTIN: std::sync::OnceLock<Types<'static>> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| Types::of(std::iter::once(crate::link::wkt::descriptor_model())))
    }

    /// Whether the message `full_name` comes from the bundled well-known files (protoc's
    /// compiled-in descriptors) rather than a file of the build.
    pub(super) fn is_bundled(&self, full_name: &str) -> bool {
        self.bundled.contains(full_name) || !self.messages.contains_key(full_name)
    }

    /// A message by full name: the build's own, else descriptor.proto's.
    pub(super) fn message(&self, full_name: &str) -> Option<&'a Message> {
        let builtin = || Types::builtin().messages.get(full_name).copied();
        self.messages.get(full_name).copied().or_else(builtin)
    }

    /// An enum by full name: the build's own, else descriptor.proto's.
    pub(super) fn enumeration(&self, full_name: &str) -> Option<&'a Enum> {
        let builtin = || Types::builtin().enums.get(full_name).copied();
        self.enums.get(full_name).copied().or_else(builtin)
    }

    /// An extension by full name (descriptor.proto declares none).
    pub(super) fn extension(&self, full_name: &str) -> Option<&'a Field> {
        self.extensions.get(full_name).copied()
    }

    /// The field an option's first part names: an extension by its full name, or a field of
    /// an options message (`google.protobuf.FileOptions.features`).
    fn option_root(&self, full_name: &str) -> Option<&'a Field> {
        if let Some(extension) = self.extension(full_name) {
            return Some(extension);
        }
        let (message, field) = full_name.rsplit_once('.')?;
        let message = self.message(message)?;
        message.fields.iter().find(|f| f.name == field)
    }

    /// The value of an enum field's enum that `written` names, by name or number.
    pub(super) fn enum_value(&self, field: &Field, written: &OptionValue) -> Option<&'a EnumValue> {
        if field.ty != FieldType::Enum {
            return None;
        }
        let enumeration = self.enumeration(field.type_name.as_deref()?)?;
        enumeration.values.iter().find(|v| match written {
            OptionValue::Ident(name) => v.name == *name,
            OptionValue::Int(number) => i128::from(v.number) == *number,
            _ => false,
        })
    }

    /// The message type of a message or group field.
    pub(super) fn message_of(&self, field: &Field) -> Option<&'a Message> {
        if !matches!(field.ty, FieldType::Message | FieldType::Group) {
            return None;
        }
        self.message(field.type_name.as_deref()?)
    }

    /// The type of a field's value, as the value checks see it.
    pub(super) fn kind_of(&self, field: &Field) -> Kind {
        match field.ty {
            FieldType::Message | FieldType::Group => Kind::Message,
            FieldType::Enum => {
                let full = field.type_name.as_deref().unwrap_or_default().to_string();
                let values = self.enumeration(&full).map_or(Vec::new(), |e| {
                    e.values.iter().map(|v| v.name.clone()).collect()
                });
                Kind::Enum(full, values)
            }
            scalar => Kind::Scalar(scalar),
        }
    }
}

/// What an element's options set so far, as a tree of field full names: protoc builds the
/// options message option by option and refuses a non-repeated field set twice.
#[derive(Default, Debug)]
pub(super) struct Set {
    pub fields: FixedMap<String, Set>,
}

/// An option's resolved value, by the span and canonical name of its declaration (which
/// are its model entry's).
pub(in crate::link) type Resolved = ((Span, String), ResolvedOption);

/// Every problem with the custom options (and built-in options handed on with them) of one
/// file's elements; the value of each option found right is added to `resolved`.
pub(in crate::link) fn check(
    elements: &[ElementOptions],
    resolver: &Resolver,
    types: &Types,
    edition: Option<&str>,
    resolved: &mut Vec<Resolved>,
) -> Errors {
    let mut errors = Vec::new();
    if resolver.visible.missing {
        return errors; // a type may be in the missing import
    }
    let literals = Literals {
        resolver,
        types,
        set: Default::default(),
    };
    for element in elements {
        let mut set = Set::default();
        let mut roots: Vec<(&Field, Span)> = Vec::new();
        // The built-in options named without an extension part so far: `options_twice`
        // reports one set twice under the same name.
        let mut builtin_names: Vec<String> = Vec::new();
        for (option, extension) in &element.options {
            let Some(root) = types.option_root(extension) else {
                continue;
            };
            let plain_builtin = root.extendee().is_none() && !has_extension_part(option);
            // A plain built-in scalar's name and value were checked while lowering: it is
            // here only to record what it sets.
            let checked_before =
                plain_builtin && !matches!(option.value, OptionValue::Aggregate(_));
            let path = match option_path(option, root, &element.scope, resolver, types) {
                Ok(path) => path,
                Err(_) if checked_before => continue,
                Err(error) => {
                    errors.push(error);
                    continue;
                }
            };
            let Some(last) = path.last().copied() else {
                continue;
            };
            let twice_by_name = plain_builtin && {
                let name = option.canonical_name();
                let seen = builtin_names.contains(&name);
                builtin_names.push(name);
                seen
            };
            if let Some(error) = set_twice(option, &path, &set) {
                if !twice_by_name {
                    errors.push(error);
                }
                continue;
            }
            let mut fresh = Set::default();
            let node = if last.label == Label::Repeated {
                // Each value of a repeated field is a message of its own.
                insert_path(&mut set, &path[..path.len() - 1]);
                &mut fresh
            } else {
                insert_path(&mut set, &path)
            };
            // Parsed once, for the check and the typed value both.
            let literal = message_literal(option, last, types);
            let problems = if checked_before {
                Vec::new()
            } else {
                value_problem(option, last, literal.as_ref(), node, &literals)
            };
            if problems.is_empty() {
                let literal = literal.and_then(Result::ok);
                resolved.extend(resolve(option, &path, literal.as_ref(), &literals));
            }
            errors.extend(problems);
            let from_literals = std::mem::take(&mut *literals.set.borrow_mut());
            if let (Some(edition), true) = (edition, is_features(root)) {
                let set = features_named(option, &path, types).chain(from_literals);
                errors.extend(feature_lifetimes::check(set, edition));
            }
            if !roots.iter().any(|(r, _)| r.full_name == root.full_name) {
                roots.push((root, option.span));
            }
        }
        for (root, span) in roots {
            if let (Some(message), Some(node)) =
                (types.message_of(root), set.fields.get(&root.full_name))
            {
                if root.label != Label::Repeated {
                    errors.extend(message_literals::missing_required(
                        message, node, span, types,
                    ));
                }
            }
        }
    }
    errors
}

/// The option's field path by full names and its value typed by the last field (`literal`:
/// the value parsed, when it is a message literal of a known message type).
fn resolve<'a>(
    option: &OptionDecl,
    path: &[&'a Field],
    literal: Option<&MessageLiteral>,
    literals: &Literals<'a>,
) -> Option<Resolved> {
    let last = path.last()?;
    let value = typed_values::option_value(&option.value, literal, last, literals)?;
    let path = path.iter().map(|f| f.full_name.clone()).collect();
    Some((
        (option.span, option.canonical_name()),
        ResolvedOption { path, value },
    ))
}

/// The fields an option's name goes through, from its extension to the field it sets.
/// protoc: `Option "(f).b" unknown. Ensure that your proto definition file imports the proto
/// which defines the option ...`, `Option "(f).a" is an atomic type, not a message.` and
/// `Option field "(f)" is a repeated message. Repeated message options must be initialized
/// using an aggregate value.`
fn option_path<'a>(
    option: &OptionDecl,
    root: &'a Field,
    scope: &str,
    resolver: &Resolver,
    types: &Types<'a>,
) -> Result<Vec<&'a Field>, (Span, String)> {
    let mut path = vec![root];
    for (i, part) in option.name.iter().enumerate().skip(1) {
        let parent = path[path.len() - 1];
        let written = partial_name(&option.name[..i]);
        let Some(message) = types.message_of(parent) else {
            if matches!(parent.ty, FieldType::Message | FieldType::Group) {
                return Ok(Vec::new()); // its type is not known here
            }
            return Err((
                part.span,
                format!(
                    "option `{}`: `{written}` is a {}, not a message: it has no fields",
                    option.canonical_name(),
                    parent.ty.name()
                ),
            ));
        };
        if parent.label == Label::Repeated {
            return Err((
                part.span,
                format!(
                    "option `{}`: `{written}` is a repeated message: set it with a message literal, `{written} = {{ ... }}`",
                    option.canonical_name()
                ),
            ));
        }
        let field = if part.is_extension {
            extension_of(part, message, scope, resolver, types)
        } else {
            message.fields.iter().find(|f| f.name == part.name)
        };
        let Some(field) = field else {
            let what = if part.is_extension {
                format!(
                    "no extension `{}` of `{}` is visible here",
                    part.name.trim_start_matches('.'),
                    message.full_name
                )
            } else {
                format!("`{}` has no field `{}`", message.full_name, part.name)
            };
            return Err((
                part.span,
                format!("option `{}` is unknown: {what}", option.canonical_name()),
            ));
        };
        path.push(field);
    }
    Ok(path)
}

/// The extension a `(name)` part names, looked up from the element's scope, if it extends
/// `message`.
fn extension_of<'a>(
    part: &OptionNamePart,
    message: &Message,
    scope: &str,
    resolver: &Resolver,
    types: &Types<'a>,
) -> Option<&'a Field> {
    let (full, sym) = resolver.resolve_any(&part.name, scope)?;
    if sym.kind != SymKind::Field {
        return None;
    }
    let extension = types.extension(&full)?;
    (extension.extendee() == Some(message.full_name.as_str())).then_some(extension)
}

/// The `features` field of an options message.
fn is_features(root: &Field) -> bool {
    root.extendee().is_none() && root.name == "features"
}

/// The features an option's name sets (`features.(pb.cpp).string_type = VIEW`: the
/// extension, the feature, and the enum value), for their lifetimes.
fn features_named<'a>(
    option: &OptionDecl,
    path: &[&'a Field],
    types: &Types<'a>,
) -> impl Iterator<Item = SetField<'a>> {
    let mut set: Vec<SetField<'a>> = path
        .iter()
        .zip(&option.name)
        .skip(1)
        .map(|(field, part)| SetField {
            field,
            enum_value: None,
            span: part.span,
        })
        .collect();
    if let Some(last) = path.last().filter(|_| path.len() > 1) {
        if let Some(value) = types.enum_value(last, &option.value) {
            set.push(SetField {
                field: last,
                enum_value: Some(value),
                span: option.value_span,
            });
        }
    }
    set.into_iter()
}

fn has_extension_part(option: &OptionDecl) -> bool {
    option.name.iter().any(|part| part.is_extension)
}

/// The canonical name of the first parts of an option's name: `(f).a`.
fn partial_name(parts: &[OptionNamePart]) -> String {
    let decl = OptionDecl {
        name: parts.to_vec(),
        value: OptionValue::Int(0),
        value_span: Span::default(),
        span: Span::default(),
    };
    decl.canonical_name()
}

/// protoc: `Option "(f).a" was already set.` A non-repeated field is set twice when an
/// earlier option set it or a field inside it (protoc's `ExamineIfOptionIsSet`).
fn set_twice(option: &OptionDecl, path: &[&Field], set: &Set) -> Option<(Span, String)> {
    let (last, intermediate) = path.split_last()?;
    if last.label == Label::Repeated {
        return None;
    }
    let mut node = set;
    for field in intermediate {
        node = node.fields.get(&field.full_name)?;
    }
    node.fields.get(&last.full_name)?;
    let span = Span {
        start: option.name.first()?.span.start,
        end: option.name.last()?.span.end,
    };
    Some((
        span,
        format!("option `{}` is already set", option.canonical_name()),
    ))
}

/// Records that the option sets the fields of `path`; the node of its last field.
fn insert_path<'s>(set: &'s mut Set, path: &[&Field]) -> &'s mut Set {
    let mut node = set;
    for field in path {
        node = node.fields.entry(field.full_name.clone()).or_default();
    }
    node
}

/// A message literal value parsed (spans in the file), when `field` is of a known message
/// type; `None` for any other value.
fn message_literal(
    option: &OptionDecl,
    field: &Field,
    types: &Types,
) -> Option<Result<MessageLiteral, (Span, String)>> {
    let OptionValue::Aggregate(text) = &option.value else {
        return None;
    };
    types.message_of(field)?;
    Some(crate::parse::literal::parse_literal(
        text,
        option.value_span.start,
    ))
}

/// The value against the type of the field it sets: a message literal (`literal`, parsed by
/// [`message_literal`]) is checked field by field (and what it sets recorded in `node`),
/// other values as `option_values` checks them.
fn value_problem(
    option: &OptionDecl,
    field: &Field,
    literal: Option<&Result<MessageLiteral, (Span, String)>>,
    node: &mut Set,
    literals: &Literals,
) -> Errors {
    match (&option.value, literals.types.message_of(field), literal) {
        (OptionValue::Aggregate(_), Some(message), Some(parsed)) => match parsed {
            Err(error) => vec![error.clone()],
            Ok(literal) => {
                let mut errors = Vec::new();
                literals.message(message, literal, node, &mut errors);
                if field.label == Label::Repeated {
                    errors.extend(message_literals::missing_required(
                        message,
                        node,
                        literal.span,
                        literals.types,
                    ));
                }
                errors
            }
        },
        (OptionValue::Aggregate(_), None, _)
            if matches!(field.ty, FieldType::Message | FieldType::Group) =>
        {
            Vec::new()
        }
        (value, _, _) if names_enum_value(field, value, literals.types) => Vec::new(),
        (value, _, _) => {
            let kind = literals.types.kind_of(field);
            option_values::value_problem(&kind, value, &option.canonical_name())
                .map(|message| (option.value_span, message))
                .into_iter()
                .collect()
        }
    }
}

/// An identifier that is a value of the enum an enum field is of: what
/// `option_values::value_problem` accepts, known without listing the enum's value names.
fn names_enum_value(field: &Field, value: &OptionValue, types: &Types) -> bool {
    let OptionValue::Ident(name) = value else {
        return false;
    };
    field.ty == FieldType::Enum
        && field
            .type_name
            .as_deref()
            .and_then(|full| types.enumeration(full))
            .is_some_and(|e| e.values.iter().any(|v| v.name == *name))
}
