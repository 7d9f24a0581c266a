//! Custom options in an image: the extensions of descriptor.proto's options messages that
//! the image's own files define. prost-types drops them as unknown fields, so each element's
//! encoded options ([`super::raw`]) are decoded again with prost-reflect against a pool of
//! the image's files, and each extension set is written as `.proto` option text
//! (`(.acme.v1.audited) = true`, message values as `{ ... }` literals) for the decompiler.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use prost_reflect::{DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MapKey, Value};
use prost_types::FileDescriptorSet;

use super::raw::{ElementOptions, RawFile};

/// descriptor.proto as the bundled well-known types have it (with editions: `edition`,
/// `features`), built by protoc from `src/link/wkt/google/protobuf/descriptor.proto`.
/// prost-reflect's own copy predates editions.
const DESCRIPTOR_SET: &[u8] = include_bytes!("descriptor.binpb");

/// A pool holding descriptor.proto only.
pub fn descriptor_pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(DESCRIPTOR_SET).expect("the bundled descriptor.proto decodes")
    })
}

/// A pool of descriptor.proto and the image's files, where the options messages know the
/// image's extensions. prost-reflect reads no editions, and the pool is only asked for
/// types, so editions files enter it as proto2 (what they are on the wire).
pub fn image_pool(set: &FileDescriptorSet) -> Result<DescriptorPool, String> {
    let mut pool = descriptor_pool().clone();
    let files = set.file.iter().cloned().map(|mut file| {
        if file.syntax() == "editions" {
            file.syntax = Some("proto2".into());
        }
        file
    });
    // A file the pool has already (the image's own descriptor.proto) is skipped.
    pool.add_file_descriptor_protos(files)
        .map_err(|e| format!("its descriptors do not build a pool of types: {e}"))?;
    Ok(pool)
}

/// For each element with custom options, their field number and text (`(.name) = value`),
/// one entry per value set (a repeated option gives several).
pub type CustomOptions = HashMap<Vec<i32>, Vec<(i32, String)>>;

/// The custom options of each file of the image, by file name (as in the set).
pub fn read(
    set: &FileDescriptorSet,
    files: &[RawFile],
) -> Result<HashMap<String, CustomOptions>, String> {
    let standard = descriptor_pool();
    let unknown_to_standard = |e: &ElementOptions| {
        decode(standard, e)
            .map(|m| m.unknown_fields().next().is_some())
            .unwrap_or(true)
    };
    let with_extensions: Vec<(&RawFile, &ElementOptions)> = files
        .iter()
        .flat_map(|f| f.options.iter().map(move |e| (f, e)))
        .filter(|(_, e)| unknown_to_standard(e))
        .collect();
    let mut out: HashMap<String, CustomOptions> = HashMap::new();
    if with_extensions.is_empty() {
        return Ok(out);
    }
    let pool = image_pool(set).map_err(|e| format!("custom options cannot be read: {e}"))?;
    for (file, element) in with_extensions {
        let options = decode(&pool, element).map_err(|e| {
            format!(
                "{}: the options of the element at descriptor path {:?} do not decode: {e}",
                file.name, element.path
            )
        })?;
        if let Some(unknown) = options.unknown_fields().next() {
            return Err(format!(
                "{}: an option with field number {} of {} is set, but no file of the image \
                 defines it (build the image with its imports: `protoc --include_imports`)",
                file.name,
                unknown.number(),
                element.kind.message_name()
            ));
        }
        let texts = out
            .entry(file.name.clone())
            .or_default()
            .entry(element.path.clone())
            .or_default();
        for (extension, value) in options.extensions() {
            let name = format!("(.{})", extension.full_name());
            let (kind, number) = (extension.kind(), extension.number());
            let number = i32::try_from(number).unwrap_or(i32::MAX);
            let values = match value {
                Value::List(values) => values.as_slice(),
                v => std::slice::from_ref(v),
            };
            texts.extend(
                values
                    .iter()
                    .map(|v| (number, format!("{name} = {}", text(&kind, v)))),
            );
        }
    }
    Ok(out)
}

fn decode(pool: &DescriptorPool, element: &ElementOptions) -> Result<DynamicMessage, String> {
    let name = element.kind.message_name();
    let descriptor = pool
        .get_message_by_name(name)
        .ok_or_else(|| format!("{name} is not defined"))?;
    DynamicMessage::decode(descriptor, element.bytes.as_slice()).map_err(|e| e.to_string())
}

/// An option value as `.proto` text: a literal, an enum value's name, a `{ ... }` message.
fn text(kind: &Kind, value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::I32(n) => n.to_string(),
        Value::I64(n) => n.to_string(),
        Value::U32(n) => n.to_string(),
        Value::U64(n) => n.to_string(),
        Value::F32(x) => float(f64::from(*x), format!("{x:?}")),
        Value::F64(x) => float(*x, format!("{x:?}")),
        Value::String(s) => super::decompile::quote(s),
        Value::Bytes(b) => quote_bytes(b),
        Value::EnumNumber(n) => match kind {
            Kind::Enum(e) => e
                .get_value(*n)
                .map_or_else(|| n.to_string(), |v| v.name().to_string()),
            _ => n.to_string(),
        },
        Value::Message(m) => aggregate(m),
        // Lists and maps are fields of a message; `aggregate` writes them.
        Value::List(_) | Value::Map(_) => String::new(),
    }
}

/// A float as protobuf text: `inf`, `-inf`, `nan`, else Rust's shortest round-trip form
/// (`1.0`, `0.1`, `1e20`), which reads back as the same value.
fn float(x: f64, shortest: String) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        shortest
    }
}

/// A message value as a text-format literal: `{ name: value nested { ... } [ext]: value }`,
/// map entries in key order so that equal values read as equal text.
fn aggregate(message: &DynamicMessage) -> String {
    let mut out = String::from("{");
    for (field, value) in message.fields() {
        let name = field_name(&field);
        entries(&mut out, &name, &field.kind(), value);
    }
    for (extension, value) in message.extensions() {
        let name = format!("[{}]", extension.full_name());
        entries(&mut out, &name, &extension.kind(), value);
    }
    out.push_str(" }");
    out
}

/// A field's name in text format: a group is named by its message.
fn field_name(field: &FieldDescriptor) -> String {
    match (field.is_group(), field.kind()) {
        (true, Kind::Message(m)) => m.name().to_string(),
        _ => field.name().to_string(),
    }
}

/// ` name: value` for each value of the field (a list repeats the name, a map writes each
/// entry as a `{ key: ... value: ... }` message).
fn entries(out: &mut String, name: &str, kind: &Kind, value: &Value) {
    match value {
        Value::List(values) => {
            for v in values {
                entries(out, name, kind, v);
            }
        }
        Value::Map(map) => {
            let Kind::Message(entry) = kind else { return };
            let (key_kind, value_kind) =
                (entry.map_entry_key_field(), entry.map_entry_value_field());
            let mut keys: Vec<&MapKey> = map.keys().collect();
            keys.sort();
            for key in keys {
                let key_value = Value::from(key.clone());
                let _ = write!(
                    out,
                    " {name} {{ key: {} value: {} }}",
                    text(&key_kind.kind(), &key_value),
                    text(&value_kind.kind(), &map[key])
                );
            }
        }
        v => {
            let _ = write!(out, " {name}: {}", text(kind, v));
        }
    }
}

/// A bytes literal: printable ASCII as is, the rest as octal escapes.
fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}
