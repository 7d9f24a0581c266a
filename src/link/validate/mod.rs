//! The checks protoc (and buf's compiler) make that decide whether a schema is valid at all,
//! limited to the ones that are certain and cheap: field number range, duplicate field
//! numbers and names, fields using reserved numbers or names, duplicate enum numbers without
//! `allow_alias`, and the zero first value of open enums. A schema failing them would make
//! buf stop with a compile error, so we stop too rather than compare nonsense.

pub(super) mod custom_options;
pub(super) mod declarations;
mod edition_2024;
pub(super) mod extension_declarations;
mod extension_numbers;
mod feature_lifetimes;
mod features;
mod import_list;
mod message_literals;
mod naming_style;
pub(super) mod option_names;
mod option_types;
#[cfg(test)]
mod option_types_tests;
mod option_values;
mod options_twice;
pub(super) mod proto3;
mod ranges;
pub(super) mod references;
mod typed_values;
pub(super) mod written;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The per-element tables of validation (numbers, names), hashed with ahash: with std's
/// SipHash they were a tenth of the build's instructions on generated trees.
type FastMap<K, V> = HashMap<K, V, ahash::RandomState>;
type FastSet<T> = HashSet<T, ahash::RandomState>;

use crate::model::ranges::NumberSet;
use crate::model::{
    pascal_case, Enum, EnumType, Field, FieldType, File, JsonFormat, Label, Message,
    MessageEncoding, OptionEntry, OptionValue, Options, ReservedName, Span, Syntax, FIELD_MAX,
};

/// Numbers reserved for the protobuf implementation.
const IMPLEMENTATION_RESERVED: std::ops::RangeInclusive<i64> = 19_000..=19_999;

/// Where an option is written, for the `targets` of features.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    File,
    Message,
    Field,
    Oneof,
    Enum,
    EnumValue,
    Service,
    Method,
}

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::File => "a file",
            Target::Message => "a message",
            Target::Field => "a field",
            Target::Oneof => "a oneof",
            Target::Enum => "an enum",
            Target::EnumValue => "an enum value",
            Target::Service => "a service",
            Target::Method => "a method",
        }
    }
}

/// A standard feature of `google.protobuf.FeatureSet` (descriptor.proto, protobuf v36.0):
/// where it may be set, and the edition that introduced it.
struct FeatureSpec {
    targets: &'static [Target],
    introduced: &'static str,
}

/// The standard features, as descriptor.proto declares them.
fn feature_spec(feature: &str) -> Option<FeatureSpec> {
    use Target::*;
    let (targets, introduced): (&'static [Target], _) = match feature {
        "field_presence" | "repeated_field_encoding" | "utf8_validation" | "message_encoding" => {
            (&[Field, File], "2023")
        }
        "enum_type" => (&[Enum, File], "2023"),
        "json_format" => (&[Message, Enum, File], "2023"),
        "enforce_naming_style" => (
            &[
                File, Message, Field, Oneof, Enum, EnumValue, Service, Method,
            ],
            "2024",
        ),
        "default_symbol_visibility" => (&[File], "2024"),
        "enforce_proto_limits" => (&[Enum, Message, Field, Oneof], "2026"),
        _ => return None,
    };
    Some(FeatureSpec {
        targets,
        introduced,
    })
}

/// The option entries the checks read: under editions with features spelled out one per
/// entry, else the entries as they are (borrowed: most elements of most files).
fn entries_checked(options: &Options, editions: bool) -> Cow<'_, [OptionEntry]> {
    match editions {
        true => Cow::Owned(features::spelled_out(options)),
        false => Cow::Borrowed(&options.entries),
    }
}

/// `field `name``, as a field's problems begin: written only into a message.
#[derive(Clone, Copy)]
struct FieldNamed<'a>(&'a str);

impl std::fmt::Display for FieldNamed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "field `{}`", self.0)
    }
}

/// Features only exist in editions, only the known ones, only where their `targets` allow;
/// `packed` does not exist in editions.
fn check_options(
    options: &Options,
    target: Target,
    syntax: &Syntax,
    errors: &mut Vec<(Span, String)>,
) {
    let editions = matches!(syntax, Syntax::Editions(_));
    let entries = entries_checked(options, editions);
    for entry in entries.iter() {
        let name = entry.name.as_str();
        if editions && target == Target::File {
            errors.extend(features::no_required_by_default(entry));
            errors.extend(features::no_java_string_check_utf8(entry));
        }
        if !editions && (name == "features" || name.starts_with("features.")) {
            errors.push((
                entry.span,
                "features are only valid under editions".to_string(),
            ));
            continue;
        }
        if editions && name == "packed" {
            errors.push((
                entry.span,
                "the `packed` option is not allowed under editions; use `features.repeated_field_encoding`"
                    .to_string(),
            ));
            continue;
        }
        let Some(feature) = name.strip_prefix("features.") else {
            continue;
        };
        if feature.starts_with('(') {
            continue; // language features: not checked here
        }
        let standard = feature.split('.').next().unwrap_or(feature);
        let Some(spec) = feature_spec(standard) else {
            // In a literal, `features = { bogus: X }`, the literal checker reports it.
            if options.entries.iter().any(|e| e.name == entry.name) {
                errors.push((entry.span, format!("unknown feature `{standard}`")));
            }
            continue;
        };
        if let Syntax::Editions(edition) = syntax {
            // protoc: "... wasn't introduced until edition 2024 and can't be used in
            // edition 2023". Edition names of one length compare as numbers.
            if edition.as_str() < spec.introduced {
                errors.push((
                    entry.span,
                    format!(
                        "feature `{standard}` was introduced in edition {} and cannot be used in edition {edition}",
                        spec.introduced
                    ),
                ));
                continue;
            }
        }
        if !spec.targets.contains(&target) {
            errors.push((
                entry.span,
                format!("feature `{standard}` cannot be set on {}", target.name()),
            ));
        }
    }
}

/// The problems that need every file of the build lowered: custom options (their types may be
/// declared anywhere), and extensions against the declarations of their extendee; with the
/// option values typed on the way (for [`keep_resolved`]).
pub(in crate::link) fn after_lowering(
    file: &File,
    custom: &[option_names::ElementOptions],
    resolver: &crate::link::resolve::Resolver,
    types: &custom_options::Types,
) -> (Vec<(Span, String)>, Vec<custom_options::Resolved>) {
    let edition = match &file.syntax {
        Syntax::Editions(edition) => Some(edition.as_str()),
        _ => None,
    };
    let mut resolved = Vec::new();
    let mut errors = custom_options::check(custom, resolver, types, edition, &mut resolved);
    for extension in file.all_extensions() {
        let extendee = extension.extendee();
        // protoc's compiled-in descriptor.proto has lost its source-retention options, the
        // extension declarations among them: protoc checks no declaration of the bundled
        // options messages (buf does; we follow protoc).
        let declared_in_build = |name: &&str| !types.is_bundled(name);
        if let Some(extendee) = extendee
            .filter(declared_in_build)
            .and_then(|name| types.message(name))
        {
            errors.extend(extension_declarations::check_extension(extension, extendee));
        }
    }
    (errors, resolved)
}

/// Whether the custom options of `file`, taken by replay from another build, are typed there
/// exactly as here, so that checking them again can be skipped: `declared_alike(name)` says
/// that the file declaring `name` here is the same, with its whole import closure, in both
/// builds (taken by closure).
///
/// Why that gives what the check would. The check (`after_lowering`) reads the file's own
/// model and custom options (taken: the same), its edition (the same text), the resolver
/// (only for a name part in parentheses after the first, and for `[...]` names in a message
/// literal: refused below), the extendees of the file's extensions (refused: none), and the
/// types of the build, by full name, from each option's first part: the extension (or the
/// field of an options message, found in that message) and everything reachable from its
/// type. That field is declared in the file `declared_alike` vouches for, and every type
/// reachable from a field is declared in the import closure of the field's file (it was
/// resolved there), the same text in both builds, so lowered to equal models. Names are
/// unique in a build that reuses (`build`), so each name finds that declaration in both.
/// The check thus reads equal inputs and gives the other build's result: no error (that
/// build succeeded), and the option values the taken model already holds.
pub(in crate::link) fn options_typed_alike(
    file: &File,
    custom: &[option_names::ElementOptions],
    declared_alike: &dyn Fn(&str) -> bool,
) -> bool {
    file.all_extensions().is_empty()
        && custom
            .iter()
            .flat_map(|element| &element.options)
            .all(|(option, root)| {
                let resolves_more = option.name.iter().skip(1).any(|p| p.is_extension);
                let bracketed =
                    matches!(&option.value, OptionValue::Aggregate(t) if t.contains('['));
                let declaring = match option.name.first() {
                    Some(first) if first.is_extension => Some(&**root),
                    // A field of an options message: found in the message.
                    _ => root.rsplit_once('.').map(|(message, _)| message),
                };
                !resolves_more && !bracketed && declaring.is_some_and(declared_alike)
            })
}

/// Stores each resolved value in its option's model entry (the same span and name).
pub(in crate::link) fn keep_resolved(file: &File, resolved: Vec<custom_options::Resolved>) {
    if resolved.is_empty() {
        return;
    }
    let (keys, values): (Vec<_>, Vec<_>) = resolved.into_iter().unzip();
    let mut values: Vec<Option<crate::model::ResolvedOption>> =
        values.into_iter().map(Some).collect();
    let mut by_key = resolved_index(&keys);
    each_options(file, &mut |options| {
        for entry in &options.entries {
            if let Some(i) = by_key.remove(&(entry.span, entry.name.as_str())) {
                if let Some(value) = values[i].take() {
                    let _ = entry.resolved.set(Box::new(value));
                }
            }
        }
    });
}

/// Whether [`keep_resolved`] would leave `file`'s entries as they are: each holds the value
/// `resolved` gives it, or none when it gives none.
pub(in crate::link) fn same_resolved(file: &File, resolved: &[custom_options::Resolved]) -> bool {
    let mut by_key = resolved_index(resolved.iter().map(|(key, _)| key));
    let mut same = true;
    each_options(file, &mut |options| {
        for entry in &options.entries {
            let new = by_key.remove(&(entry.span, entry.name.as_str()));
            same &= new.map(|i| &resolved[i].1) == entry.resolved.get().map(Box::as_ref);
        }
    });
    same
}

/// The index of each resolved value by its option's span and name, as an entry of the
/// model is looked up (no name copied per entry); where a key comes twice, the last stays.
fn resolved_index<'k>(
    keys: impl IntoIterator<Item = &'k (Span, String)>,
) -> HashMap<(Span, &'k str), usize, ahash::RandomState> {
    keys.into_iter()
        .enumerate()
        .map(|(i, (span, name))| ((*span, name.as_str()), i))
        .collect()
}

/// A copy of `file` with no option value resolved, for [`keep_resolved`] to fill.
pub(in crate::link) fn unresolved_copy(file: &File) -> File {
    fn clear(options: &mut crate::model::Options) {
        for entry in &mut options.entries {
            entry.resolved = std::sync::OnceLock::new();
        }
    }
    fn enumeration(e: &mut crate::model::Enum) {
        clear(&mut e.options);
        for value in &mut e.values {
            clear(&mut value.options);
        }
    }
    fn message(m: &mut Message) {
        clear(&mut m.options);
        for field in m.fields.iter_mut().chain(&mut m.extensions) {
            clear(&mut field.options);
        }
        for oneof in &mut m.oneofs {
            clear(&mut oneof.options);
        }
        m.enums.iter_mut().for_each(enumeration);
        m.messages.iter_mut().for_each(message);
    }
    let mut copy = file.clone();
    clear(&mut copy.options);
    copy.messages.iter_mut().for_each(message);
    copy.enums.iter_mut().for_each(enumeration);
    for field in &mut copy.extensions {
        clear(&mut field.options);
    }
    for service in &mut copy.services {
        clear(&mut service.options);
        for method in &mut service.methods {
            clear(&mut method.options);
        }
    }
    copy
}

/// Every option list of `file` that [`keep_resolved`] fills.
fn each_options<'f>(file: &'f File, visit: &mut dyn FnMut(&'f crate::model::Options)) {
    visit(&file.options);
    for message in file.all_messages() {
        visit(&message.options);
        for field in message.fields.iter().chain(&message.extensions) {
            visit(&field.options);
        }
        for oneof in &message.oneofs {
            visit(&oneof.options);
        }
    }
    for field in &file.extensions {
        visit(&field.options);
    }
    for enumeration in file.all_enums() {
        visit(&enumeration.options);
        for value in &enumeration.values {
            visit(&value.options);
        }
    }
    for service in &file.services {
        visit(&service.options);
        for method in &service.methods {
            visit(&method.options);
        }
    }
}

/// Every problem found in `file`, as (span, message).
pub fn validate(file: &File) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    check_all_options(file, &mut errors);
    for message in file.all_messages() {
        check_message(message, &mut errors);
        errors.extend(extension_declarations::check_message(message));
        check_json_names(message, &mut errors);
        if !message.is_map_entry {
            for field in &message.fields {
                check_field_options(file, message, field, false, &mut errors);
            }
            for field in &message.extensions {
                check_field_options(file, message, field, true, &mut errors);
            }
        }
    }
    for field in &file.extensions {
        let no_parent = Message::default();
        check_field_options(file, &no_parent, field, true, &mut errors);
    }
    for message in file.all_messages() {
        for field in message.fields.iter().chain(&message.extensions) {
            let options = &field.options;
            errors.extend(features::feature_support_consistent(
                file,
                &field.full_name,
                options,
            ));
        }
    }
    for field in &file.extensions {
        let options = &field.options;
        errors.extend(features::feature_support_consistent(
            file,
            &field.full_name,
            options,
        ));
    }
    for enumeration in file.all_enums() {
        // A value without options has no `feature_support` to check: no name to format.
        let with_options = enumeration
            .values
            .iter()
            .filter(|v| !v.options.entries.is_empty());
        for value in with_options {
            let full_name = format!("{}.{}", enumeration.full_name, value.name);
            let options = &value.options;
            errors.extend(features::feature_support_consistent(
                file, &full_name, options,
            ));
        }
    }
    for field in file.all_extensions() {
        // Message-set extensions may go up to the int32 maximum.
        if !(1..=i64::from(i32::MAX)).contains(&field.number) {
            errors.push((
                field.number_span,
                format!(
                    "extension `{}`: number {} is out of range",
                    field.name, field.number
                ),
            ));
        }
    }
    errors.extend(extension_numbers::extension_numbers_once(file));
    errors.extend(naming_style::naming_style(file));
    for enumeration in file.all_enums() {
        check_enum(enumeration, &mut errors);
    }
    if file.syntax != Syntax::Proto3 {
        let fields = file.all_messages().into_iter().flat_map(|m| {
            let own = if m.is_map_entry {
                &[][..]
            } else {
                &m.fields[..]
            };
            own.iter().chain(&m.extensions)
        });
        for field in fields.chain(&file.extensions) {
            check_default_value(file, field, &mut errors);
        }
    }
    check_nesting_depth(&file.messages, 1, &mut errors);
    errors
}

fn check_number(number: i64, span: Span, name: &str, errors: &mut Vec<(Span, String)>) {
    if !(1..=FIELD_MAX).contains(&number) {
        errors.push((
            span,
            format!("field `{name}`: number {number} is out of range (1 to {FIELD_MAX})"),
        ));
    } else if IMPLEMENTATION_RESERVED.contains(&number) {
        errors.push((
            span,
            format!(
                "field `{name}`: numbers 19000 to 19999 are reserved for the protobuf implementation"
            ),
        ));
    }
}

fn check_message(message: &Message, errors: &mut Vec<(Span, String)>) {
    let mut numbers: FastMap<i64, &str> =
        FastMap::with_capacity_and_hasher(message.fields.len(), Default::default());
    let reserved = NumberSet::of(&message.reserved_ranges);
    let extensions = NumberSet::of(&message.extension_ranges);
    let reserved_names = names(&message.reserved_names);
    for field in &message.fields {
        check_number(field.number, field.number_span, &field.name, errors);
        if let Some(other) = numbers.insert(field.number, &field.name) {
            errors.push((
                field.number_span,
                format!(
                    "field `{}` of `{}` uses number {}, already used by field `{other}`",
                    field.name, message.full_name, field.number
                ),
            ));
        }
        // The set answers fast; the message names the first range that covers the number.
        let covering = || {
            message
                .reserved_ranges
                .iter()
                .find(|r| (r.start..=r.end).contains(&field.number))
        };
        if let Some(range) = reserved.contains(field.number).then(covering).flatten() {
            errors.push((
                field.number_span,
                format!(
                    "field `{}` uses number {}, which is reserved ({} to {})",
                    field.name, field.number, range.start, range.end
                ),
            ));
        }
        if extensions.contains(field.number) {
            errors.push((
                field.number_span,
                format!(
                    "field `{}` uses number {}, which is in an extension range",
                    field.name, field.number
                ),
            ));
        }
        if reserved_names.contains(field.name.as_str()) {
            errors.push((
                field.name_span,
                format!("field name `{}` is reserved", field.name),
            ));
        }
    }
}

fn check_enum(enumeration: &Enum, errors: &mut Vec<(Span, String)>) {
    if let Some(first) = enumeration.values.first() {
        if enumeration.features.enum_type.value == EnumType::Open && first.number != 0 {
            errors.push((
                first.number_span,
                format!(
                    "the first value of open enum `{}` must be zero",
                    enumeration.full_name
                ),
            ));
        }
    }
    check_enum_json_names(enumeration, errors);
    let allow_alias = enumeration.options.bool("allow_alias") == Some(true);
    errors.extend(alias_unused(enumeration, allow_alias));
    errors.extend(alias_false(enumeration));
    let mut numbers: FastMap<i64, &str> =
        FastMap::with_capacity_and_hasher(enumeration.values.len(), Default::default());
    let reserved = NumberSet::of(&enumeration.reserved_ranges);
    let reserved_names = names(&enumeration.reserved_names);
    for value in &enumeration.values {
        if let Some(other) = numbers.insert(value.number, &value.name) {
            if !allow_alias {
                errors.push((
                    value.number_span,
                    format!(
                        "enum value `{}` uses number {}, already used by `{other}` (set `option allow_alias = true;` to allow aliases)",
                        value.name, value.number
                    ),
                ));
            }
        }
        if reserved.contains(value.number) {
            errors.push((
                value.number_span,
                format!(
                    "enum value `{}` uses reserved number {}",
                    value.name, value.number
                ),
            ));
        }
        if reserved_names.contains(value.name.as_str()) {
            errors.push((
                value.name_span,
                format!("enum value name `{}` is reserved", value.name),
            ));
        }
    }
}

/// protoc: `"E" declares support for enum aliases but no enum values share field numbers.
/// Please remove the unnecessary 'option allow_alias = true;' declaration.`
fn alias_unused(enumeration: &Enum, allow_alias: bool) -> Option<(Span, String)> {
    if !allow_alias {
        return None;
    }
    let numbers: FastSet<i64> = enumeration.values.iter().map(|v| v.number).collect();
    if numbers.len() < enumeration.values.len() {
        return None;
    }
    let span = enumeration.options.get("allow_alias")?.span;
    Some((
        span,
        format!(
            "enum `{}` allows aliases but no two of its values share a number; remove `allow_alias`",
            enumeration.full_name
        ),
    ))
}

/// protoc's parser: `"E" declares 'option allow_alias = false;' which has no effect. Please
/// remove the declaration.` (buf accepts it).
fn alias_false(enumeration: &Enum) -> Option<(Span, String)> {
    let entry = enumeration.options.get("allow_alias")?;
    (entry.value.as_bool() == Some(false)).then(|| {
        (
            entry.span,
            format!(
                "enum `{}` sets `allow_alias = false`, which has no effect; remove it",
                enumeration.full_name
            ),
        )
    })
}

fn names(reserved: &[ReservedName]) -> FastSet<&str> {
    reserved.iter().map(|r| r.name.as_str()).collect()
}

fn check_all_options(file: &File, errors: &mut Vec<(Span, String)>) {
    let syntax = &file.syntax;
    check_options(&file.options, Target::File, syntax, errors);
    for message in file.all_messages() {
        check_options(&message.options, Target::Message, syntax, errors);
        errors.extend(extension_range_features(message, syntax));
        for field in message.fields.iter().chain(&message.extensions) {
            check_options(&field.options, Target::Field, syntax, errors);
        }
        for oneof in &message.oneofs {
            check_options(&oneof.options, Target::Oneof, syntax, errors);
        }
    }
    for field in &file.extensions {
        check_options(&field.options, Target::Field, syntax, errors);
    }
    for enumeration in file.all_enums() {
        check_options(&enumeration.options, Target::Enum, syntax, errors);
        for value in &enumeration.values {
            check_options(&value.options, Target::EnumValue, syntax, errors);
        }
    }
    for service in &file.services {
        check_options(&service.options, Target::Service, syntax, errors);
        for method in &service.methods {
            check_options(&method.options, Target::Method, syntax, errors);
        }
    }
}

/// protoc: `Features are only valid under editions.`, for the options of an `extensions`
/// statement too (buf checks only the other elements). One error per statement, though
/// each of its ranges carries the options.
fn extension_range_features(message: &Message, syntax: &Syntax) -> Vec<(Span, String)> {
    if matches!(syntax, Syntax::Editions(_)) {
        return Vec::new();
    }
    let mut seen = HashSet::new();
    let entries = message
        .extension_ranges
        .iter()
        .flat_map(|r| &r.options.entries);
    entries
        .filter(|e| e.name == "features" || e.name.starts_with("features."))
        .filter(|e| seen.insert(e.span))
        .map(|e| (e.span, "features are only valid under editions".to_string()))
        .collect()
}

fn is_packable(ty: FieldType) -> bool {
    !matches!(
        ty,
        FieldType::String | FieldType::Bytes | FieldType::Message | FieldType::Group
    )
}

/// Where options and features may be used on a field, as protocompile checks them.
fn check_field_options(
    file: &File,
    parent: &Message,
    field: &Field,
    is_extension: bool,
    errors: &mut Vec<(Span, String)>,
) {
    let editions = matches!(file.syntax, Syntax::Editions(_));
    let is_map = field.is_map(parent);
    let repeated = field.label == Label::Repeated && !is_map;
    let mut error = |span: Span, message: String| errors.push((span, message));
    let entries = entries_checked(&field.options, editions);
    let what = FieldNamed(&field.name);
    for entry in entries.iter() {
        match entry.name.as_str() {
            "packed" if !editions && entry.value.as_bool() == Some(true) => {
                if !repeated {
                    error(
                        entry.span,
                        format!("{what}: `packed` is only allowed on repeated fields"),
                    );
                } else if !is_packable(field.ty) {
                    error(
                        entry.span,
                        format!(
                            "{what}: `packed` is only allowed on numeric, bool and enum fields"
                        ),
                    );
                }
            }
            "lazy" | "unverified_lazy" if entry.value.as_bool() == Some(true) => {
                if let Some((span, message)) = lazy_on_submessage(field, entry) {
                    error(span, message);
                }
            }
            "jstype" => {
                let normal = matches!(&entry.value, OptionValue::Ident(v) if v == "JS_NORMAL");
                let is_64_bit = matches!(
                    field.ty,
                    FieldType::Int64
                        | FieldType::Uint64
                        | FieldType::Sint64
                        | FieldType::Fixed64
                        | FieldType::Sfixed64
                );
                if !normal && !is_64_bit {
                    error(
                        entry.span,
                        format!("{what}: only 64-bit integer fields can set a `jstype` other than JS_NORMAL"),
                    );
                }
            }
            // buf rejects any default in proto3, and (unlike protoc) none in editions.
            "default" if file.syntax == Syntax::Proto3 => error(
                entry.span,
                format!("{what}: default values are not allowed in proto3"),
            ),
            // protoc: `Implicit presence fields can't specify defaults.` (buf accepts it).
            "default" if editions && has_implicit_presence(field, is_extension) => error(
                field.name_span,
                format!("{what}: a field with implicit presence cannot have a default value"),
            ),
            "features.field_presence" if editions => {
                let problem = if field.oneof_index.is_some() {
                    Some("oneof fields may not specify field presence")
                } else if field.label == Label::Repeated {
                    Some("repeated fields may not specify field presence")
                } else if is_extension {
                    Some("extension fields may not specify field presence")
                } else if matches!(field.ty, FieldType::Message | FieldType::Group)
                    && matches!(&entry.value, OptionValue::Ident(v) if v == "IMPLICIT")
                {
                    Some("message fields may not specify implicit presence")
                } else {
                    None
                };
                if let Some(problem) = problem {
                    error(entry.span, format!("{what}: {problem}"));
                }
            }
            "features.repeated_field_encoding" if editions => {
                let packed = matches!(&entry.value, OptionValue::Ident(v) if v == "PACKED");
                // A map field is a repeated field to protoc (buf refuses the feature there);
                // it is not packable, its entries being messages.
                if field.label != Label::Repeated {
                    error(
                        entry.span,
                        format!("{what}: only repeated fields may specify repeated field encoding"),
                    );
                } else if packed && !is_packable(field.ty) {
                    error(
                        entry.span,
                        format!(
                            "{what}: only repeated primitive fields may specify packed encoding"
                        ),
                    );
                }
            }
            "features.utf8_validation" if editions => {
                let has_string = if is_map {
                    parent
                        .messages
                        .iter()
                        .find(|m| Some(m.full_name.as_str()) == field.type_name.as_deref())
                        .is_some_and(|entry| entry.fields.iter().any(|f| f.ty == FieldType::String))
                } else {
                    field.ty == FieldType::String
                };
                if !has_string {
                    error(
                        entry.span,
                        format!("{what}: only string fields may specify UTF-8 validation"),
                    );
                }
            }
            "features.message_encoding"
                if editions
                    && (!matches!(field.ty, FieldType::Message | FieldType::Group) || is_map) =>
            {
                error(
                    entry.span,
                    format!("{what}: only message fields may specify message encoding"),
                );
            }
            _ => {}
        }
    }
}

/// Whether a field has no presence though singular (protoc's `!is_repeated() &&
/// !has_presence()`): messages, extensions and oneof members always have presence.
fn has_implicit_presence(field: &Field, is_extension: bool) -> bool {
    field.label != Label::Repeated
        && !matches!(field.ty, FieldType::Message | FieldType::Group)
        && !is_extension
        && field.oneof_index.is_none()
        && field.features.field_presence.value == crate::model::FieldPresence::Implicit
}

/// protoc: `[lazy = true] can only be specified for submessage fields.` (a group, or a
/// message encoded DELIMITED, is not one; the same for `unverified_lazy`).
fn lazy_on_submessage(field: &Field, entry: &OptionEntry) -> Option<(Span, String)> {
    let submessage = field.ty == FieldType::Message
        && field.features.message_encoding.value != MessageEncoding::Delimited;
    (!submessage).then(|| {
        (
            entry.span,
            format!(
                "field `{}`: `{}` is only allowed on message fields",
                field.name, entry.name
            ),
        )
    })
}

/// JSON name conflicts between fields, as protoc checks them (`CheckFieldJsonNameUniqueness`):
/// once with the default names, once with the custom ones (a `json_name` that differs from
/// the default); a conflict is an error, except where it involves a default name in a
/// message that is not JSON-compliant (proto2, `json_format = LEGACY_BEST_EFFORT`): protoc
/// only warns there, and buf refuses. `deprecated_legacy_json_field_conflicts` turns the
/// check off. A custom name like `[foo]` looks like an extension and is refused.
fn check_json_names(message: &Message, errors: &mut Vec<(Span, String)>) {
    if message
        .options
        .bool("deprecated_legacy_json_field_conflicts")
        == Some(true)
    {
        return;
    }
    let compliant = message.features.json_format.value == JsonFormat::Allow;
    // A field without a `json_name` option has its default name in the model already.
    let defaults: Vec<Cow<str>> = message
        .fields
        .iter()
        .map(|field| match field.json_name_explicit {
            false => Cow::Borrowed(&*field.json_name),
            true => Cow::Owned(crate::model::default_json_name(&field.name)),
        })
        .collect();
    // The second pass only adds conflicts that involve a custom name: without one (most
    // messages) it finds nothing the first did not.
    let any_custom = message.fields.iter().any(|f| f.json_name_explicit);
    for use_custom in [false, true] {
        if use_custom && !any_custom {
            break;
        }
        let mut seen: FastMap<&str, (&str, bool)> =
            FastMap::with_capacity_and_hasher(message.fields.len(), Default::default());
        for (field, default) in message.fields.iter().zip(&defaults) {
            let custom = use_custom && field.json_name_explicit && *field.json_name != **default;
            let name: &str = if custom { &field.json_name } else { default };
            if custom && name.starts_with('[') && name.ends_with(']') {
                errors.push((field.name_span, json_name_like_extension(field)));
                continue;
            }
            match seen.get(name) {
                // Same field name twice: reported as a duplicate already.
                Some(&(other, _)) if other == field.name => {}
                // Between default names: reported by the first pass.
                Some(_) if use_custom && !custom && !seen[name].1 => {}
                Some(&(other, other_custom)) => {
                    let involves_default = !custom || !other_custom;
                    if compliant || !involves_default {
                        errors.push((
                            field.name_span,
                            format!(
                                "field `{}`: JSON name \"{name}\" conflicts with the JSON name of field `{other}`",
                                field.name
                            ),
                        ));
                    }
                }
                None => {
                    seen.insert(name, (&field.name, custom));
                }
            }
        }
    }
}

/// protoc: `The custom JSON name of field "f" ("[F]") is invalid: JSON names may not start
/// with '[' and end with ']'.`
fn json_name_like_extension(field: &Field) -> String {
    format!(
        "field `{}`: JSON name \"{}\" is invalid: a JSON name cannot start with `[` and end with `]` (that is how extensions are written)",
        field.name, field.json_name
    )
}

/// Enum values whose JSON-style names (enum name prefix removed, PascalCase) collide with a
/// value of another number: an error when the enum is JSON-compliant (buf only warns
/// otherwise).
fn check_enum_json_names(enumeration: &Enum, errors: &mut Vec<(Span, String)>) {
    if enumeration.features.json_format.value != JsonFormat::Allow {
        return;
    }
    let mut seen: FastMap<String, (&str, i64)> =
        FastMap::with_capacity_and_hasher(enumeration.values.len(), Default::default());
    for value in &enumeration.values {
        let name = pascal_case(trim_prefix(&value.name, &enumeration.name));
        match seen.get(&name) {
            Some(&(other, number)) if number != value.number => errors.push((
                value.name_span,
                format!(
                    "enum value `{}`: its JSON-style name \"{name}\" conflicts with enum value `{other}`",
                    value.name
                ),
            )),
            Some(_) => {}
            None => {
                seen.insert(name, (&value.name, value.number));
            }
        }
    }
}

/// `value` without a leading `prefix`, compared case-insensitively and ignoring underscores
/// (protoc's rule); unchanged when that would leave nothing or the prefix does not match.
fn trim_prefix<'a>(value: &'a str, prefix: &str) -> &'a str {
    let mut wanted = prefix.chars().filter(|&c| c != '_').peekable();
    for (i, c) in value.char_indices() {
        if c == '_' {
            continue;
        }
        match wanted.peek() {
            None => {
                let rest = value[i..].trim_start_matches('_');
                return if rest.is_empty() { value } else { rest };
            }
            Some(p) if p.eq_ignore_ascii_case(&c) => {
                wanted.next();
            }
            Some(_) => return value,
        }
    }
    value
}

/// Deepest message nesting buf accepts (its compiler refuses depth 32 and more; map entries
/// and groups count as messages).
const MAX_MESSAGE_DEPTH: usize = 31;

fn check_nesting_depth(messages: &[Message], depth: usize, errors: &mut Vec<(Span, String)>) {
    for message in messages {
        if depth > MAX_MESSAGE_DEPTH {
            errors.push((
                message.name_span,
                format!(
                    "message `{}` is nested {depth} levels deep; at most {MAX_MESSAGE_DEPTH} are allowed",
                    message.full_name
                ),
            ));
            // One error per too-deep branch is enough.
            continue;
        }
        check_nesting_depth(&message.messages, depth + 1, errors);
    }
}

/// A `default` must be a literal of the field's type and within its range, as buf's compiler
/// requires (protoc agrees): an integer in range for integer fields, a decimal or octal
/// number (not hexadecimal), `inf` or `nan` for floating-point fields, `true`/`false` for
/// bools, a string for string and bytes fields.
fn check_default_value(file: &File, field: &Field, errors: &mut Vec<(Span, String)>) {
    let Some(entry) = field.options.get("default") else {
        return;
    };
    let literal = file
        .text
        .get(entry.span.range())
        .and_then(|t| t.split_once('='))
        .map_or("", |(_, v)| v.trim());
    let ty = field.ty;
    // Placement first, then the type and range (`-1` on an unsigned field is out of range),
    // then what a value in range may still get wrong.
    let problem = default_placement(field).or_else(|| match (&entry.value, ty) {
        (OptionValue::Int(n), _) if integer_range(ty).is_some() => integer_range(ty)
            .filter(|range| !range.contains(n))
            .map(|_| {
                format!(
                    "default value {literal} is out of range for `{}`",
                    ty.name()
                )
            }),
        // An integer beyond 64 bits, read as a double (see the parser's `constant`).
        (OptionValue::Float(_), _)
            if integer_range(ty).is_some()
                && literal
                    .trim_start_matches(['-', '+'])
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
        {
            Some(format!(
                "default value {literal} is out of range for `{}`",
                ty.name()
            ))
        }
        (OptionValue::Int(_), FieldType::Float | FieldType::Double) => {
            let digits = literal.trim_start_matches(['-', '+']);
            (digits.starts_with("0x") || digits.starts_with("0X")).then(|| {
                format!(
                    "a hexadecimal literal cannot be the default of a `{}` field",
                    ty.name()
                )
            })
        }
        (OptionValue::Float(_), FieldType::Float | FieldType::Double) => None,
        // protoc's parser knows only the lower-case `inf` and `nan` (`Expected number.`).
        (OptionValue::Ident(v), FieldType::Float | FieldType::Double)
            if matches!(v.as_str(), "inf" | "nan") =>
        {
            None
        }
        (OptionValue::Ident(v), FieldType::Bool) if v == "true" || v == "false" => None,
        (OptionValue::String(_), FieldType::String | FieldType::Bytes) => None,
        (OptionValue::Ident(_), FieldType::Enum) => None,
        _ => Some(format!(
            "default value {literal} does not match the type of `{}` field `{}`",
            ty.name(),
            field.name
        )),
    });
    let problem = problem
        .or_else(|| default_sign(ty, literal))
        .or_else(|| default_enum_value(file, field, &entry.value));
    if let Some(problem) = problem {
        errors.push((entry.span, problem));
    }
}

/// protoc: `Repeated fields can't have default values.` (map fields are repeated too) and
/// `Messages can't have default values.`
fn default_placement(field: &Field) -> Option<String> {
    if field.label == Label::Repeated {
        Some(format!(
            "repeated field `{}` cannot have a default value",
            field.name
        ))
    } else if matches!(field.ty, FieldType::Message | FieldType::Group) {
        Some(format!(
            "message field `{}` cannot have a default value",
            field.name
        ))
    } else {
        None
    }
}

/// protoc's parser: `Expected integer for field default value.` for `+5` (`Expected number.`
/// for `+1.5`), and `Unsigned field can't have negative default value.` even for `-0`.
fn default_sign(ty: FieldType, literal: &str) -> Option<String> {
    if matches!(ty, FieldType::Float | FieldType::Double) && literal.starts_with('+') {
        return Some(format!(
            "default value {literal}: a floating-point default cannot have a `+` sign"
        ));
    }
    integer_range(ty)?;
    if literal.starts_with('+') {
        return Some(format!(
            "default value {literal}: an integer default cannot have a `+` sign"
        ));
    }
    let unsigned = matches!(
        ty,
        FieldType::Uint32 | FieldType::Fixed32 | FieldType::Uint64 | FieldType::Fixed64
    );
    (unsigned && literal.starts_with('-')).then(|| {
        format!("default value {literal}: an unsigned field cannot have a negative default")
    })
}

/// protoc: `Enum type "E" has no value named "C".` Checked when the enum is declared in the
/// same file (other files' enums are not at hand here).
fn default_enum_value(file: &File, field: &Field, value: &OptionValue) -> Option<String> {
    let (FieldType::Enum, OptionValue::Ident(name)) = (field.ty, value) else {
        return None;
    };
    let enum_name = field.type_name.as_deref()?;
    let enumeration = file
        .all_enums()
        .into_iter()
        .find(|e| e.full_name == enum_name)?;
    (!enumeration.values.iter().any(|v| &v.name == name))
        .then(|| format!("enum `{enum_name}` has no value named `{name}`"))
}

/// The values an integer field can hold; `None` for other types.
fn integer_range(ty: FieldType) -> Option<std::ops::RangeInclusive<i128>> {
    Some(match ty {
        FieldType::Int32 | FieldType::Sint32 | FieldType::Sfixed32 => {
            i128::from(i32::MIN)..=i128::from(i32::MAX)
        }
        FieldType::Uint32 | FieldType::Fixed32 => 0..=i128::from(u32::MAX),
        FieldType::Int64 | FieldType::Sint64 | FieldType::Sfixed64 => {
            i128::from(i64::MIN)..=i128::from(i64::MAX)
        }
        FieldType::Uint64 | FieldType::Fixed64 => 0..=i128::from(u64::MAX),
        _ => return None,
    })
}

#[cfg(test)]
mod builtin_option_tests;
#[cfg(test)]
mod custom_option_tests;
#[cfg(test)]
mod extension_declaration_tests;
#[cfg(test)]
mod replayed_option_tests;
#[cfg(test)]
mod tests;
