//! A `FileDescriptorProto` written back as `.proto` text, so that an image goes through the
//! same front end as sources. Type names stay fully qualified (`.acme.v1.Order`), map entries
//! become `map<K, V>` and groups `group` fields again; what the descriptor does not carry
//! (comments, custom options that prost-types leaves as unknown fields) cannot come back.

use std::fmt::Write as _;

use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    ServiceDescriptorProto,
};

use crate::model::default_json_name;

/// The largest field number (`max` in reserved and extension ranges), as descriptors
/// hold numbers (i32).
const FIELD_MAX: i32 = crate::syntax::FIELD_MAX as i32;
const ENUM_MAX: i32 = i32::MAX;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Proto2,
    Proto3,
}

/// The file as `.proto` text; Err: what this decompiler cannot write back.
pub fn file(file: &FileDescriptorProto) -> Result<String, String> {
    let syntax = match file.syntax() {
        "" | "proto2" => Syntax::Proto2,
        "proto3" => Syntax::Proto3,
        other => {
            return Err(format!(
                "syntax `{other}` is not supported in images (prost-types has no editions \
                 fields); compare the sources instead"
            ))
        }
    };
    let mut w = Writer {
        out: String::new(),
        syntax,
        depth: 0,
    };
    w.line(match syntax {
        Syntax::Proto2 => "syntax = \"proto2\";",
        Syntax::Proto3 => "syntax = \"proto3\";",
    });
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
    for m in &file.message_type {
        w.message(m)?;
    }
    for e in &file.enum_type {
        w.enumeration(e);
    }
    for s in &file.service {
        w.service(s);
    }
    w.extensions(&file.extension, &[])?;
    Ok(w.out)
}

struct Writer {
    out: String,
    syntax: Syntax,
    depth: usize,
}

impl Writer {
    fn line(&mut self, text: &str) {
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
        let mut oneofs_done = vec![false; m.oneof_decl.len()];
        for f in &m.field {
            match real_oneof(f) {
                Some(i) if oneofs_done.get(i).copied() == Some(false) => {
                    oneofs_done[i] = true;
                    self.open(&format!("oneof {}", m.oneof_decl[i].name()));
                    for member in m.field.iter().filter(|g| real_oneof(g) == Some(i)) {
                        self.field(member, m, true)?;
                    }
                    self.close();
                }
                Some(_) => {}
                None => self.field(f, m, false)?,
            }
        }
        for nested in &m.nested_type {
            let inline = nested.options.as_ref().is_some_and(|o| o.map_entry())
                || is_group_message(m, nested);
            if !inline {
                self.message(nested)?;
            }
        }
        for e in &m.enum_type {
            self.enumeration(e);
        }
        self.extensions(&m.extension, &m.nested_type)?;
        for r in &m.extension_range {
            let (start, end) = (r.start(), r.end() - 1);
            self.line(&format!("extensions {};", range(start, end, FIELD_MAX)));
        }
        for r in &m.reserved_range {
            let (start, end) = (r.start(), r.end() - 1);
            self.line(&format!("reserved {};", range(start, end, FIELD_MAX)));
        }
        for name in &m.reserved_name {
            self.line(&format!("reserved {};", quote(name)));
        }
        Ok(())
    }

    /// `extend` blocks, one per extendee in order of first appearance.
    fn extensions(
        &mut self,
        fields: &[FieldDescriptorProto],
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
            for f in fields.iter().filter(|f| f.extendee() == extendee) {
                self.field(f, &scope, false)?;
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
        let options = field_options(f);
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
            (Label::Required, _, _) => "required ",
            (Label::Optional, Syntax::Proto2, _) => "optional ",
            (Label::Optional, Syntax::Proto3, _) if f.proto3_optional() => "optional ",
            (Label::Optional, Syntax::Proto3, _) => "",
        };
        if f.r#type() == Type::Group {
            let Some(group) = nested_of(parent, f.type_name()) else {
                return Err(format!("group field {} has no message", f.name()));
            };
            self.open(&format!(
                "{label}group {} = {}{options}",
                group.name(),
                f.number()
            ));
            self.message_body(group)?;
            self.close();
            return Ok(());
        }
        self.line(&format!(
            "{label}{} {} = {}{options};",
            type_of(f),
            f.name(),
            f.number()
        ));
        Ok(())
    }

    fn enumeration(&mut self, e: &EnumDescriptorProto) {
        self.open(&format!("enum {}", e.name()));
        if let Some(o) = &e.options {
            for (name, v) in [("allow_alias", o.allow_alias), ("deprecated", o.deprecated)] {
                if let Some(v) = v {
                    self.line(&format!("option {name} = {v};"));
                }
            }
        }
        for v in &e.value {
            let options = match v.options.as_ref().and_then(|o| o.deprecated) {
                Some(d) => format!(" [deprecated = {d}]"),
                None => String::new(),
            };
            self.line(&format!("{} = {}{options};", v.name(), v.number()));
        }
        for r in &e.reserved_range {
            self.line(&format!(
                "reserved {};",
                range(r.start(), r.end(), ENUM_MAX)
            ));
        }
        for name in &e.reserved_name {
            self.line(&format!("reserved {};", quote(name)));
        }
        self.close();
    }

    fn service(&mut self, s: &ServiceDescriptorProto) {
        self.open(&format!("service {}", s.name()));
        if let Some(d) = s.options.as_ref().and_then(|o| o.deprecated) {
            self.line(&format!("option deprecated = {d};"));
        }
        for m in &s.method {
            let stream = |on: bool| if on { "stream " } else { "" };
            let head = format!(
                "rpc {}({}{}) returns ({}{})",
                m.name(),
                stream(m.client_streaming()),
                m.input_type(),
                stream(m.server_streaming()),
                m.output_type()
            );
            let mut options = Vec::new();
            if let Some(o) = &m.options {
                if let Some(d) = o.deprecated {
                    options.push(format!("option deprecated = {d};"));
                }
                if o.idempotency_level.is_some() {
                    options.push(format!(
                        "option idempotency_level = {};",
                        o.idempotency_level().as_str_name()
                    ));
                }
            }
            if options.is_empty() {
                self.line(&format!("{head};"));
            } else {
                self.open(&head);
                for o in options {
                    self.line(&o);
                }
                self.close();
            }
        }
        self.close();
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
    let simple = type_name.rsplit('.').next()?;
    parent.nested_type.iter().find(|n| n.name() == simple)
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
fn field_options(f: &FieldDescriptorProto) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(d) = &f.default_value {
        let value = match f.r#type() {
            Type::String => quote(d),
            // Already C-escaped in the descriptor.
            Type::Bytes => format!("\"{d}\""),
            _ => d.clone(),
        };
        parts.push(format!("default = {value}"));
    }
    let is_extension = f.extendee.is_some();
    if let Some(json) = &f.json_name {
        if !is_extension && *json != default_json_name(f.name()) {
            parts.push(format!("json_name = {}", quote(json)));
        }
    }
    if let Some(o) = &f.options {
        if o.ctype.is_some() {
            parts.push(format!("ctype = {}", o.ctype().as_str_name()));
        }
        if let Some(p) = o.packed {
            parts.push(format!("packed = {p}"));
        }
        if o.jstype.is_some() {
            parts.push(format!("jstype = {}", o.jstype().as_str_name()));
        }
        for (name, v) in [
            ("lazy", o.lazy),
            ("deprecated", o.deprecated),
            ("weak", o.weak),
        ] {
            if let Some(v) = v {
                parts.push(format!("{name} = {v}"));
            }
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" [{}]", parts.join(", "))
    }
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
fn quote(s: &str) -> String {
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
