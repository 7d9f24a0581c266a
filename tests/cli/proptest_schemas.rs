//! Property tests over generated schemas (proto2 and proto3 files written as text): a schema
//! compared with itself or with a reordering of itself has no findings; each mutation kind
//! yields exactly the rules buf reports for it; swapping old and new turns deletions into
//! additions, which no rule flags.
//!
//! The rule set is `use: [FILE, PACKAGE, WIRE_JSON, WIRE]` (config v1). The expected rules of
//! each mutation were checked against buf 1.75.0: set `PROTOCOMPAT_BUF=/path/to/buf` to run
//! buf on every generated case too and require the same rule ids from it (slow; skipped when
//! unset). `PROPTEST_CASES` scales the number of cases (default 48 per property).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use proptest::prelude::*;
use protocompat::config::Config;
use protocompat::diff::Diff;
use protocompat::engine;
use protocompat::link::{build_schema, NoImports, SourceFile};
use protocompat::model::Schema;
use protocompat::rules::RuleMeta;

const CONFIG: &str = "version: v1\nbreaking:\n  use: [FILE, PACKAGE, WIRE_JSON, WIRE]\n";

// ---- the generated schema ----------------------------------------------------------------

const SCALARS: [&str; 15] = [
    "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
    "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes",
];

/// Wire-compatible groups, as buf's FIELD_WIRE_COMPATIBLE_TYPE sees them.
fn wire_group(scalar: &str) -> u8 {
    match scalar {
        "int32" | "int64" | "uint32" | "uint64" | "bool" => 1,
        "sint32" | "sint64" => 2,
        "string" => 3,
        "bytes" => 4,
        "fixed32" | "sfixed32" => 5,
        "fixed64" | "sfixed64" => 6,
        "double" => 7,
        _ => 8, // float
    }
}

/// Groups both wire- and JSON-compatible, as buf's FIELD_WIRE_JSON_COMPATIBLE_TYPE sees them.
fn wire_json_group(scalar: &str) -> u8 {
    match scalar {
        "int32" | "uint32" => 1,
        "int64" | "uint64" => 2,
        "fixed32" | "sfixed32" => 3,
        "fixed64" | "sfixed64" => 4,
        "bool" => 5,
        "sint32" => 6,
        "sint64" => 7,
        "string" => 8,
        "bytes" => 9,
        "double" => 10,
        _ => 11, // float
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Scalar(&'static str),
    /// A top-level message or enum of the file, by simple name.
    Named(String),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Label {
    /// proto3 without a label: implicit presence.
    Implicit,
    Optional,
    Repeated,
}

#[derive(Clone, Debug)]
struct FieldDef {
    name: String,
    number: u32,
    ty: Ty,
    label: Label,
    /// Index into the message's oneofs.
    oneof: Option<usize>,
}

#[derive(Clone, Debug)]
struct MessageDef {
    name: String,
    fields: Vec<FieldDef>,
    oneofs: Vec<String>,
    nested: Vec<MessageDef>,
}

#[derive(Clone, Debug)]
struct EnumDef {
    name: String,
    /// (name, number); the first is the zero value.
    values: Vec<(String, i32)>,
}

#[derive(Clone, Debug)]
struct MethodDef {
    name: String,
    input: String,
    output: String,
    client_streaming: bool,
    server_streaming: bool,
}

#[derive(Clone, Debug)]
struct ServiceDef {
    name: String,
    methods: Vec<MethodDef>,
}

#[derive(Clone, Debug)]
struct ProtoFile {
    proto2: bool,
    package: String,
    enums: Vec<EnumDef>,
    messages: Vec<MessageDef>,
    services: Vec<ServiceDef>,
}

impl ProtoFile {
    fn render(&self) -> String {
        let mut out = String::new();
        let syntax = if self.proto2 { "proto2" } else { "proto3" };
        let _ = writeln!(out, "syntax = \"{syntax}\";\n\npackage {};\n", self.package);
        for e in &self.enums {
            render_enum(&mut out, e, "");
        }
        for m in &self.messages {
            self.render_message(&mut out, m, "");
        }
        for s in &self.services {
            let _ = writeln!(out, "service {} {{", s.name);
            for m in &s.methods {
                let stream = |on: bool| if on { "stream " } else { "" };
                let _ = writeln!(
                    out,
                    "  rpc {}({}{}) returns ({}{});",
                    m.name,
                    stream(m.client_streaming),
                    m.input,
                    stream(m.server_streaming),
                    m.output
                );
            }
            out.push_str("}\n");
        }
        out
    }

    fn render_message(&self, out: &mut String, m: &MessageDef, indent: &str) {
        let _ = writeln!(out, "{indent}message {} {{", m.name);
        let inner = format!("{indent}  ");
        for f in m.fields.iter().filter(|f| f.oneof.is_none()) {
            self.render_field(out, f, &inner);
        }
        for (i, oneof) in m.oneofs.iter().enumerate() {
            let _ = writeln!(out, "{inner}oneof {oneof} {{");
            for f in m.fields.iter().filter(|f| f.oneof == Some(i)) {
                self.render_field(out, f, &format!("{inner}  "));
            }
            let _ = writeln!(out, "{inner}}}");
        }
        for n in &m.nested {
            self.render_message(out, n, &inner);
        }
        let _ = writeln!(out, "{indent}}}");
    }

    fn render_field(&self, out: &mut String, f: &FieldDef, indent: &str) {
        let label = match (f.oneof, f.label) {
            (Some(_), _) | (None, Label::Implicit) => "",
            (None, Label::Optional) => "optional ",
            (None, Label::Repeated) => "repeated ",
        };
        let ty = match &f.ty {
            Ty::Scalar(s) => s.to_string(),
            Ty::Named(n) => n.clone(),
        };
        let _ = writeln!(out, "{indent}{label}{ty} {} = {};", f.name, f.number);
    }

    /// The same declarations in another order (fields keep their numbers).
    fn reordered(&self, seed: u64) -> ProtoFile {
        let mut rng = Lcg(seed | 1);
        let mut out = self.clone();
        rng.shuffle(&mut out.enums);
        rng.shuffle(&mut out.messages);
        rng.shuffle(&mut out.services);
        for e in &mut out.enums {
            // The first value stays first: it is the default (and must be 0 in proto3).
            rng.shuffle(&mut e.values[1..]);
        }
        for m in &mut out.messages {
            reorder_message(m, &mut rng);
        }
        for s in &mut out.services {
            rng.shuffle(&mut s.methods);
        }
        out
    }

    /// Every plain (not oneof) field of a top-level message: (message, field) indexes.
    fn plain_fields(&self) -> Vec<(usize, usize)> {
        self.fields_where(|f| f.oneof.is_none())
    }

    fn fields_where(&self, keep: impl Fn(&FieldDef) -> bool) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (mi, m) in self.messages.iter().enumerate() {
            for (fi, f) in m.fields.iter().enumerate() {
                if keep(f) {
                    out.push((mi, fi));
                }
            }
        }
        out
    }

    fn is_referenced(&self, name: &str) -> bool {
        let in_fields = |m: &MessageDef| m.fields.iter().any(|f| f.ty == Ty::Named(name.into()));
        self.messages
            .iter()
            .any(|m| in_fields(m) || m.nested.iter().any(in_fields))
            || self
                .services
                .iter()
                .flat_map(|s| &s.methods)
                .any(|m| m.input == name || m.output == name)
    }
}

fn render_enum(out: &mut String, e: &EnumDef, indent: &str) {
    let _ = writeln!(out, "{indent}enum {} {{", e.name);
    for (name, number) in &e.values {
        let _ = writeln!(out, "{indent}  {name} = {number};");
    }
    let _ = writeln!(out, "{indent}}}");
}

fn reorder_message(m: &mut MessageDef, rng: &mut Lcg) {
    rng.shuffle(&mut m.fields);
    rng.shuffle(&mut m.nested);
    for n in &mut m.nested {
        reorder_message(n, rng);
    }
}

/// A tiny deterministic generator for reorderings (the seed comes from proptest).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % bound as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.next(i + 1);
            items.swap(i, j);
        }
    }
}

// ---- strategies ----------------------------------------------------------------------------

/// A field before naming: (type choice, label choice, in a oneof).
type FieldShape = (usize, u8, bool);

fn field_shape() -> impl Strategy<Value = FieldShape> {
    (any::<usize>(), 0u8..3, prop::bool::weighted(0.2))
}

/// Builds the file from shapes; names and numbers follow from positions, so they are unique.
fn assemble(
    proto2: bool,
    enum_sizes: Vec<usize>,
    messages: Vec<(Vec<FieldShape>, Vec<FieldShape>)>,
    methods: Vec<(usize, usize, bool, bool)>,
) -> ProtoFile {
    let enums: Vec<EnumDef> = enum_sizes
        .iter()
        .enumerate()
        .map(|(i, &n)| EnumDef {
            name: format!("E{i}"),
            values: (0..n)
                .map(|v| (format!("E{i}_V{v}"), v as i32 * 2))
                .collect(),
        })
        .collect();
    let message_names: Vec<String> = (0..messages.len()).map(|i| format!("M{i}")).collect();
    let named: Vec<String> = message_names
        .iter()
        .chain(enums.iter().map(|e| &e.name))
        .cloned()
        .collect();
    let make_fields = |shapes: &[FieldShape], oneofs: &mut Vec<String>, prefix: &str| {
        let mut fields = Vec::new();
        for (i, (ty, label, in_oneof)) in shapes.iter().enumerate() {
            let choice = ty % (SCALARS.len() + named.len());
            let ty = match SCALARS.get(choice) {
                Some(s) => Ty::Scalar(s),
                None => Ty::Named(named[choice - SCALARS.len()].clone()),
            };
            let label = match (proto2, label) {
                (true, 0 | 1) => Label::Optional,
                (false, 0) => Label::Implicit,
                (false, 1) => Label::Optional,
                _ => Label::Repeated,
            };
            let oneof = (*in_oneof && label != Label::Repeated).then(|| {
                if oneofs.is_empty() {
                    oneofs.push(format!("{prefix}choice"));
                }
                0
            });
            fields.push(FieldDef {
                name: format!("{prefix}f{}", i + 1),
                number: i as u32 * 3 + 1,
                ty,
                label,
                oneof,
            });
        }
        fields
    };
    let messages = messages
        .iter()
        .enumerate()
        .map(|(i, (shapes, nested_shapes))| {
            let mut oneofs = Vec::new();
            let fields = make_fields(shapes, &mut oneofs, "");
            let nested = if nested_shapes.is_empty() {
                Vec::new()
            } else {
                let mut nested_oneofs = Vec::new();
                let fields = make_fields(nested_shapes, &mut nested_oneofs, "n_");
                vec![MessageDef {
                    name: format!("N{i}"),
                    fields,
                    oneofs: nested_oneofs,
                    nested: Vec::new(),
                }]
            };
            MessageDef {
                name: message_names[i].clone(),
                fields,
                oneofs,
                nested,
            }
        })
        .collect();
    let services = if methods.is_empty() {
        Vec::new()
    } else {
        vec![ServiceDef {
            name: "S0".into(),
            methods: methods
                .iter()
                .enumerate()
                .map(|(i, (input, output, cs, ss))| MethodDef {
                    name: format!("Call{i}"),
                    input: message_names[input % message_names.len()].clone(),
                    output: message_names[output % message_names.len()].clone(),
                    client_streaming: *cs,
                    server_streaming: *ss,
                })
                .collect(),
        }]
    };
    ProtoFile {
        proto2,
        package: "gen.v1".into(),
        enums,
        messages,
        services,
    }
}

fn proto_file() -> impl Strategy<Value = ProtoFile> {
    let message = (
        prop::collection::vec(field_shape(), 1..6),
        prop::collection::vec(field_shape(), 0..3),
    );
    (
        any::<bool>(),
        prop::collection::vec(2usize..5, 0..3),
        prop::collection::vec(message, 1..4),
        prop::collection::vec(
            (any::<usize>(), any::<usize>(), any::<bool>(), any::<bool>()),
            0..3,
        ),
    )
        .prop_map(|(proto2, enums, messages, methods)| assemble(proto2, enums, messages, methods))
}

// ---- running a comparison ----------------------------------------------------------------------

fn rules() -> Vec<&'static RuleMeta> {
    let config = Config::from_buf_yaml(CONFIG, "buf.yaml").expect("config parses");
    // buf's rules only: the HAZARD rules (on in every config) have their own rule cases.
    let mut rules = config.select().expect("rules resolve").rules;
    rules.retain(|r| !r.categories.contains(&protocompat::rules::HAZARD));
    rules
}

fn build(text: &str) -> Schema {
    let file = SourceFile {
        path: "gen/v1/gen.proto".into(),
        display_name: "gen/v1/gen.proto".into(),
        text: Arc::from(text),
    };
    match build_schema(vec![file], &NoImports) {
        Ok(out) => out.schema,
        Err(e) => {
            let errors: Vec<String> = e.diagnostics.iter().map(|d| format!("{d:?}")).collect();
            panic!(
                "generated schema does not build:\n{text}\n{}",
                errors.join("\n")
            )
        }
    }
}

/// Rule ids found comparing `old` to `new`, sorted (with repeats).
fn findings(old: &ProtoFile, new: &ProtoFile) -> Vec<String> {
    let (old_text, new_text) = (old.render(), new.render());
    let (old_schema, new_schema) = (build(&old_text), build(&new_text));
    let found = engine::run_rules(&Diff::new(&old_schema, &new_schema), &rules());
    let mut ids: Vec<String> = found.iter().map(|f| f.rule.to_string()).collect();
    ids.sort();
    if let Ok(buf) = std::env::var("PROTOCOMPAT_BUF") {
        let from_buf = buf_findings(&buf, &old_text, &new_text);
        assert_eq!(
            ids, from_buf,
            "protocompat and buf differ\nold:\n{old_text}\nnew:\n{new_text}"
        );
    }
    ids
}

/// Runs buf on the two texts and returns its rule ids, sorted.
fn buf_findings(buf: &str, old: &str, new: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    for (side, text) in [("old", old), ("new", new)] {
        let proto = dir.path().join(side).join("gen/v1");
        std::fs::create_dir_all(&proto).expect("mkdir");
        std::fs::write(proto.join("gen.proto"), text).expect("write");
        std::fs::write(dir.path().join(side).join("buf.yaml"), CONFIG).expect("write");
    }
    let out = std::process::Command::new(buf)
        .args([
            "breaking",
            "new",
            "--against",
            "old",
            "--error-format",
            "json",
        ])
        .current_dir(dir.path())
        .output()
        .expect("buf runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        matches!(out.status.code(), Some(0 | 100)),
        "buf failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut ids: Vec<String> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["type"].as_str().map(str::to_string))
        .collect();
    ids.sort();
    ids
}

fn sorted(ids: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

// ---- mutations -------------------------------------------------------------------------------

/// A mutation applied at a chosen place; `None` when the file has no such place.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteField(usize),
    /// A scalar field's type changed to another scalar.
    ChangeScalarType(usize, usize),
    RenameField(usize),
    RenumberField(usize),
    MoveIntoOneof(usize),
    MakeRepeated(usize),
    DeleteEnumValue(usize, usize),
    ChangePackage,
    DeleteMessage(usize),
    DeleteRpc(usize),
    FlipServerStreaming(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::DeleteField),
        (any::<usize>(), any::<usize>()).prop_map(|(f, t)| Mutation::ChangeScalarType(f, t)),
        any::<usize>().prop_map(Mutation::RenameField),
        any::<usize>().prop_map(Mutation::RenumberField),
        any::<usize>().prop_map(Mutation::MoveIntoOneof),
        any::<usize>().prop_map(Mutation::MakeRepeated),
        (any::<usize>(), any::<usize>()).prop_map(|(e, v)| Mutation::DeleteEnumValue(e, v)),
        Just(Mutation::ChangePackage),
        any::<usize>().prop_map(Mutation::DeleteMessage),
        any::<usize>().prop_map(Mutation::DeleteRpc),
        any::<usize>().prop_map(Mutation::FlipServerStreaming),
    ]
}

/// What a mutation must produce: the rule ids from old to new, and from new to old.
struct Expected {
    forward: Vec<String>,
    backward: Vec<String>,
}

fn pick<T>(items: &[T], index: &usize) -> Option<usize> {
    (!items.is_empty()).then(|| index % items.len())
}

/// Applies `mutation` to a copy of `file`; returns it with the rules it must trigger.
fn apply(file: &ProtoFile, mutation: &Mutation) -> Option<(ProtoFile, Expected)> {
    let mut new = file.clone();
    let expected = match mutation {
        Mutation::DeleteField(i) => {
            let (mi, fi) = file.plain_fields()[pick(&file.plain_fields(), i)?];
            new.messages[mi].fields.remove(fi);
            Expected {
                forward: sorted(&[
                    "FIELD_NO_DELETE",
                    "FIELD_NO_DELETE_UNLESS_NAME_RESERVED",
                    "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED",
                ]),
                backward: Vec::new(),
            }
        }
        Mutation::ChangeScalarType(i, to) => {
            let scalars = file.fields_where(|f| matches!(f.ty, Ty::Scalar(_)));
            let (mi, fi) = scalars[pick(&scalars, i)?];
            let field = &mut new.messages[mi].fields[fi];
            let Ty::Scalar(from) = field.ty else {
                return None;
            };
            let to = SCALARS[to % SCALARS.len()];
            if to == from {
                return None;
            }
            field.ty = Ty::Scalar(to);
            Expected {
                forward: type_change_rules(from, to),
                backward: type_change_rules(to, from),
            }
        }
        Mutation::RenameField(i) => {
            let all = file.fields_where(|_| true);
            let (mi, fi) = all[pick(&all, i)?];
            new.messages[mi].fields[fi].name.push_str("_renamed");
            let both = sorted(&["FIELD_SAME_JSON_NAME", "FIELD_SAME_NAME"]);
            Expected {
                forward: both.clone(),
                backward: both,
            }
        }
        Mutation::RenumberField(i) => {
            let (mi, fi) = file.plain_fields()[pick(&file.plain_fields(), i)?];
            let message = &mut new.messages[mi];
            let unused = message.fields.iter().map(|f| f.number).max().unwrap_or(0) + 1;
            message.fields[fi].number = unused;
            // The old number is gone (a deletion); the new one is an addition.
            let deleted = sorted(&[
                "FIELD_NO_DELETE",
                "FIELD_NO_DELETE_UNLESS_NAME_RESERVED",
                "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED",
            ]);
            Expected {
                forward: deleted.clone(),
                backward: deleted,
            }
        }
        Mutation::MoveIntoOneof(i) => {
            let movable = file.fields_where(|f| f.oneof.is_none() && f.label != Label::Repeated);
            let (mi, fi) = movable[pick(&movable, i)?];
            let message = &mut new.messages[mi];
            message.oneofs.push("moved".into());
            let oneof = message.oneofs.len() - 1;
            let field = &mut message.fields[fi];
            field.oneof = Some(oneof);
            // Implicit presence becomes explicit inside a oneof.
            let mut rules = vec!["FIELD_SAME_ONEOF"];
            if field.label == Label::Implicit && is_scalar_or_enum(file, &field.ty) {
                rules.push("FIELD_SAME_CARDINALITY");
            }
            let forward = sorted(&rules);
            // Swapped, the new oneof is deleted.
            rules.push("ONEOF_NO_DELETE");
            Expected {
                forward,
                backward: sorted(&rules),
            }
        }
        Mutation::MakeRepeated(i) => {
            let singular = file.fields_where(|f| f.oneof.is_none() && f.label != Label::Repeated);
            let (mi, fi) = singular[pick(&singular, i)?];
            new.messages[mi].fields[fi].label = Label::Repeated;
            let rules = sorted(&[
                "FIELD_SAME_CARDINALITY",
                "FIELD_WIRE_COMPATIBLE_CARDINALITY",
                "FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY",
            ]);
            Expected {
                forward: rules.clone(),
                backward: rules,
            }
        }
        Mutation::DeleteEnumValue(e, v) => {
            let ei = pick(&file.enums, e)?;
            let values = &mut new.enums[ei].values;
            // Keep the zero value: it is the default.
            let vi = 1 + pick(&values[1..], v)?;
            values.remove(vi);
            Expected {
                forward: sorted(&[
                    "ENUM_VALUE_NO_DELETE",
                    "ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED",
                    "ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED",
                ]),
                backward: Vec::new(),
            }
        }
        Mutation::ChangePackage => {
            new.package = "gen.v2".into();
            Expected {
                forward: package_change_rules(file),
                backward: package_change_rules(file),
            }
        }
        Mutation::DeleteMessage(i) => {
            let unreferenced: Vec<usize> = (0..file.messages.len())
                .filter(|&m| !file.is_referenced(&file.messages[m].name))
                .collect();
            let mi = unreferenced[pick(&unreferenced, i)?];
            let deleted = new.messages.remove(mi);
            // One finding per message gone, nested ones included; buf says nothing per
            // package when the package's last message goes.
            let gone = 1 + deleted.nested.len();
            let mut rules = vec!["MESSAGE_NO_DELETE"; gone];
            if !new.messages.is_empty() {
                rules.extend(std::iter::repeat_n("PACKAGE_MESSAGE_NO_DELETE", gone));
            }
            let forward = sorted(&rules);
            Expected {
                forward,
                backward: Vec::new(),
            }
        }
        Mutation::DeleteRpc(i) => {
            let service = new.services.first_mut()?;
            let mi = pick(&service.methods, i)?;
            service.methods.remove(mi);
            Expected {
                forward: sorted(&["RPC_NO_DELETE"]),
                backward: Vec::new(),
            }
        }
        Mutation::FlipServerStreaming(i) => {
            let service = new.services.first_mut()?;
            let mi = pick(&service.methods, i)?;
            let method = &mut service.methods[mi];
            method.server_streaming = !method.server_streaming;
            let rules = sorted(&["RPC_SAME_SERVER_STREAMING"]);
            Expected {
                forward: rules.clone(),
                backward: rules,
            }
        }
    };
    Some((new, expected))
}

fn is_scalar_or_enum(file: &ProtoFile, ty: &Ty) -> bool {
    match ty {
        Ty::Scalar(_) => true,
        Ty::Named(name) => file.enums.iter().any(|e| &e.name == name),
    }
}

fn type_change_rules(from: &str, to: &str) -> Vec<String> {
    let mut rules = vec!["FIELD_SAME_TYPE"];
    // string -> bytes is the one cross-group change buf accepts on the wire.
    if wire_group(from) != wire_group(to) && !(from == "string" && to == "bytes") {
        rules.push("FIELD_WIRE_COMPATIBLE_TYPE");
    }
    if wire_json_group(from) != wire_json_group(to) {
        rules.push("FIELD_WIRE_JSON_COMPATIBLE_TYPE");
    }
    sorted(&rules)
}

/// A file moved to another package: the package changed and its old package is gone. buf
/// reports nothing per type then (the deleted package covers them).
fn package_change_rules(_file: &ProtoFile) -> Vec<String> {
    sorted(&["FILE_SAME_PACKAGE", "PACKAGE_NO_DELETE"])
}

// ---- properties ------------------------------------------------------------------------------

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(48),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_schema_compared_with_itself_has_no_findings(file in proto_file()) {
        prop_assert_eq!(findings(&file, &file), Vec::<String>::new());
    }

    #[test]
    fn reordering_declarations_has_no_findings(file in proto_file(), seed in any::<u64>()) {
        let reordered = file.reordered(seed);
        prop_assert_eq!(findings(&file, &reordered), Vec::<String>::new());
        prop_assert_eq!(findings(&reordered, &file), Vec::<String>::new());
    }

    #[test]
    fn each_mutation_yields_exactly_its_rules(file in proto_file(), mutation in mutation()) {
        let Some((new, expected)) = apply(&file, &mutation) else {
            return Ok(());
        };
        prop_assert_eq!(findings(&file, &new), expected.forward, "{:?}", mutation);
        // Swapped: a deletion becomes an addition, which no rule flags.
        prop_assert_eq!(findings(&new, &file), expected.backward, "{:?} swapped", mutation);
    }
}

/// The mutation table itself: every kind applies to some generated file (a kind that never
/// applies would test nothing).
#[test]
fn every_mutation_kind_applies_somewhere() {
    let file = assemble(
        false,
        vec![3],
        vec![
            (
                vec![(2, 0, false), (0, 1, false), (13, 0, true)],
                vec![(3, 2, false)],
            ),
            (vec![(4, 0, false)], Vec::new()),
        ],
        // Call0(M0) returns (stream M0): M1 is referenced by nothing and can be deleted.
        vec![(0, 0, false, true)],
    );
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mutations = [
        Mutation::DeleteField(0),
        Mutation::ChangeScalarType(0, 13),
        Mutation::RenameField(0),
        Mutation::RenumberField(0),
        Mutation::MoveIntoOneof(0),
        Mutation::MakeRepeated(0),
        Mutation::DeleteEnumValue(0, 0),
        Mutation::ChangePackage,
        Mutation::DeleteMessage(1),
        Mutation::DeleteRpc(0),
        Mutation::FlipServerStreaming(0),
    ];
    for mutation in &mutations {
        let (new, expected) = apply(&file, mutation).unwrap_or_else(|| panic!("{mutation:?}"));
        assert_eq!(findings(&file, &new), expected.forward, "{mutation:?}");
        assert_eq!(
            findings(&new, &file),
            expected.backward,
            "{mutation:?} swapped"
        );
        *counts.entry(format!("{mutation:?}")).or_default() += 1;
    }
    assert_eq!(counts.len(), mutations.len());
}
