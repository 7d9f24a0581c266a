//! A `FileDescriptorProto` written back as `.proto` text, so that an image goes through the
//! same front end as sources. Type names stay fully qualified (`.acme.v1.Order`), map entries
//! become `map<K, V>` and groups `group` fields again; what prost-types does not decode
//! (editions features, custom options) comes in beside the descriptor, by descriptor path;
//! what the descriptor does not carry (comments, how names were written) cannot come back.

use std::fmt::Write as _;

use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    ServiceDescriptorProto,
};

use super::custom::CustomOptions;
use super::features::{Editions, FeatureSet};
use crate::model::default_json_name;

/// The largest field number (`max` in reserved and extension ranges), as descriptors
/// hold numbers (i32).
const FIELD_MAX: i32 = crate::syntax::FIELD_MAX as i32;
const ENUM_MAX: i32 = i32::MAX;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Proto2,
    Proto3,
    Editions,
}

/// A file written back: its text, and for each line (0-based) the descriptor path
/// (`SourceCodeInfo.Location.path`) of the element that line declares or belongs to, so
/// that a position in the text can be traced to the user's file when the image has source
/// info.
pub struct Decompiled {
    pub text: String,
    pub origins: Vec<Vec<i32>>,
    /// For each line, the parts of a field declaration: (first column, column after the
    /// last, the part's field in FieldDescriptorProto), 1-based columns.
    pub parts: Vec<Vec<Part>>,
}

/// A part of a declaration line: its columns and the field of the element's descriptor it
/// shows (the type, the name, the number, an option), whose own span the source info has.
pub type Part = (u32, u32, i32);

// Field numbers of descriptor.proto, as SourceCodeInfo paths use them.
const FILE_MESSAGE: i32 = 4;
const FILE_ENUM: i32 = 5;
const FILE_SERVICE: i32 = 6;
const FILE_EXTENSION: i32 = 7;
const MESSAGE_FIELD: i32 = 2;
const MESSAGE_NESTED: i32 = 3;
const MESSAGE_ENUM: i32 = 4;
const MESSAGE_EXTENSION_RANGE: i32 = 5;
const MESSAGE_EXTENSION: i32 = 6;
const MESSAGE_ONEOF: i32 = 8;
const MESSAGE_RESERVED_RANGE: i32 = 9;
const MESSAGE_RESERVED_NAME: i32 = 10;
const ENUM_VALUE: i32 = 2;
const ENUM_RESERVED_RANGE: i32 = 4;
const ENUM_RESERVED_NAME: i32 = 5;
const SERVICE_METHOD: i32 = 2;
const FIELD_NAME: i32 = 1;
const FIELD_NUMBER: i32 = 3;
const FIELD_LABEL: i32 = 4;
const FIELD_TYPE: i32 = 5;
const FIELD_TYPE_NAME: i32 = 6;
const FIELD_DEFAULT: i32 = 7;
const FIELD_JSON_NAME: i32 = 10;
// The `options` field of each descriptor.
const FILE_OPTIONS: i32 = 8;
const MESSAGE_OPTIONS: i32 = 7;
const ONEOF_OPTIONS: i32 = 2;
const ENUM_OPTIONS: i32 = 3;
const SERVICE_OPTIONS: i32 = 3;
const METHOD_OPTIONS: i32 = 4;

/// The file as `.proto` text; `editions` is its edition and features and `custom` its
/// custom options, which prost-types does not decode. Err: what this decompiler cannot
/// write back.
pub fn file(
    file: &FileDescriptorProto,
    editions: &Editions,
    custom: &CustomOptions,
) -> Result<Decompiled, String> {
    let syntax = match (file.syntax(), &editions.edition) {
        ("" | "proto2", _) => Syntax::Proto2,
        ("proto3", _) => Syntax::Proto3,
        ("editions", Some(_)) => Syntax::Editions,
        (other, _) => {
            return Err(format!(
                "syntax `{other}` without an edition number is not supported in images"
            ))
        }
    };
    let mut w = Writer {
        out: String::new(),
        syntax,
        depth: 0,
        at: Vec::new(),
        origins: Vec::new(),
        parts: Vec::new(),
        editions,
        custom,
    };
    match (syntax, &editions.edition) {
        (Syntax::Proto2, _) => w.line("syntax = \"proto2\";"),
        (Syntax::Proto3, _) => w.line("syntax = \"proto3\";"),
        (Syntax::Editions, edition) => w.line(&format!(
            "edition = \"{}\";",
            edition.as_deref().unwrap_or_default()
        )),
    }
    if !file.package().is_empty() {
        w.line(&format!("package {};", file.package()));
    }
    for (i, dep) in file.dependency.iter().enumerate() {
        let i = i as i32;
        let kind = if file.public_dependency.contains(&i) {
            "public "
        } else if file.weak_dependency.contains(&i) {
            "weak "
        } else {
            ""
        };
        w.line(&format!("import {kind}{};", quote(dep)));
    }
    if let Some(o) = &file.options {
        let s = |name: &str, v: &Option<String>| v.as_ref().map(|v| (name.to_string(), quote(v)));
        let b = |name: &str, v: Option<bool>| v.map(|v| (name.to_string(), v.to_string()));
        // `java_generate_equals_and_hash` is deprecated, but still in descriptors and rules.
        #[allow(deprecated)]
        let options = [
            s("java_package", &o.java_package),
            s("java_outer_classname", &o.java_outer_classname),
            b("java_multiple_files", o.java_multiple_files),
            b(
                "java_generate_equals_and_hash",
                o.java_generate_equals_and_hash,
            ),
            b("java_string_check_utf8", o.java_string_check_utf8),
            o.optimize_for
                .map(|_| ("optimize_for".into(), o.optimize_for().as_str_name().into())),
            s("go_package", &o.go_package),
            b("cc_generic_services", o.cc_generic_services),
            b("java_generic_services", o.java_generic_services),
            b("py_generic_services", o.py_generic_services),
            b("deprecated", o.deprecated),
            b("cc_enable_arenas", o.cc_enable_arenas),
            s("objc_class_prefix", &o.objc_class_prefix),
            s("csharp_namespace", &o.csharp_namespace),
            s("swift_prefix", &o.swift_prefix),
            s("php_class_prefix", &o.php_class_prefix),
            s("php_namespace", &o.php_namespace),
            s("php_metadata_namespace", &o.php_metadata_namespace),
            s("ruby_package", &o.ruby_package),
        ];
        for (name, value) in options.into_iter().flatten() {
            w.line(&format!("option {name} = {value};"));
        }
    }
    w.option_lines(FILE_OPTIONS)?;
    for (i, m) in file.message_type.iter().enumerate() {
        w.within(&[FILE_MESSAGE, index(i)], |w| w.message(m))?;
    }
    for (i, e) in file.enum_type.iter().enumerate() {
        w.within(&[FILE_ENUM, index(i)], |w| w.enumeration(e))?;
    }
    for (i, s) in file.service.iter().enumerate() {
        w.within(&[FILE_SERVICE, index(i)], |w| w.service(s))?;
    }
    w.extensions(&file.extension, FILE_EXTENSION, &[])?;
    Ok(Decompiled {
        text: w.out,
        origins: w.origins,
        parts: w.parts,
    })
}

/// A position in a repeated field, as paths hold it.
fn index(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}

struct Writer<'a> {
    out: String,
    syntax: Syntax,
    depth: usize,
    /// The descriptor path of the element being written.
    at: Vec<i32>,
    /// The path of each line written so far.
    origins: Vec<Vec<i32>>,
    /// The parts of each line written so far.
    parts: Vec<Vec<Part>>,
    /// The file's edition and the features of its elements.
    editions: &'a Editions,
    /// The custom options of its elements.
    custom: &'a CustomOptions,
}

impl Writer<'_> {
    /// Runs `write` with `steps` appended to the current path.
    fn within<R>(&mut self, steps: &[i32], write: impl FnOnce(&mut Self) -> R) -> R {
        let depth = self.at.len();
        self.at.extend_from_slice(steps);
        let result = write(self);
        self.at.truncate(depth);
        result
    }

    /// A line made of `pieces`, recording the columns of those that name a part.
    fn line_of(&mut self, pieces: &[(String, Option<i32>)]) {
        let mut column = u32::try_from(2 * self.depth + 1).unwrap_or(u32::MAX);
        let mut parts = Vec::new();
        let mut text = String::new();
        for (piece, part) in pieces {
            let width = u32::try_from(piece.chars().count()).unwrap_or(u32::MAX);
            if let Some(tag) = part {
                parts.push((column, column.saturating_add(width), *tag));
            }
            column = column.saturating_add(width);
            text.push_str(piece);
        }
        self.line(&text);
        if let Some(last) = self.parts.last_mut() {
            *last = parts;
        }
    }

    /// The features set on the element being written, as `features.NAME = VALUE`.
    fn features_here(&self) -> Result<Vec<String>, String> {
        self.editions
            .at(&self.at)
            .map_or(Ok(Vec::new()), FeatureSet::options)
    }

    /// The custom options set on the element being written: (field number, `(.name) = VALUE`).
    fn custom_here(&self) -> Vec<(i32, String)> {
        self.custom.get(&self.at).cloned().unwrap_or_default()
    }

    /// The features and custom options set on the element being written, for a `[...]` list.
    fn options_here(&self) -> Result<Vec<String>, String> {
        let mut options = self.features_here()?;
        options.extend(self.custom_here().into_iter().map(|(_, text)| text));
        Ok(options)
    }

    /// `option ...;` for each feature and custom option set on the element being written,
    /// whose options are field `options_tag` of its descriptor. A custom option's line has
    /// the option's own path (`[..., options_tag, number]`), whose statement the source info
    /// places.
    fn option_lines(&mut self, options_tag: i32) -> Result<(), String> {
        for feature in self.features_here()? {
            self.line(&format!("option {feature};"));
        }
        for (number, text) in self.custom_here() {
            self.within(&[options_tag, number], |w| {
                w.line(&format!("option {text};"))
            });
        }
        Ok(())
    }

    /// Whether the field being written is delimited (a group in editions).
    fn delimited_here(&self) -> bool {
        self.editions
            .at(&self.at)
            .is_some_and(FeatureSet::is_delimited)
    }

    fn line(&mut self, text: &str) {
        self.origins.push(self.at.clone());
        self.parts.push(Vec::new());
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn open(&mut self, head: &str) {
        self.line(&format!("{head} {{"));
        self.depth += 1;
    }

    fn close(&mut self) {
        self.depth -= 1;
        self.line("}");
    }

    fn message(&mut self, m: &DescriptorProto) -> Result<(), String> {
        self.open(&format!("message {}", m.name()));
        self.message_body(m)?;
        self.close();
        Ok(())
    }

    fn message_body(&mut self, m: &DescriptorProto) -> Result<(), String> {
        if let Some(o) = &m.options {
            for (name, v) in [
                ("message_set_wire_format", o.message_set_wire_format),
                (
                    "no_standard_descriptor_accessor",
                    o.no_standard_descriptor_accessor,
                ),
                ("deprecated", o.deprecated),
            ] {
                if let Some(v) = v {
                    self.line(&format!("option {name} = {v};"));
                }
            }
        }
        self.option_lines(MESSAGE_OPTIONS)?;
        let mut oneofs_done = vec![false; m.oneof_decl.len()];
        for (at, f) in m.field.iter().enumerate() {
            match real_oneof(f) {
                Some(i) if oneofs_done.get(i).copied() == Some(false) => {
                    oneofs_done[i] = true;
                    self.within(&[MESSAGE_ONEOF, index(i)], |w| {
                        w.open(&format!("oneof {}", m.oneof_decl[i].name()));
                        w.option_lines(ONEOF_OPTIONS)
                    })?;
                    let members = m.field.iter().enumerate();
                    for (j, member) in members.filter(|(_, g)| real_oneof(g) == Some(i)) {
                        self.within(&[MESSAGE_FIELD, index(j)], |w| w.field(member, m, true))?;
                    }
                    self.within(&[MESSAGE_ONEOF, index(i)], |w| w.close());
                }
                Some(_) => {}
                None => self.within(&[MESSAGE_FIELD, index(at)], |w| w.field(f, m, false))?,
            }
        }
        for (i, nested) in m.nested_type.iter().enumerate() {
            // Editions have no group syntax: a delimited field's message is written as any.
            let inline = nested.options.as_ref().is_some_and(|o| o.map_entry())
                || (self.syntax != Syntax::Editions && is_group_message(m, nested));
            if !inline {
                self.within(&[MESSAGE_NESTED, index(i)], |w| w.message(nested))?;
            }
        }
        for (i, e) in m.enum_type.iter().enumerate() {
            self.within(&[MESSAGE_ENUM, index(i)], |w| w.enumeration(e))?;
        }
        self.extensions(&m.extension, MESSAGE_EXTENSION, &m.nested_type)?;
        for (i, r) in m.extension_range.iter().enumerate() {
            let (start, end) = (r.start(), r.end() - 1);
            self.within(&[MESSAGE_EXTENSION_RANGE, index(i)], |w| {
                let options: Vec<(String, Option<i32>)> =
                    w.options_here()?.into_iter().map(|o| (o, None)).collect();
                let text = format!(
                    "extensions {}{};",
                    range(start, end, FIELD_MAX),
                    bracketed(&options)
                );
                w.line(&text);
                Ok::<(), String>(())
            })?;
        }
        for (i, r) in m.reserved_range.iter().enumerate() {
            let (start, end) = (r.start(), r.end() - 1);
            let text = format!("reserved {};", range(start, end, FIELD_MAX));
            self.within(&[MESSAGE_RESERVED_RANGE, index(i)], |w| w.line(&text));
        }
        for (i, name) in m.reserved_name.iter().enumerate() {
            let text = format!("reserved {};", quote(name));
            self.within(&[MESSAGE_RESERVED_NAME, index(i)], |w| w.line(&text));
        }
        Ok(())
    }

    /// `extend` blocks, one per extendee in order of first appearance; `tag` is the field
    /// of the enclosing file or message that holds `fields`.
    fn extensions(
        &mut self,
        fields: &[FieldDescriptorProto],
        tag: i32,
        siblings: &[DescriptorProto],
    ) -> Result<(), String> {
        let mut extendees: Vec<&str> = Vec::new();
        for f in fields {
            if !extendees.contains(&f.extendee()) {
                extendees.push(f.extendee());
            }
        }
        let scope = DescriptorProto {
            nested_type: siblings.to_vec(),
            ..Default::default()
        };
        for extendee in extendees {
            self.open(&format!("extend {extendee}"));
            let members = fields.iter().enumerate();
            for (i, f) in members.filter(|(_, f)| f.extendee() == extendee) {
                self.within(&[tag, index(i)], |w| w.field(f, &scope, false))?;
            }
            self.close();
        }
        Ok(())
    }

    /// One field of `parent` (whose nested types hold its map entry or group message).
    fn field(
        &mut self,
        f: &FieldDescriptorProto,
        parent: &DescriptorProto,
        in_oneof: bool,
    ) -> Result<(), String> {
        let mut option_parts = option_parts(f);
        option_parts.extend(self.options_here()?.into_iter().map(|o| (o, None)));
        if f.r#type() == Type::Group && self.syntax == Syntax::Editions && !self.delimited_here() {
            option_parts.push(("features.message_encoding = DELIMITED".into(), None));
        }
        let options = bracketed(&option_parts);
        let entry = nested_of(parent, f.type_name())
            .filter(|n| n.options.as_ref().is_some_and(|o| o.map_entry()));
        if let (Some(entry), Label::Repeated) = (entry, f.label()) {
            let key = entry.field.iter().find(|g| g.number() == 1);
            let value = entry.field.iter().find(|g| g.number() == 2);
            let (Some(key), Some(value)) = (key, value) else {
                return Err(format!("map entry {} lacks its key or value", entry.name()));
            };
            self.line(&format!(
                "map<{}, {}> {} = {}{options};",
                type_of(key),
                type_of(value),
                f.name(),
                f.number()
            ));
            return Ok(());
        }
        let label = match (f.label(), self.syntax, in_oneof) {
            (_, _, true) => "",
            (Label::Repeated, _, _) => "repeated ",
            // Presence is a feature in editions (`LEGACY_REQUIRED` for required).
            (_, Syntax::Editions, _) => "",
            (Label::Required, _, _) => "required ",
            (Label::Optional, Syntax::Proto2, _) => "optional ",
            (Label::Optional, Syntax::Proto3, _) if f.proto3_optional() => "optional ",
            (Label::Optional, Syntax::Proto3, _) => "",
        };
        if f.r#type() == Type::Group && self.syntax != Syntax::Editions {
            let Some((i, group)) = nested_at(parent, f.type_name()) else {
                return Err(format!("group field {} has no message", f.name()));
            };
            self.open(&format!(
                "{label}group {} = {}{options}",
                group.name(),
                f.number()
            ));
            // The group's body is its message, a sibling of the field in the descriptor.
            let field_path = std::mem::take(&mut self.at);
            self.at = field_path[..field_path.len().saturating_sub(2)].to_vec();
            self.within(&[MESSAGE_NESTED, index(i)], |w| w.message_body(group))?;
            self.at = field_path;
            self.close();
            return Ok(());
        }
        let kind = match f.r#type() {
            Type::Message | Type::Enum | Type::Group => FIELD_TYPE_NAME,
            _ => FIELD_TYPE,
        };
        let piece = |text: &str, part: Option<i32>| (text.to_string(), part);
        let mut pieces = Vec::new();
        if !label.is_empty() {
            pieces.extend([piece(label.trim_end(), Some(FIELD_LABEL)), piece(" ", None)]);
        }
        pieces.extend([
            piece(&type_of(f), Some(kind)),
            piece(" ", None),
            piece(f.name(), Some(FIELD_NAME)),
            piece(" = ", None),
            piece(&f.number().to_string(), Some(FIELD_NUMBER)),
        ]);
        let has_options = !option_parts.is_empty();
        for (i, (option, part)) in option_parts.into_iter().enumerate() {
            pieces.push(piece(if i == 0 { " [" } else { ", " }, None));
            pieces.push((option, part));
        }
        if has_options {
            pieces.push(piece("]", None));
        }
        pieces.push(piece(";", None));
        self.line_of(&pieces);
        Ok(())
    }

    fn enumeration(&mut self, e: &EnumDescriptorProto) -> Result<(), String> {
        self.open(&format!("enum {}", e.name()));
        if let Some(o) = &e.options {
            for (name, v) in [("allow_alias", o.allow_alias), ("deprecated", o.deprecated)] {
                if let Some(v) = v {
                    self.line(&format!("option {name} = {v};"));
                }
            }
        }
        self.option_lines(ENUM_OPTIONS)?;
        for (i, v) in e.value.iter().enumerate() {
            self.within(&[ENUM_VALUE, index(i)], |w| {
                let mut options: Vec<(String, Option<i32>)> = Vec::new();
                if let Some(d) = v.options.as_ref().and_then(|o| o.deprecated) {
                    options.push((format!("deprecated = {d}"), None));
                }
                options.extend(w.options_here()?.into_iter().map(|o| (o, None)));
                let text = format!("{} = {}{};", v.name(), v.number(), bracketed(&options));
                w.line(&text);
                Ok::<(), String>(())
            })?;
        }
        for (i, r) in e.reserved_range.iter().enumerate() {
            let text = format!("reserved {};", range(r.start(), r.end(), ENUM_MAX));
            self.within(&[ENUM_RESERVED_RANGE, index(i)], |w| w.line(&text));
        }
        for (i, name) in e.reserved_name.iter().enumerate() {
            let text = format!("reserved {};", quote(name));
            self.within(&[ENUM_RESERVED_NAME, index(i)], |w| w.line(&text));
        }
        self.close();
        Ok(())
    }

    fn service(&mut self, s: &ServiceDescriptorProto) -> Result<(), String> {
        self.open(&format!("service {}", s.name()));
        if let Some(d) = s.options.as_ref().and_then(|o| o.deprecated) {
            self.line(&format!("option deprecated = {d};"));
        }
        self.option_lines(SERVICE_OPTIONS)?;
        for (i, m) in s.method.iter().enumerate() {
            self.within(&[SERVICE_METHOD, index(i)], |w| w.method(m))?;
        }
        self.close();
        Ok(())
    }

    fn method(&mut self, m: &prost_types::MethodDescriptorProto) -> Result<(), String> {
        let stream = |on: bool| if on { "stream " } else { "" };
        let head = format!(
            "rpc {}({}{}) returns ({}{})",
            m.name(),
            stream(m.client_streaming()),
            m.input_type(),
            stream(m.server_streaming()),
            m.output_type()
        );
        let mut options: Vec<(Option<i32>, String)> = self
            .features_here()?
            .into_iter()
            .map(|f| (None, format!("option {f};")))
            .collect();
        options.extend(
            self.custom_here()
                .into_iter()
                .map(|(number, text)| (Some(number), format!("option {text};"))),
        );
        if let Some(o) = &m.options {
            if let Some(d) = o.deprecated {
                options.push((None, format!("option deprecated = {d};")));
            }
            if o.idempotency_level.is_some() {
                options.push((
                    None,
                    format!(
                        "option idempotency_level = {};",
                        o.idempotency_level().as_str_name()
                    ),
                ));
            }
        }
        if options.is_empty() {
            self.line(&format!("{head};"));
        } else {
            self.open(&head);
            for (number, o) in options {
                match number {
                    Some(n) => self.within(&[METHOD_OPTIONS, n], |w| w.line(&o)),
                    None => self.line(&o),
                }
            }
            self.close();
        }
        Ok(())
    }
}

/// The index of the field's oneof, unless it is the synthetic one of a proto3 `optional`.
fn real_oneof(f: &FieldDescriptorProto) -> Option<usize> {
    match f.oneof_index {
        Some(i) if !f.proto3_optional() => usize::try_from(i).ok(),
        _ => None,
    }
}

/// The nested message of `parent` that the fully-qualified `type_name` names.
fn nested_of<'a>(parent: &'a DescriptorProto, type_name: &str) -> Option<&'a DescriptorProto> {
    nested_at(parent, type_name).map(|(_, n)| n)
}

/// [`nested_of`], with its index among `parent`'s nested types.
fn nested_at<'a>(
    parent: &'a DescriptorProto,
    type_name: &str,
) -> Option<(usize, &'a DescriptorProto)> {
    let simple = type_name.rsplit('.').next()?;
    parent
        .nested_type
        .iter()
        .enumerate()
        .find(|(_, n)| n.name() == simple)
}

/// Whether `nested` is the message of one of `parent`'s group fields.
fn is_group_message(parent: &DescriptorProto, nested: &DescriptorProto) -> bool {
    parent.field.iter().any(|f| {
        f.r#type() == Type::Group && f.type_name().rsplit('.').next() == Some(nested.name())
    })
}

fn type_of(f: &FieldDescriptorProto) -> String {
    match f.r#type() {
        Type::Message | Type::Enum | Type::Group => f.type_name().to_string(),
        scalar => scalar
            .as_str_name()
            .trim_start_matches("TYPE_")
            .to_ascii_lowercase(),
    }
}

/// ` [a = b, ...]` or empty.
fn bracketed(parts: &[(String, Option<i32>)]) -> String {
    let parts: Vec<&str> = parts.iter().map(|(o, _)| o.as_str()).collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" [{}]", parts.join(", "))
    }
}

/// Each `name = value` of a field's options, with the descriptor field it shows when the
/// source info has a span of its own for it (`default`, `json_name`).
fn option_parts(f: &FieldDescriptorProto) -> Vec<(String, Option<i32>)> {
    let mut parts: Vec<(String, Option<i32>)> = Vec::new();
    if let Some(d) = &f.default_value {
        let value = match f.r#type() {
            Type::String => quote(d),
            // Already C-escaped in the descriptor.
            Type::Bytes => format!("\"{d}\""),
            _ => d.clone(),
        };
        parts.push((format!("default = {value}"), Some(FIELD_DEFAULT)));
    }
    let is_extension = f.extendee.is_some();
    if let Some(json) = &f.json_name {
        if !is_extension && *json != default_json_name(f.name()) {
            parts.push((
                format!("json_name = {}", quote(json)),
                Some(FIELD_JSON_NAME),
            ));
        }
    }
    if let Some(o) = &f.options {
        if o.ctype.is_some() {
            parts.push((format!("ctype = {}", o.ctype().as_str_name()), None));
        }
        if let Some(p) = o.packed {
            parts.push((format!("packed = {p}"), None));
        }
        if o.jstype.is_some() {
            parts.push((format!("jstype = {}", o.jstype().as_str_name()), None));
        }
        for (name, v) in [
            ("lazy", o.lazy),
            ("deprecated", o.deprecated),
            ("weak", o.weak),
        ] {
            if let Some(v) = v {
                parts.push((format!("{name} = {v}"), None));
            }
        }
    }
    parts
}

/// `start`, `start to end`, or `start to max`.
fn range(start: i32, end: i32, max: i32) -> String {
    match end {
        e if e == start => start.to_string(),
        e if e >= max => format!("{start} to max"),
        e => format!("{start} to {e}"),
    }
}

/// A string literal: `\`, `"` and control bytes escaped (octal), the rest as UTF-8.
pub(super) fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
