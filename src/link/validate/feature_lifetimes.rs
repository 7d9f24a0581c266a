//! The lifetimes of the features an element sets, as their definitions declare them
//! (`feature_support` of the feature field, and of the enum value it is set to): protoc's
//! `FeatureResolver` refuses a feature (or value) used before the edition that introduced it,
//! or from the edition that removed it. Deprecation is only a warning there; not reported.

use super::features::edition_number;
use super::message_literals::SetField;
use crate::model::{OptionValue, Options, Span};
use crate::parse::literal::parse_literal;
use crate::syntax::literal::{LiteralName, LiteralValue};

type Errors = Vec<(Span, String)>;

/// protoc: `p.MyFeatures.later wasn't introduced until edition 2024 and can't be used in
/// edition 2023` and `p.OLD has been removed in edition 2024: <removal_error>` (for a
/// feature and for an enum value alike).
pub(super) fn check<'a>(set: impl Iterator<Item = SetField<'a>>, edition: &str) -> Errors {
    let Some(current) = edition_number(&format!("EDITION_{edition}")) else {
        return Vec::new();
    };
    let mut errors = Vec::new();
    for set_field in set {
        let (what, full_name, options) = match set_field.enum_value {
            Some(value) => ("feature value", &value.full_name, &value.options),
            None if is_standard(&set_field.field.full_name) => continue,
            None => (
                "feature",
                &set_field.field.full_name,
                &set_field.field.options,
            ),
        };
        let support = Support::of(options);
        let problem = match (support.introduced, support.removed) {
            (Some((introduced, name)), _) if introduced > current => format!(
                "{what} `{full_name}` was introduced in edition {} and cannot be used in edition {edition}",
                edition_words(&name)
            ),
            (_, Some((removed, name))) if removed <= current => format!(
                "{what} `{full_name}` was removed in edition {}: {}",
                edition_words(&name),
                support.removal_error
            ),
            _ => continue,
        };
        errors.push((set_field.span, problem));
    }
    errors
}

/// A feature of descriptor.proto's own `FeatureSet` that `check_options` knows: its
/// edition is checked there.
fn is_standard(full_name: &str) -> bool {
    full_name
        .strip_prefix("google.protobuf.FeatureSet.")
        .is_some_and(|name| super::feature_spec(name).is_some())
}

/// `EDITION_2024` as `2024`.
fn edition_words(name: &str) -> &str {
    name.strip_prefix("EDITION_").unwrap_or(name)
}

/// What a definition's `feature_support` says: each edition by number and name.
#[derive(Default)]
struct Support {
    introduced: Option<(i64, String)>,
    removed: Option<(i64, String)>,
    removal_error: String,
}

impl Support {
    /// From `feature_support.x = ...` and `feature_support = { ... }` alike.
    fn of(options: &Options) -> Support {
        let mut support = Support::default();
        for entry in &options.entries {
            if let Some(key) = entry.name.strip_prefix("feature_support.") {
                support.read(key, &entry.value);
            } else if let ("feature_support", OptionValue::Aggregate(text)) =
                (entry.name.as_str(), &entry.value)
            {
                let Ok(literal) = parse_literal(text, 0) else {
                    continue; // reported with the option's value
                };
                for field in &literal.fields {
                    if let (LiteralName::Field(key), LiteralValue::Scalar(value, _)) =
                        (&field.name, &field.value)
                    {
                        support.read(key, value);
                    }
                }
            }
        }
        support
    }

    fn read(&mut self, key: &str, value: &OptionValue) {
        let edition = || match value {
            OptionValue::Ident(name) => edition_number(name).map(|n| (n, name.clone())),
            _ => None,
        };
        match key {
            "edition_introduced" => self.introduced = edition(),
            "edition_removed" => self.removed = edition(),
            "removal_error" => {
                if let Some(text) = value.as_str() {
                    self.removal_error = text.into_owned();
                }
            }
            _ => {}
        }
    }
}
