//! Rules on editions features beyond where each may be set (`check_options`): what a file
//! cannot default to, the legacy options editions replaced, and the lifetimes a feature's
//! definition must explain.

use crate::link::features::{simple_fields, top_level_keys};
use crate::model::{File, OptionEntry, OptionValue, Options, Span};

/// The options of an element with `features = { a: B }` written out as `features.a = B`,
/// each with the span of the whole literal, so that the feature rules see both spellings.
/// A literal that sets no plain feature (only language features) stays as it is.
pub(super) fn spelled_out(options: &Options) -> Vec<OptionEntry> {
    let mut entries = Vec::with_capacity(options.entries.len());
    for entry in &options.entries {
        let fields = match &entry.value {
            OptionValue::Aggregate(text) if entry.name == "features" => simple_fields(text),
            _ => Vec::new(),
        };
        if fields.is_empty() {
            entries.push(entry.clone());
        }
        entries.extend(fields.into_iter().map(|(key, value)| OptionEntry {
            name: format!("features.{key}"),
            value: OptionValue::Ident(value),
            span: entry.span,
            resolved: Default::default(),
        }));
    }
    entries
}

/// protoc: `Required presence can't be specified by default.` (a file's
/// `features.field_presence = LEGACY_REQUIRED`).
pub(super) fn no_required_by_default(entry: &OptionEntry) -> Option<(Span, String)> {
    let required =
        matches!(&entry.value, OptionValue::Ident(v) if v == "LEGACY_REQUIRED" || v == "3");
    (entry.name == "features.field_presence" && required).then(|| {
        (
            entry.span,
            "a file cannot make `LEGACY_REQUIRED` the default presence; set it on each field"
                .to_string(),
        )
    })
}

/// protoc: `File option java_string_check_utf8 is not allowed under editions. Use the
/// (pb.java).utf8_validation feature to control this behavior.`
pub(super) fn no_java_string_check_utf8(entry: &OptionEntry) -> Option<(Span, String)> {
    (entry.name == "java_string_check_utf8").then(|| {
        (
            entry.span,
            "option `java_string_check_utf8` is not allowed under editions: use the feature `features.(pb.java).utf8_validation`"
                .to_string(),
        )
    })
}

/// The `feature_support` of a field or enum value (protoc checks every one, not only those
/// of features) must be consistent and say why a lifetime ends: protoc's
/// `FeatureResolver::ValidateFeatureSupport`, whose first complaint is reported. protoc:
/// `foo.F.flag is deprecated but does not specify a deprecation warning.`, `... has been
/// removed but does not specify a removal error.` (not required when it is introduced and
/// removed in the same edition), `... specifies a deprecation warning but is not marked
/// deprecated in any edition.`, `... was deprecated before it was introduced.`, ...
pub(super) fn feature_support_consistent(
    file: &File,
    full_name: &str,
    options: &Options,
) -> Option<(Span, String)> {
    let keys = feature_support_keys(file, options);
    if keys.is_empty() {
        return None;
    }
    let find = |name: &str| keys.iter().find(|k| k.name == name);
    // An edition protoc does not know (or a value that is not one) is the option checker's.
    let edition = |name: &str| match find(name) {
        None => Some(None),
        Some(key) => key.value.as_deref().and_then(edition_number).map(Some),
    };
    let (introduced, deprecated, removed) = (
        edition("edition_introduced")?,
        edition("edition_deprecated")?,
        edition("edition_removed")?,
    );
    let error = |key: &str, problem: &str| {
        let span = find(key).map_or(keys[0].span, |k| k.span);
        Some((span, format!("`{full_name}`: {problem}")))
    };
    let introduced_value = introduced.unwrap_or(0);
    if let Some(deprecated) = deprecated {
        if deprecated < introduced_value {
            return error(
                "edition_deprecated",
                "it is deprecated before it is introduced",
            );
        }
        if find("deprecation_warning").is_none() {
            return error(
                "edition_deprecated",
                "`edition_deprecated` needs a `deprecation_warning`",
            );
        }
    } else if find("deprecation_warning").is_some() {
        return error(
            "deprecation_warning",
            "`deprecation_warning` is set but no `edition_deprecated`",
        );
    }
    match removed {
        Some(removed) => {
            if deprecated.unwrap_or(0) >= removed {
                return error("edition_removed", "it is deprecated after it is removed");
            }
            if removed < introduced_value {
                return error("edition_removed", "it is removed before it is introduced");
            }
            if introduced != Some(removed) && find("removal_error").is_none() {
                return error(
                    "edition_removed",
                    "`edition_removed` needs a `removal_error`",
                );
            }
        }
        None if find("removal_error").is_some() => {
            return error(
                "removal_error",
                "`removal_error` is set but no `edition_removed`",
            )
        }
        None => {}
    }
    None
}

/// A field of `feature_support` as written: its name, its value when it is an identifier,
/// and where the name is.
struct SupportKey {
    name: String,
    value: Option<String>,
    span: Span,
}

/// The fields `feature_support` sets, from `feature_support = { ... }` and from
/// `feature_support.x = ...` alike.
fn feature_support_keys(file: &File, options: &Options) -> Vec<SupportKey> {
    let mut keys = Vec::new();
    for entry in &options.entries {
        if let Some(name) = entry.name.strip_prefix("feature_support.") {
            let value = match &entry.value {
                OptionValue::Ident(v) => Some(v.clone()),
                _ => None,
            };
            keys.push(SupportKey {
                name: name.to_string(),
                value,
                span: entry.span,
            });
        } else if let (OptionValue::Aggregate(text), "feature_support") =
            (&entry.value, entry.name.as_str())
        {
            let values = simple_fields(text);
            let start = literal_start(file, entry.span);
            keys.extend(top_level_keys(text).into_iter().map(|(name, offset)| {
                let span = start.map_or(entry.span, |start| {
                    Span::new(start + offset, start + offset + name.len())
                });
                let value = values
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.clone());
                SupportKey { name, value, span }
            }));
        }
    }
    keys
}

/// The number of an `Edition` value (descriptor.proto), by name.
pub(super) fn edition_number(name: &str) -> Option<i64> {
    Some(match name {
        "EDITION_UNKNOWN" => 0,
        "EDITION_LEGACY" => 900,
        "EDITION_PROTO2" => 998,
        "EDITION_PROTO3" => 999,
        "EDITION_2023" => 1000,
        "EDITION_2024" => 1001,
        "EDITION_2026" => 1002,
        "EDITION_UNSTABLE" => 9999,
        "EDITION_1_TEST_ONLY" => 1,
        "EDITION_2_TEST_ONLY" => 2,
        "EDITION_99997_TEST_ONLY" => 99997,
        "EDITION_99998_TEST_ONLY" => 99998,
        "EDITION_99999_TEST_ONLY" => 99999,
        "EDITION_MAX" => 0x7FFF_FFFF,
        _ => return None,
    })
}

/// Where the `{` of an option's message literal is in the file: the first one in the
/// option's span (its name has none).
fn literal_start(file: &File, span: Span) -> Option<usize> {
    let written = file.text.get(span.range())?;
    written.find('{').map(|at| span.start as usize + at)
}
