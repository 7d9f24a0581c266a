//! Effective editions features: defaults per syntax/edition, inheritance file -> message ->
//! field (and enum), overrides from `features.*` options, and the legacy proto2/proto3
//! equivalents (`packed`, `required`, groups, `ctype`, `java_string_check_utf8`).

use crate::model::{
    CppStringType, EnumType, Feature, Features, FieldPresence, FieldType, JavaUtf8Validation,
    JsonFormat, Label, MessageEncoding, OptionEntry, OptionValue, Options, RepeatedFieldEncoding,
    Span, Syntax, Utf8Validation,
};

/// The features of a file scope before any option: editions defaults (descriptor.proto's
/// `edition_defaults`) or the legacy semantics of proto2/proto3.
pub fn syntax_defaults(syntax: &Syntax) -> Features {
    let plain = |v| Feature {
        value: v,
        span: None,
    };
    match syntax {
        Syntax::Proto2 => Features {
            field_presence: plain(FieldPresence::Explicit),
            enum_type: Feature {
                value: EnumType::Closed,
                span: None,
            },
            repeated_field_encoding: Feature {
                value: RepeatedFieldEncoding::Expanded,
                span: None,
            },
            utf8_validation: Feature {
                value: Utf8Validation::None,
                span: None,
            },
            message_encoding: Feature::default(),
            json_format: Feature {
                value: JsonFormat::LegacyBestEffort,
                span: None,
            },
            cpp_string_type: Feature::default(),
            java_utf8_validation: Feature::default(),
        },
        Syntax::Proto3 => Features {
            field_presence: plain(FieldPresence::Implicit),
            ..Features::default()
        },
        Syntax::Editions(edition) => Features {
            field_presence: plain(FieldPresence::Explicit),
            cpp_string_type: Feature {
                value: if edition.as_str() >= "2024" {
                    CppStringType::View
                } else {
                    CppStringType::String
                },
                span: None,
            },
            ..Features::default()
        },
    }
}

/// The same values with every span cleared: what a child scope inherits.
pub fn inherited(parent: &Features) -> Features {
    fn clear<T: Copy>(f: &Feature<T>) -> Feature<T> {
        Feature {
            value: f.value,
            span: None,
        }
    }
    Features {
        field_presence: clear(&parent.field_presence),
        enum_type: clear(&parent.enum_type),
        repeated_field_encoding: clear(&parent.repeated_field_encoding),
        utf8_validation: clear(&parent.utf8_validation),
        message_encoding: clear(&parent.message_encoding),
        json_format: clear(&parent.json_format),
        cpp_string_type: clear(&parent.cpp_string_type),
        java_utf8_validation: clear(&parent.java_utf8_validation),
    }
}

/// Applies the `features.*` options written on one element, in order (the last one wins).
pub fn apply_options(features: &mut Features, options: &[OptionEntry]) {
    for entry in options {
        match &entry.value {
            OptionValue::Ident(value) => apply_one(features, &entry.name, value, entry.span),
            // `option features = { field_presence: IMPLICIT };`
            OptionValue::Aggregate(text) if entry.name == "features" => {
                for (key, value) in simple_fields(text) {
                    apply_one(features, &format!("features.{key}"), &value, entry.span);
                }
            }
            _ => {}
        }
    }
}

/// The features a message literal sets, `name: VALUE` at its top level and `[ext] { name:
/// VALUE }` one level down (as `(ext).name`), each value as its identifier or its enum
/// number (`enum_type: 1` is `OPEN`; `apply_one` reads both). A literal that does not
/// parse sets nothing here (its error is reported with the option's value).
pub(super) fn simple_fields(text: &str) -> Vec<(String, String)> {
    use crate::syntax::literal::{LiteralName, LiteralValue, MessageLiteral};
    fn scalars(literal: &MessageLiteral, prefix: &str, pairs: &mut Vec<(String, String)>) {
        for field in &literal.fields {
            match (&field.name, &field.value) {
                (LiteralName::Field(name), LiteralValue::Scalar(value, _)) => {
                    let value = match value {
                        OptionValue::Ident(v) => v.clone(),
                        OptionValue::Int(n) => n.to_string(),
                        _ => continue,
                    };
                    pairs.push((format!("{prefix}{name}"), value));
                }
                (LiteralName::Extension(ext), LiteralValue::Message(inner))
                    if prefix.is_empty() =>
                {
                    scalars(inner, &format!("({ext})."), pairs);
                }
                _ => {}
            }
        }
    }
    let mut pairs = Vec::new();
    if let Ok(literal) = crate::parse::literal::parse_literal(text, 0) {
        scalars(&literal, "", &mut pairs);
    }
    pairs
}

/// The field names set at the top level of a message literal, each with its offset in
/// `text` (whatever their values: scalars, strings, nested literals).
pub(super) fn top_level_keys(text: &str) -> Vec<(String, usize)> {
    use crate::parse::lexer::{lex, TokenKind};
    let tokens = lex(text).tokens;
    let sets_a_value = |i: usize| matches!(tokens.get(i), Some(t) if matches!(t.kind, TokenKind::Symbol(':' | '{' | '<')));
    let mut keys = Vec::new();
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate() {
        match token.kind {
            TokenKind::Symbol('{' | '[' | '<') => depth += 1,
            TokenKind::Symbol('}' | ']' | '>') => depth = depth.saturating_sub(1),
            TokenKind::Ident if depth == 1 && sets_a_value(i + 1) => {
                keys.push((
                    text[token.span.range()].to_string(),
                    token.span.start as usize,
                ));
            }
            _ => {}
        }
    }
    keys
}

/// Applies one `features.<name> = VALUE` setting: a value name, or (from a message
/// literal) its number in descriptor.proto, cpp_features.proto or java_features.proto.
fn apply_one(features: &mut Features, name: &str, value: &str, span: Span) {
    {
        let span = Some(span);
        match name {
            "features.field_presence" => set(&mut features.field_presence, span, value, |v| {
                Some(match v {
                    "EXPLICIT" | "1" => FieldPresence::Explicit,
                    "IMPLICIT" | "2" => FieldPresence::Implicit,
                    "LEGACY_REQUIRED" | "3" => FieldPresence::LegacyRequired,
                    _ => return None,
                })
            }),
            "features.enum_type" => set(&mut features.enum_type, span, value, |v| {
                Some(match v {
                    "OPEN" | "1" => EnumType::Open,
                    "CLOSED" | "2" => EnumType::Closed,
                    _ => return None,
                })
            }),
            "features.repeated_field_encoding" => {
                set(&mut features.repeated_field_encoding, span, value, |v| {
                    Some(match v {
                        "PACKED" | "1" => RepeatedFieldEncoding::Packed,
                        "EXPANDED" | "2" => RepeatedFieldEncoding::Expanded,
                        _ => return None,
                    })
                })
            }
            "features.utf8_validation" => set(&mut features.utf8_validation, span, value, |v| {
                Some(match v {
                    "VERIFY" | "2" => Utf8Validation::Verify,
                    "NONE" | "3" => Utf8Validation::None,
                    _ => return None,
                })
            }),
            "features.message_encoding" => set(&mut features.message_encoding, span, value, |v| {
                Some(match v {
                    "LENGTH_PREFIXED" | "1" => MessageEncoding::LengthPrefixed,
                    "DELIMITED" | "2" => MessageEncoding::Delimited,
                    _ => return None,
                })
            }),
            "features.json_format" => set(&mut features.json_format, span, value, |v| {
                Some(match v {
                    "ALLOW" | "1" => JsonFormat::Allow,
                    "LEGACY_BEST_EFFORT" | "2" => JsonFormat::LegacyBestEffort,
                    _ => return None,
                })
            }),
            "features.(pb.cpp).string_type" => {
                set(&mut features.cpp_string_type, span, value, |v| {
                    Some(match v {
                        "STRING" | "3" => CppStringType::String,
                        "CORD" | "2" => CppStringType::Cord,
                        "VIEW" | "1" => CppStringType::View,
                        _ => return None,
                    })
                })
            }
            "features.(pb.java).utf8_validation" => {
                set(&mut features.java_utf8_validation, span, value, |v| {
                    Some(match v {
                        "DEFAULT" | "1" => JavaUtf8Validation::Default,
                        "VERIFY" | "2" => JavaUtf8Validation::Verify,
                        _ => return None,
                    })
                })
            }
            _ => {}
        }
    }
}

fn set<T>(
    feature: &mut Feature<T>,
    span: Option<Span>,
    value: &str,
    parse: impl Fn(&str) -> Option<T>,
) {
    if let Some(v) = parse(value) {
        feature.value = v;
        feature.span = span;
    }
}

/// Features at message scope: inherited, then proto2/proto3's
/// `deprecated_legacy_json_field_conflicts`, then the message's own `features.*` options.
pub(super) fn message_features(syntax: &Syntax, parent: &Features, options: &Options) -> Features {
    let mut features = inherited(parent);
    if !matches!(syntax, Syntax::Editions(_))
        && options.bool("deprecated_legacy_json_field_conflicts") == Some(true)
    {
        features.json_format.value = JsonFormat::LegacyBestEffort;
    }
    apply_options(&mut features, &options.entries);
    features
}

/// What the legacy (proto2/proto3) feature equivalents of a field depend on.
#[derive(Clone, Copy)]
pub(super) struct LegacyPresence {
    pub label: Label,
    pub ty: FieldType,
    pub in_oneof: bool,
    pub proto3_optional: bool,
    pub is_group: bool,
}

/// Features at field scope: inherited, then legacy proto2/proto3 semantics, then the
/// field's own `features.*` options.
pub(super) fn field_features(
    syntax: &Syntax,
    parent: &Features,
    file_options: &Options,
    options: &Options,
    field: LegacyPresence,
) -> Features {
    let mut features = inherited(parent);
    match syntax {
        Syntax::Proto2 => {
            if field.label == Label::Required {
                features.field_presence.value = FieldPresence::LegacyRequired;
            }
            if let Some(entry) = options.get("packed") {
                if entry.value.as_bool() == Some(true) {
                    features.repeated_field_encoding = Feature {
                        value: RepeatedFieldEncoding::Packed,
                        span: Some(entry.span),
                    };
                }
            }
            if field.is_group {
                features.message_encoding.value = MessageEncoding::Delimited;
            }
        }
        Syntax::Proto3 => {
            let explicit =
                field.proto3_optional || field.ty == FieldType::Message || field.in_oneof;
            if explicit {
                features.field_presence.value = FieldPresence::Explicit;
            }
            if let Some(entry) = options.get("packed") {
                if entry.value.as_bool() == Some(false) {
                    features.repeated_field_encoding = Feature {
                        value: RepeatedFieldEncoding::Expanded,
                        span: Some(entry.span),
                    };
                }
            }
        }
        Syntax::Editions(_) => apply_options(&mut features, &options.entries),
    }
    cpp_string_type(syntax, &mut features, options);
    java_utf8_validation(syntax, &mut features, file_options);
    features
}

/// buf's rule: before edition 2024 the legacy `ctype` option wins when set (CORD -> Cord,
/// STRING / STRING_PIECE -> String); otherwise the `(pb.cpp).string_type` feature.
fn cpp_string_type(syntax: &Syntax, features: &mut Features, options: &Options) {
    let before_2024 = match syntax {
        Syntax::Editions(e) => e.as_str() < "2024",
        _ => true,
    };
    if !before_2024 {
        return;
    }
    let ctype = match options.value("ctype") {
        Some(OptionValue::Ident(v)) => v.as_str(),
        _ => return,
    };
    let value = match ctype {
        "CORD" => CppStringType::Cord,
        "STRING" | "STRING_PIECE" => CppStringType::String,
        _ => return,
    };
    features.cpp_string_type = Feature { value, span: None };
}

/// buf's rule: outside editions, or when the file sets `java_string_check_utf8`, that
/// option decides (true -> Verify, else Default); otherwise the `(pb.java)` feature.
fn java_utf8_validation(syntax: &Syntax, features: &mut Features, file_options: &Options) {
    let legacy = file_options.get("java_string_check_utf8");
    if !matches!(syntax, Syntax::Editions(_)) || legacy.is_some() {
        let verify = legacy.and_then(|e| e.value.as_bool()) == Some(true);
        features.java_utf8_validation = Feature {
            value: if verify {
                JavaUtf8Validation::Verify
            } else {
                JavaUtf8Validation::Default
            },
            span: None,
        };
    }
}
