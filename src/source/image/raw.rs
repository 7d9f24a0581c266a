//! What prost-types drops from an image: each file's `edition` and each element's options
//! as their encoded bytes (with the features and the custom options, which prost-types has
//! no fields for). Decoded apart from the same bytes with messages that keep only those
//! fields, and keyed by descriptor path (as `SourceCodeInfo` paths: `[4, 0, 2, 1]` is field
//! 1 of message 0).

use prost::Message as _;

/// Which options message of descriptor.proto an element's options are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Message,
    Field,
    ExtensionRange,
    Oneof,
    Enum,
    EnumValue,
    Service,
    Method,
}

impl Kind {
    /// The options message's full name.
    pub fn message_name(self) -> &'static str {
        match self {
            Kind::File => "google.protobuf.FileOptions",
            Kind::Message => "google.protobuf.MessageOptions",
            Kind::Field => "google.protobuf.FieldOptions",
            Kind::ExtensionRange => "google.protobuf.ExtensionRangeOptions",
            Kind::Oneof => "google.protobuf.OneofOptions",
            Kind::Enum => "google.protobuf.EnumOptions",
            Kind::EnumValue => "google.protobuf.EnumValueOptions",
            Kind::Service => "google.protobuf.ServiceOptions",
            Kind::Method => "google.protobuf.MethodOptions",
        }
    }
}

/// The options of one element: where it is, which options message, and its bytes.
pub struct ElementOptions {
    pub path: Vec<i32>,
    pub kind: Kind,
    pub bytes: Vec<u8>,
}

/// One file of the image, reduced to its edition and its elements' options.
pub struct RawFile {
    pub name: String,
    /// `EDITION_2023` = 1000, ...; None for proto2 and proto3.
    pub edition: Option<i32>,
    pub options: Vec<ElementOptions>,
}

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
    #[prost(bytes = "vec", optional, tag = "8")]
    options: Option<Vec<u8>>,
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
    #[prost(message, repeated, tag = "5")]
    extension_range: Vec<ExtensionRange>,
    #[prost(message, repeated, tag = "6")]
    extension: Vec<Field>,
    #[prost(bytes = "vec", optional, tag = "7")]
    options: Option<Vec<u8>>,
    #[prost(message, repeated, tag = "8")]
    oneof_decl: Vec<Oneof>,
}

/// Field, oneof, enum value, method and extension range: only their options, whose
/// field number differs.
macro_rules! options_only {
    ($name:ident, $tag:literal) => {
        #[derive(Clone, PartialEq, prost::Message)]
        struct $name {
            #[prost(bytes = "vec", optional, tag = $tag)]
            options: Option<Vec<u8>>,
        }
    };
}

options_only!(Field, "8");
options_only!(ExtensionRange, "3");
options_only!(Oneof, "2");
options_only!(EnumValue, "3");
options_only!(Method, "4");

#[derive(Clone, PartialEq, prost::Message)]
struct Enum {
    #[prost(message, repeated, tag = "2")]
    value: Vec<EnumValue>,
    #[prost(bytes = "vec", optional, tag = "3")]
    options: Option<Vec<u8>>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Service {
    #[prost(message, repeated, tag = "2")]
    method: Vec<Method>,
    #[prost(bytes = "vec", optional, tag = "3")]
    options: Option<Vec<u8>>,
}

/// Each file's edition and the options of its elements, from the bytes of a binary image.
pub fn decode(bytes: &[u8]) -> Result<Vec<RawFile>, String> {
    let set = Set::decode(bytes).map_err(|e| e.to_string())?;
    Ok(set.file.into_iter().map(raw_file).collect())
}

fn raw_file(file: File) -> RawFile {
    let mut walk = Walk::default();
    walk.put(Vec::new(), Kind::File, file.options);
    for (i, m) in file.message_type.into_iter().enumerate() {
        walk.message(vec![4, index(i)], m);
    }
    for (i, e) in file.enum_type.into_iter().enumerate() {
        walk.enumeration(vec![5, index(i)], e);
    }
    for (i, s) in file.service.into_iter().enumerate() {
        let path = vec![6, index(i)];
        for (j, m) in s.method.into_iter().enumerate() {
            walk.put(child(&path, 2, j), Kind::Method, m.options);
        }
        walk.put(path, Kind::Service, s.options);
    }
    for (i, f) in file.extension.into_iter().enumerate() {
        walk.put(vec![7, index(i)], Kind::Field, f.options);
    }
    RawFile {
        name: file.name.unwrap_or_default(),
        edition: file.edition,
        options: walk.found,
    }
}

#[derive(Default)]
struct Walk {
    found: Vec<ElementOptions>,
}

impl Walk {
    fn put(&mut self, path: Vec<i32>, kind: Kind, options: Option<Vec<u8>>) {
        if let Some(bytes) = options.filter(|b| !b.is_empty()) {
            self.found.push(ElementOptions { path, kind, bytes });
        }
    }

    fn message(&mut self, path: Vec<i32>, m: Message) {
        for (i, f) in m.field.into_iter().enumerate() {
            self.put(child(&path, 2, i), Kind::Field, f.options);
        }
        for (i, n) in m.nested_type.into_iter().enumerate() {
            self.message(child(&path, 3, i), n);
        }
        for (i, e) in m.enum_type.into_iter().enumerate() {
            self.enumeration(child(&path, 4, i), e);
        }
        for (i, r) in m.extension_range.into_iter().enumerate() {
            self.put(child(&path, 5, i), Kind::ExtensionRange, r.options);
        }
        for (i, f) in m.extension.into_iter().enumerate() {
            self.put(child(&path, 6, i), Kind::Field, f.options);
        }
        for (i, o) in m.oneof_decl.into_iter().enumerate() {
            self.put(child(&path, 8, i), Kind::Oneof, o.options);
        }
        self.put(path, Kind::Message, m.options);
    }

    fn enumeration(&mut self, path: Vec<i32>, e: Enum) {
        for (i, v) in e.value.into_iter().enumerate() {
            self.put(child(&path, 2, i), Kind::EnumValue, v.options);
        }
        self.put(path, Kind::Enum, e.options);
    }
}

fn child(path: &[i32], tag: i32, i: usize) -> Vec<i32> {
    [path, &[tag, index(i)]].concat()
}

fn index(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}
