//! Cross-check of our front-end against protox-parse (an independent proto2/proto3 parser).
//!
//! How it works: every `.proto` file of buf's conformance corpus (and of this test's own
//! samples) that is proto2 or proto3 is parsed by `protox_parse::parse` (which yields an
//! unresolved `FileDescriptorProto`) and built by our `link::build_schema` together with the
//! other files of its side (so names resolve). The two are then walked in parallel and must
//! agree on:
//! - package; the names and order of top-level and nested messages (including the synthesized
//!   map entry and group messages), enums and services;
//! - per field: name, number, label (protox leaves it unset for proto3 singular fields: we say
//!   Optional), type for scalars and groups, `proto3_optional`, `oneof_index`, explicit
//!   `json_name`; for named types, that our resolved fully-qualified name ends with the name
//!   as written (protox does not resolve names);
//! - oneof names (real and synthetic), enum value names and numbers, method names, streaming
//!   flags and input/output names (same suffix rule), extension fields and their extendees.
//!
//! Known difference left out of the samples: for a proto3 `optional a` next to a field named
//! `_a`, protoc names the synthetic oneof `X_a` (and so do we, see model tests); protox-parse
//! does not check collisions.
//!
//! Not covered: options, default values, spans (checked against buf's expected output in
//! the conformance run instead), and editions (protox-parse rejects them).

use std::path::Path;

use prost_types::{DescriptorProto, EnumDescriptorProto, FieldDescriptorProto};
use protocompat::link::{self, build_schema, NoImports};
use protocompat::model;

use crate::support;
use support::corpus;

/// `ours` is the resolved form of `written` (protox keeps names as written).
fn same_type_name(ours: &str, written: &str) -> bool {
    let written = written.trim_start_matches('.');
    ours == written || ours.ends_with(&format!(".{written}"))
}

fn label_of(field: &model::Field) -> i32 {
    use prost_types::field_descriptor_proto::Label;
    match field.label {
        model::Label::Optional => Label::Optional as i32,
        model::Label::Required => Label::Required as i32,
        model::Label::Repeated => Label::Repeated as i32,
    }
}

fn type_of(ty: model::FieldType) -> i32 {
    use model::FieldType as F;
    use prost_types::field_descriptor_proto::Type;
    (match ty {
        F::Double => Type::Double,
        F::Float => Type::Float,
        F::Int64 => Type::Int64,
        F::Uint64 => Type::Uint64,
        F::Int32 => Type::Int32,
        F::Fixed64 => Type::Fixed64,
        F::Fixed32 => Type::Fixed32,
        F::Bool => Type::Bool,
        F::String => Type::String,
        F::Group => Type::Group,
        F::Message => Type::Message,
        F::Bytes => Type::Bytes,
        F::Uint32 => Type::Uint32,
        F::Enum => Type::Enum,
        F::Sfixed32 => Type::Sfixed32,
        F::Sfixed64 => Type::Sfixed64,
        F::Sint32 => Type::Sint32,
        F::Sint64 => Type::Sint64,
    }) as i32
}

struct Check<'a> {
    file: &'a str,
    problems: Vec<String>,
}

impl Check<'_> {
    fn eq<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, ours: T, theirs: T) {
        if ours != theirs {
            self.problems.push(format!(
                "{}: {what}: ours {ours:?}, protox {theirs:?}",
                self.file
            ));
        }
    }

    fn field(&mut self, scope: &str, ours: &model::Field, theirs: &FieldDescriptorProto) {
        let at = format!("{scope}.{}", ours.name);
        self.eq(&format!("{at} name"), ours.name.as_str(), theirs.name());
        self.eq(
            &format!("{at} number"),
            ours.number,
            i64::from(theirs.number()),
        );
        let their_label = theirs
            .label
            .unwrap_or(prost_types::field_descriptor_proto::Label::Optional as i32);
        self.eq(&format!("{at} label"), label_of(ours), their_label);
        match theirs.r#type {
            Some(t) => self.eq(&format!("{at} type"), type_of(ours.ty), t),
            None => {
                let named = matches!(
                    ours.ty,
                    model::FieldType::Message | model::FieldType::Enum | model::FieldType::Group
                );
                self.eq(&format!("{at} named type"), named, true);
            }
        }
        if let Some(written) = &theirs.type_name {
            let ours_name = ours.type_name.clone().unwrap_or_default();
            if !same_type_name(&ours_name, written) {
                self.problems.push(format!(
                    "{}: {at} type name: ours {ours_name}, protox {written}",
                    self.file
                ));
            }
        }
        self.eq(
            &format!("{at} proto3_optional"),
            ours.proto3_optional,
            theirs.proto3_optional.unwrap_or(false),
        );
        self.eq(
            &format!("{at} oneof_index"),
            ours.oneof_index.map(|i| i as i32),
            theirs.oneof_index,
        );
        if let Some(json) = &theirs.json_name {
            if ours.name != "key" && ours.name != "value" || ours.json_name_explicit {
                self.eq(&format!("{at} json_name"), &*ours.json_name, json.as_str());
            }
        }
        if let Some(extendee) = &theirs.extendee {
            let ours_extendee = ours.extendee().unwrap_or_default();
            if !same_type_name(ours_extendee, extendee) {
                self.problems.push(format!(
                    "{}: {at} extendee: ours {ours_extendee}, protox {extendee}",
                    self.file
                ));
            }
        }
    }

    fn fields(&mut self, scope: &str, ours: &[model::Field], theirs: &[FieldDescriptorProto]) {
        self.eq(&format!("{scope} field count"), ours.len(), theirs.len());
        for (o, t) in ours.iter().zip(theirs) {
            self.field(scope, o, t);
        }
    }

    fn message(&mut self, ours: &model::Message, theirs: &DescriptorProto) {
        let at = ours.full_name.clone();
        self.eq(&format!("{at} name"), ours.name.as_str(), theirs.name());
        self.fields(&at, &ours.fields, &theirs.field);
        self.fields(
            &format!("{at} (extensions)"),
            &ours.extensions,
            &theirs.extension,
        );
        let our_oneofs: Vec<_> = ours.oneofs.iter().map(|o| o.name.as_str()).collect();
        let their_oneofs: Vec<_> = theirs.oneof_decl.iter().map(|o| o.name()).collect();
        self.eq(&format!("{at} oneofs"), our_oneofs, their_oneofs);
        self.eq(
            &format!("{at} map entry"),
            ours.is_map_entry,
            theirs
                .options
                .as_ref()
                .and_then(|o| o.map_entry)
                .unwrap_or(false),
        );
        self.messages(&at, &ours.messages, &theirs.nested_type);
        self.enums(&at, &ours.enums, &theirs.enum_type);
    }

    fn messages(&mut self, scope: &str, ours: &[model::Message], theirs: &[DescriptorProto]) {
        let names = |m: &[model::Message]| m.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
        let their_names: Vec<_> = theirs.iter().map(|m| m.name().to_string()).collect();
        self.eq(&format!("{scope} messages"), names(ours), their_names);
        for (o, t) in ours.iter().zip(theirs) {
            self.message(o, t);
        }
    }

    fn enums(&mut self, scope: &str, ours: &[model::Enum], theirs: &[EnumDescriptorProto]) {
        let our_names: Vec<_> = ours.iter().map(|e| e.name.as_str()).collect();
        let their_names: Vec<_> = theirs.iter().map(|e| e.name()).collect();
        self.eq(&format!("{scope} enums"), our_names, their_names);
        for (o, t) in ours.iter().zip(theirs) {
            let our_values: Vec<_> = o
                .values
                .iter()
                .map(|v| (v.name.as_str(), v.number))
                .collect();
            let their_values: Vec<_> = t
                .value
                .iter()
                .map(|v| (v.name(), i64::from(v.number())))
                .collect();
            self.eq(&format!("{} values", o.full_name), our_values, their_values);
        }
    }

    fn file(&mut self, ours: &model::File, theirs: &prost_types::FileDescriptorProto) {
        self.eq("package", ours.package.as_str(), theirs.package());
        self.messages("", &ours.messages, &theirs.message_type);
        self.enums("", &ours.enums, &theirs.enum_type);
        self.fields("(file extensions)", &ours.extensions, &theirs.extension);
        let our_services: Vec<_> = ours.services.iter().map(|s| s.name.as_str()).collect();
        let their_services: Vec<_> = theirs.service.iter().map(|s| s.name()).collect();
        self.eq("services", our_services, their_services);
        for (o, t) in ours.services.iter().zip(&theirs.service) {
            let our_methods: Vec<_> = o
                .methods
                .iter()
                .map(|m| (m.name.as_str(), m.client_streaming, m.server_streaming))
                .collect();
            let their_methods: Vec<_> = t
                .method
                .iter()
                .map(|m| {
                    (
                        m.name(),
                        m.client_streaming.unwrap_or(false),
                        m.server_streaming.unwrap_or(false),
                    )
                })
                .collect();
            self.eq(&format!("{} methods", o.name), our_methods, their_methods);
            for (om, tm) in o.methods.iter().zip(&t.method) {
                for (ours_type, theirs_type) in [
                    (&om.input_type, tm.input_type()),
                    (&om.output_type, tm.output_type()),
                ] {
                    if !same_type_name(ours_type, theirs_type) {
                        self.problems.push(format!(
                            "{}: {} type: ours {ours_type}, protox {theirs_type}",
                            self.file, om.name
                        ));
                    }
                }
            }
        }
    }
}

/// Checks every proto2/proto3 file of one set of sources; returns how many were compared.
fn cross_check(sources: Vec<link::SourceFile>, problems: &mut Vec<String>) -> usize {
    let texts: Vec<_> = sources
        .iter()
        .map(|s| (s.path.clone(), s.display_name.clone(), s.text.clone()))
        .collect();
    let schema = match build_schema(sources, &NoImports) {
        Ok(out) => out.schema,
        Err(e) => {
            problems.push(format!("build failed: {:?}", e.diagnostics));
            return 0;
        }
    };
    let mut compared = 0;
    for (path, display, text) in texts {
        let ours = &schema.files[&path];
        if matches!(ours.syntax, model::Syntax::Editions(_)) {
            continue;
        }
        let theirs = match protox_parse::parse(&path, &text) {
            Ok(fd) => fd,
            Err(e) => {
                problems.push(format!("{display}: protox-parse failed: {e}"));
                continue;
            }
        };
        let mut check = Check {
            file: &display,
            problems: Vec::new(),
        };
        check.file(ours, &theirs);
        problems.extend(check.problems);
        compared += 1;
    }
    compared
}

#[test]
fn agrees_with_protox_parse_on_the_corpus() {
    let sides = corpus::sides();
    if sides.is_empty() {
        eprintln!("skipped: {} is absent", corpus::CORPUS);
        return;
    }
    let mut problems = Vec::new();
    let mut compared = 0;
    for side in &sides {
        compared += cross_check(corpus::side_sources(Path::new(side)), &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(compared > 100, "only {compared} files compared");
}

#[test]
fn agrees_with_protox_parse_on_samples() {
    let sample = r#"syntax = "proto2";
package s.t;
message A {
  optional int32 a = 1 [json_name = "x"];
  repeated A children = 2;
  map<string, A> by_name = 3;
  optional group G = 4 { required int64 g = 1; }
  oneof o { string one = 5; B two = 6; group H = 7 { optional bool h = 1; } }
  extensions 100 to max;
  extend A { optional A ext = 100; }
  message B { enum E { Z = 0; N = -1; } }
  reserved 8 to 10;
}
enum Top { T0 = 0; T1 = 1; }
extend A { repeated string more = 101; }
service S { rpc M (A) returns (stream .s.t.A.B); }
"#;
    let proto3 = r#"syntax = "proto3";
message C {
  optional int32 a = 1;
  optional int32 _b = 2;
  map<int32, C> m = 3;
  oneof x { C c = 4; }
  optional string s = 5;
}
"#;
    let sources = [("s.proto", sample), ("p3.proto", proto3)]
        .iter()
        .map(|(p, t)| link::SourceFile {
            path: p.to_string(),
            display_name: p.to_string(),
            text: std::sync::Arc::from(*t),
        })
        .collect();
    let mut problems = Vec::new();
    assert_eq!(cross_check(sources, &mut problems), 2);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A small deterministic generator of valid proto2/proto3 files: nested messages, enums,
/// scalar/message/enum fields with labels, maps, oneofs, groups (proto2), proto3 `optional`,
/// reserved ranges and services, with types referenced by relative names from inner scopes.
struct Generator {
    state: u64,
    proto3: bool,
    out: String,
}

impl Generator {
    fn next(&mut self, n: usize) -> usize {
        self.state = self
            .state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.state >> 33) as usize) % n.max(1)
    }

    fn message(&mut self, name: &str, depth: usize, indent: &str) {
        self.out.push_str(&format!("{indent}message {name} {{\n"));
        let inner = format!("{indent}  ");
        let mut number = 1;
        let nested = if depth < 2 { self.next(3) } else { 0 };
        for i in 0..nested {
            self.message(&format!("{name}N{i}"), depth + 1, &inner);
        }
        self.out.push_str(&format!(
            "{inner}enum {name}E {{ {name}_Z = 0; {name}_O = 1; }}\n"
        ));
        let types = [
            "int32", "string", "bytes", "double", "sint64", "bool", "fixed32",
        ];
        for _ in 0..self.next(8) + 1 {
            let kind = self.next(7);
            let label = match (self.proto3, self.next(3)) {
                (true, 0) => "",
                (true, 1) => "optional ",
                (false, 0) => "optional ",
                (false, 1) => "required ",
                _ => "repeated ",
            };
            let field = format!("f{number}_x");
            match kind {
                0 => self.out.push_str(&format!(
                    "{inner}map<string, {name}E> {field} = {number};\n"
                )),
                1 if !self.proto3 => {
                    self.out.push_str(&format!(
                        "{inner}{label}group G{number} = {number} {{ optional int32 g = 1; }}\n"
                    ));
                }
                2 => {
                    let first = types[self.next(types.len())];
                    self.out.push_str(&format!(
                        "{inner}oneof o{number} {{ {first} {field} = {number}; {name}E {field}_e = {}; }}\n",
                        number + 1
                    ));
                    number += 1;
                }
                3 => self
                    .out
                    .push_str(&format!("{inner}{label}{name} {field} = {number};\n")),
                4 => self
                    .out
                    .push_str(&format!("{inner}{label}{name}E {field} = {number};\n")),
                _ => {
                    let ty = types[self.next(types.len())];
                    self.out
                        .push_str(&format!("{inner}{label}{ty} {field} = {number};\n"));
                }
            }
            number += 1;
        }
        self.out.push_str(&format!(
            "{inner}reserved {} to {};\n{indent}}}\n",
            number + 10,
            number + 20
        ));
    }
}

#[test]
fn agrees_with_protox_parse_on_generated_files() {
    let mut problems = Vec::new();
    let mut compared = 0;
    for seed in 0..150u64 {
        let proto3 = seed % 2 == 0;
        let mut generator = Generator {
            state: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) + 1,
            proto3,
            out: format!(
                "syntax = \"{}\";\npackage gen.v{seed};\n",
                if proto3 { "proto3" } else { "proto2" }
            ),
        };
        for i in 0..3 {
            generator.message(&format!("M{i}"), 0, "");
        }
        generator
            .out
            .push_str("service S { rpc R (M0) returns (stream M1); }\n");
        let source = link::SourceFile {
            path: format!("gen{seed}.proto"),
            display_name: format!("gen{seed}.proto"),
            text: std::sync::Arc::from(generator.out.as_str()),
        };
        compared += cross_check(vec![source], &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(compared, 150);
}
