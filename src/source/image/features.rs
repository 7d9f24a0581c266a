//! Editions in an image: prost-types has no `edition` field and no `FeatureSet`, so they are
//! read from each element's encoded options ([`super::raw`]), keyed by descriptor path, for
//! the decompiler to write back as `edition = "2023";` and `features.*` options.

use std::collections::HashMap;

use prost::Message as _;

use super::raw::{Kind, RawFile};

/// `google.protobuf.FeatureSet`, the features of descriptor.proto (values as numbers).
#[derive(Clone, PartialEq, prost::Message)]
pub struct FeatureSet {
    #[prost(int32, optional, tag = "1")]
    field_presence: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    enum_type: Option<i32>,
    #[prost(int32, optional, tag = "3")]
    repeated_field_encoding: Option<i32>,
    #[prost(int32, optional, tag = "4")]
    utf8_validation: Option<i32>,
    #[prost(int32, optional, tag = "5")]
    message_encoding: Option<i32>,
    #[prost(int32, optional, tag = "6")]
    json_format: Option<i32>,
    #[prost(int32, optional, tag = "7")]
    enforce_naming_style: Option<i32>,
    #[prost(int32, optional, tag = "8")]
    default_symbol_visibility: Option<i32>,
}

impl FeatureSet {
    /// Each feature set, as `features.NAME = VALUE`, in descriptor.proto's order.
    pub fn options(&self) -> Result<Vec<String>, String> {
        let features: [(&str, Option<i32>, &[&str]); 8] = [
            (
                "field_presence",
                self.field_presence,
                &["EXPLICIT", "IMPLICIT", "LEGACY_REQUIRED"],
            ),
            ("enum_type", self.enum_type, &["OPEN", "CLOSED"]),
            (
                "repeated_field_encoding",
                self.repeated_field_encoding,
                &["PACKED", "EXPANDED"],
            ),
            // 1 was a value that no longer exists.
            (
                "utf8_validation",
                self.utf8_validation,
                &["", "VERIFY", "NONE"],
            ),
            (
                "message_encoding",
                self.message_encoding,
                &["LENGTH_PREFIXED", "DELIMITED"],
            ),
            (
                "json_format",
                self.json_format,
                &["ALLOW", "LEGACY_BEST_EFFORT"],
            ),
            (
                "enforce_naming_style",
                self.enforce_naming_style,
                &["STYLE2024", "STYLE_LEGACY"],
            ),
            (
                "default_symbol_visibility",
                self.default_symbol_visibility,
                &["EXPORT_ALL", "EXPORT_TOP_LEVEL", "LOCAL_ALL", "STRICT"],
            ),
        ];
        let mut out = Vec::new();
        for (name, value, names) in features {
            let Some(value) = value else { continue };
            let known = usize::try_from(value - 1).ok().and_then(|i| names.get(i));
            match known {
                Some(v) if !v.is_empty() => out.push(format!("features.{name} = {v}")),
                _ => {
                    return Err(format!(
                        "feature `{name}` has a value unknown here ({value})"
                    ))
                }
            }
        }
        Ok(out)
    }

    /// Whether the field is delimited (a group's encoding, written as a message field).
    pub fn is_delimited(&self) -> bool {
        self.message_encoding == Some(2)
    }
}

/// An options message of descriptor.proto, reduced to its `features` field (whose number
/// differs from one options message to the next).
macro_rules! options {
    ($name:ident, $tag:literal) => {
        #[derive(Clone, PartialEq, prost::Message)]
        struct $name {
            #[prost(message, optional, tag = $tag)]
            features: Option<FeatureSet>,
        }
    };
}

options!(FileOptions, "50");
options!(MessageOptions, "12");
options!(FieldOptions, "21");
options!(ExtensionRangeOptions, "50");
options!(OneofOptions, "1");
options!(EnumOptions, "7");
options!(EnumValueOptions, "2");
options!(ServiceOptions, "34");
options!(MethodOptions, "35");

/// The features set in the encoded options of an element of `kind`.
fn features_of(kind: Kind, bytes: &[u8]) -> Result<Option<FeatureSet>, prost::DecodeError> {
    Ok(match kind {
        Kind::File => FileOptions::decode(bytes)?.features,
        Kind::Message => MessageOptions::decode(bytes)?.features,
        Kind::Field => FieldOptions::decode(bytes)?.features,
        Kind::ExtensionRange => ExtensionRangeOptions::decode(bytes)?.features,
        Kind::Oneof => OneofOptions::decode(bytes)?.features,
        Kind::Enum => EnumOptions::decode(bytes)?.features,
        Kind::EnumValue => EnumValueOptions::decode(bytes)?.features,
        Kind::Service => ServiceOptions::decode(bytes)?.features,
        Kind::Method => MethodOptions::decode(bytes)?.features,
    })
}

/// One file's edition and features.
#[derive(Default)]
pub struct Editions {
    /// `2023`, `2024`; None for a proto2 or proto3 file.
    pub edition: Option<String>,
    /// The features set on each element, by descriptor path (`[]` for the file).
    pub features: HashMap<Vec<i32>, FeatureSet>,
}

impl Editions {
    /// The features set on the element at `path`, if any.
    pub fn at(&self, path: &[i32]) -> Option<&FeatureSet> {
        self.features.get(path)
    }
}

/// One file's edition and the features of its elements.
pub fn of(file: &RawFile) -> Result<Editions, String> {
    let mut out = Editions {
        edition: file.edition.map(edition_name).transpose()?,
        features: HashMap::new(),
    };
    for element in &file.options {
        let features = features_of(element.kind, &element.bytes).map_err(|e| e.to_string())?;
        if let Some(features) = features {
            out.features.insert(element.path.clone(), features);
        }
    }
    Ok(out)
}

/// `EDITION_2023` (1000) and `EDITION_2024` (1001) as a `.proto` file names them.
fn edition_name(value: i32) -> Result<String, String> {
    match value {
        1000 => Ok("2023".into()),
        1001 => Ok("2024".into()),
        other => Err(format!(
            "edition {other} is not supported (protocompat reads editions 2023 and 2024)"
        )),
    }
}
