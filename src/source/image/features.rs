//! Editions in an image: prost-types has no `edition` field and no `FeatureSet`, so they are
//! decoded apart from the same bytes, with messages that keep only those fields, and keyed
//! by descriptor path (as `SourceCodeInfo` paths: `[4, 0, 2, 1]` is field 1 of message 0)
//! for the decompiler to write back as `edition = "2023";` and `features.*` options.

use std::collections::HashMap;

use prost::Message as _;

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
options!(OneofOptions, "1");
options!(EnumOptions, "7");
options!(EnumValueOptions, "2");
options!(ServiceOptions, "34");
options!(MethodOptions, "35");

#[derive(Clone, PartialEq, prost::Message)]
struct Set {
    #[prost(message, repeated, tag = "1")]
    file: Vec<File>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct File {
    #[prost(string, optional, tag = "1")]
    name: Option<String>,
    #[prost(message, repeated, tag = "4")]
    message_type: Vec<Message>,
    #[prost(message, repeated, tag = "5")]
    enum_type: Vec<Enum>,
    #[prost(message, repeated, tag = "6")]
    service: Vec<Service>,
    #[prost(message, repeated, tag = "7")]
    extension: Vec<Field>,
    #[prost(message, optional, tag = "8")]
    options: Option<FileOptions>,
    #[prost(int32, optional, tag = "14")]
    edition: Option<i32>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Message {
    #[prost(message, repeated, tag = "2")]
    field: Vec<Field>,
    #[prost(message, repeated, tag = "3")]
    nested_type: Vec<Message>,
    #[prost(message, repeated, tag = "4")]
    enum_type: Vec<Enum>,
    #[prost(message, repeated, tag = "6")]
    extension: Vec<Field>,
    #[prost(message, optional, tag = "7")]
    options: Option<MessageOptions>,
    #[prost(message, repeated, tag = "8")]
    oneof_decl: Vec<Oneof>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Field {
    #[prost(message, optional, tag = "8")]
    options: Option<FieldOptions>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Oneof {
    #[prost(message, optional, tag = "2")]
    options: Option<OneofOptions>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Enum {
    #[prost(message, repeated, tag = "2")]
    value: Vec<EnumValue>,
    #[prost(message, optional, tag = "3")]
    options: Option<EnumOptions>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct EnumValue {
    #[prost(message, optional, tag = "3")]
    options: Option<EnumValueOptions>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Service {
    #[prost(message, repeated, tag = "2")]
    method: Vec<Method>,
    #[prost(message, optional, tag = "3")]
    options: Option<ServiceOptions>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Method {
    #[prost(message, optional, tag = "4")]
    options: Option<MethodOptions>,
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

/// Each file's editions data, by file name, from the bytes of a binary image.
pub fn decode(bytes: &[u8]) -> Result<HashMap<String, Editions>, String> {
    let set = Set::decode(bytes).map_err(|e| e.to_string())?;
    let mut files = HashMap::new();
    for file in set.file {
        let name = file.name.clone().unwrap_or_default();
        files.insert(name, editions_of(&file)?);
    }
    Ok(files)
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

fn editions_of(file: &File) -> Result<Editions, String> {
    let mut out = Editions {
        edition: file.edition.map(edition_name).transpose()?,
        features: HashMap::new(),
    };
    let mut put = |path: Vec<i32>, features: Option<&FeatureSet>| {
        if let Some(f) = features {
            out.features.insert(path, f.clone());
        }
    };
    put(
        Vec::new(),
        file.options.as_ref().and_then(|o| o.features.as_ref()),
    );
    let mut walk = Walk { put: &mut put };
    for (i, m) in file.message_type.iter().enumerate() {
        walk.message(vec![4, index(i)], m);
    }
    for (i, e) in file.enum_type.iter().enumerate() {
        walk.enumeration(vec![5, index(i)], e);
    }
    for (i, s) in file.service.iter().enumerate() {
        let path = vec![6, index(i)];
        for (j, m) in s.method.iter().enumerate() {
            (walk.put)(
                [&path[..], &[2, index(j)]].concat(),
                m.options.as_ref().and_then(|o| o.features.as_ref()),
            );
        }
        (walk.put)(path, s.options.as_ref().and_then(|o| o.features.as_ref()));
    }
    for (i, f) in file.extension.iter().enumerate() {
        walk.field(vec![7, index(i)], f);
    }
    Ok(out)
}

struct Walk<'a, F: FnMut(Vec<i32>, Option<&FeatureSet>)> {
    put: &'a mut F,
}

impl<F: FnMut(Vec<i32>, Option<&FeatureSet>)> Walk<'_, F> {
    fn message(&mut self, path: Vec<i32>, m: &Message) {
        let child = |tag: i32, i: usize| [&path[..], &[tag, index(i)]].concat();
        for (i, f) in m.field.iter().enumerate() {
            self.field(child(2, i), f);
        }
        for (i, n) in m.nested_type.iter().enumerate() {
            self.message(child(3, i), n);
        }
        for (i, e) in m.enum_type.iter().enumerate() {
            self.enumeration(child(4, i), e);
        }
        for (i, f) in m.extension.iter().enumerate() {
            self.field(child(6, i), f);
        }
        for (i, o) in m.oneof_decl.iter().enumerate() {
            (self.put)(
                child(8, i),
                o.options.as_ref().and_then(|o| o.features.as_ref()),
            );
        }
        (self.put)(path, m.options.as_ref().and_then(|o| o.features.as_ref()));
    }

    fn field(&mut self, path: Vec<i32>, f: &Field) {
        (self.put)(path, f.options.as_ref().and_then(|o| o.features.as_ref()));
    }

    fn enumeration(&mut self, path: Vec<i32>, e: &Enum) {
        for (i, v) in e.value.iter().enumerate() {
            (self.put)(
                [&path[..], &[2, index(i)]].concat(),
                v.options.as_ref().and_then(|o| o.features.as_ref()),
            );
        }
        (self.put)(path, e.options.as_ref().and_then(|o| o.features.as_ref()));
    }
}

fn index(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}
