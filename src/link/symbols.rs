//! The symbol table of a build: every name declared by every file (types, packages, and the
//! non-type names sharing their scopes), plus the facts about other files' types that
//! lowering needs (closed enums, extension ranges).

use std::collections::{HashMap, HashSet};

/// The tables of a build are keyed by full names and read by every lookup of lowering and
/// validation: hashed with ahash (SipHash dominated building and reading them).
pub(super) type NameMap<V> = HashMap<String, V, ahash::RandomState>;
/// The symbol table itself, by full name. A large build declares millions of names (and a
/// check holds the old build's model while the new build's table is full), most of them
/// long (`acme.billing.v1.Invoice.line_items`) and sharing their scope with many others. So
/// a name is kept as its last component and the node of its scope, which every name of
/// that scope shares: a node is 24 bytes plus that component, in large shared buffers, and
/// the hash table holds 8 bytes per slot (where a `HashMap<String, Sym>` took a 40-byte slot
/// and an allocation of the whole name). Freeing it is a few frees.
///
/// Why a lookup finds exactly the node of that full name: a node's full name is its scope
/// node's full name, a dot, and its component (or the component alone at the root), by
/// construction ([`SymbolMap::insert_new`]); [`SymbolMap::spells`] compares the asked name
/// against that, component by component from the end, and the hash is the whole name's.
#[derive(Default)]
pub(super) struct SymbolMap {
    nodes: Vec<Node>,
    /// Each node's index, beside 32 bits of its full name's hash (rehashing needs no name).
    slots: hashbrown::HashTable<(u32, u32)>,
    /// The components end to end; a chunk is never reallocated once written (a component
    /// longer than [`SymbolMap::CHUNK`] gets a chunk of its own).
    chunks: Vec<String>,
    hasher: ahash::RandomState,
    /// The scope of the last name added and its node: the names of one scope come together.
    last_scope: Option<(String, u32)>,
}

/// A name of [`SymbolMap`]: its scope's node ([`Node::ROOT`] for none), where its last
/// component is in the chunks, and its symbol.
#[derive(Clone, Copy)]
struct Node {
    scope: u32,
    chunk: u32,
    start: u32,
    len: u32,
    sym: Sym,
}

impl Node {
    const ROOT: u32 = u32::MAX;
}

impl SymbolMap {
    /// Bytes per chunk of components.
    const CHUNK: usize = 1 << 20;

    fn component(&self, node: &Node) -> &str {
        let start = node.start as usize;
        &self.chunks[node.chunk as usize][start..start + node.len as usize]
    }

    /// 32 bits of the name's hash, and the 64 the table is given (spread from them, so that
    /// the table's top bits vary too).
    fn hash(&self, name: &str) -> (u32, u64) {
        let short = self.hasher.hash_one(name) as u32;
        (short, widen(short))
    }

    /// Whether `name` is the full name of node `index`.
    fn spells(&self, mut index: u32, name: &str) -> bool {
        let mut rest = name;
        loop {
            let node = &self.nodes[index as usize];
            let Some(before) = rest.strip_suffix(self.component(node)) else {
                return false;
            };
            if node.scope == Node::ROOT {
                return before.is_empty();
            }
            let Some(scope) = before.strip_suffix('.') else {
                return false;
            };
            rest = scope;
            index = node.scope;
        }
    }

    fn find(&self, name: &str) -> Option<u32> {
        let (short, hash) = self.hash(name);
        self.find_hashed(name, short, hash)
    }

    fn find_hashed(&self, name: &str, short: u32, hash: u64) -> Option<u32> {
        self.slots
            .find(hash, |&(index, h)| h == short && self.spells(index, name))
            .map(|&(index, _)| index)
    }

    /// The symbol named `name`.
    pub(super) fn get(&self, name: &str) -> Option<&Sym> {
        self.find(name).map(|index| &self.nodes[index as usize].sym)
    }

    /// Room for `additional` more names without growing.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.nodes.reserve_exact(additional);
        self.slots.reserve(additional, |&(_, h)| widen(h));
    }

    /// Adds `name` with `sym`, unless the table has it: then the symbol already there.
    pub(super) fn insert_new(&mut self, name: &str, sym: Sym) -> Result<(), Sym> {
        let dot = memchr::memrchr(b'.', name.as_bytes());
        self.insert_split(name, dot, sym)
    }

    /// [`SymbolMap::insert_new`], given where the last dot of `name` is.
    fn insert_split(&mut self, name: &str, dot: Option<usize>, sym: Sym) -> Result<(), Sym> {
        let (short, hash) = self.hash(name);
        if let Some(index) = self.find_hashed(name, short, hash) {
            return Err(self.nodes[index as usize].sym);
        }
        // Under the node of its scope when the table has one (it does for every name a
        // file declares: packages, then each scope before what it holds); else the whole
        // name is the component, which spells it as well.
        let (scope, component) = match dot {
            Some(dot) => match self.scope_node(&name[..dot]) {
                Some(scope) => (scope, &name[dot + 1..]),
                None => (Node::ROOT, name),
            },
            None => (Node::ROOT, name),
        };
        let (chunk, start) = self.store(component);
        let index = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&i| i != Node::ROOT)
            .expect("fewer than 2^32 - 1 names in a build");
        self.nodes.push(Node {
            scope,
            chunk,
            start,
            len: offset(component.len()),
            sym,
        });
        self.slots
            .insert_unique(hash, (index, short), |&(_, h)| widen(h));
        Ok(())
    }

    /// The node named `scope`, remembered for the next name of the same scope.
    fn scope_node(&mut self, scope: &str) -> Option<u32> {
        if let Some((last, index)) = &self.last_scope {
            if last == scope {
                return Some(*index);
            }
        }
        let index = self.find(scope)?;
        let mut last = self.last_scope.take().map(|(s, _)| s).unwrap_or_default();
        last.clear();
        last.push_str(scope);
        self.last_scope = Some((last, index));
        Some(index)
    }

    /// Copies `component` into the last chunk with room for it (a new one if none): its
    /// chunk and offset.
    fn store(&mut self, component: &str) -> (u32, u32) {
        let fits = self
            .chunks
            .last()
            .is_some_and(|chunk| chunk.capacity() - chunk.len() >= component.len());
        if !fits {
            self.chunks
                .push(String::with_capacity(component.len().max(Self::CHUNK)));
        }
        let index = self.chunks.len() - 1;
        let chunk = &mut self.chunks[index];
        let start = chunk.len();
        chunk.push_str(component);
        (offset(index), offset(start))
    }
}

/// The table's 64-bit hash from the 32 bits kept per slot.
fn widen(short: u32) -> u64 {
    u64::from(short).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn offset(n: usize) -> u32 {
    u32::try_from(n).expect("fewer than 2^32 chunks and bytes")
}
pub(super) type NameSet = HashSet<String, ahash::RandomState>;

use crate::model::{map_entry_name, OptionValue, Span};
use crate::syntax::ast::{self, EnumItem, MessageItem, TopItem, TypeRef};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SymKind {
    Package,
    Message,
    Enum,
    Service,
    /// A oneof, enum value or method: not a type, not a scope.
    Value,
    /// A field or an extension (extensions are also in [`Symbols::extensions`]).
    Field,
}

impl SymKind {
    /// Whether names can be looked up inside the symbol (a package, message, enum or service).
    pub(super) fn is_scope(self) -> bool {
        !matches!(self, SymKind::Value | SymKind::Field)
    }
}

/// Where an extension is declared: its extendee as written and the scope the `extend` block
/// is in, to resolve the extendee from (custom options name extensions of an options message).
#[derive(Debug, Clone)]
pub(super) struct Extension {
    pub extendee: String,
    pub scope: String,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Sym {
    pub kind: SymKind,
    /// The declaring file's index ([`Sym::file`]), as 32 bits: see [`SymbolMap`].
    file: u32,
}

impl Sym {
    pub(super) fn new(kind: SymKind, file: usize) -> Sym {
        let file = u32::try_from(file).expect("fewer than 2^32 files in a build");
        Sym { kind, file }
    }

    /// The index of the file declaring the symbol.
    pub(super) fn file(self) -> usize {
        self.file as usize
    }
}

/// Every symbol of every file in the build, by full name.
#[derive(Default)]
pub(super) struct Symbols {
    pub(super) map: SymbolMap,
    /// Path of each file, by index (for "not imported" hints).
    pub paths: Vec<String>,
    /// Package of each file, by index (`""` when it declares none): packages are visible
    /// only through the files that declare them.
    pub packages: Vec<String>,
    /// The closed enums (proto2 semantics), which proto3 messages and implicit-presence
    /// fields cannot use, by full name, with the number of their first value (a map value
    /// must not be a closed enum whose first value is not zero).
    pub(super) closed_enums: NameMap<i64>,
    /// Extension ranges (inclusive) of every message that declares some, by full name.
    pub(super) extension_ranges: NameMap<Vec<(i64, i64)>>,
    /// Every extension, by full name.
    pub(super) extensions: NameMap<Extension>,
    /// The entry messages synthesized for map fields, by full name: no field may name them.
    pub(super) map_entries: NameSet,
    /// The messages with `message_set_wire_format = true`, by full name: their extensions
    /// must be optional messages.
    pub(super) message_sets: NameSet,
    /// The messages and enums that only their own file may use (edition 2024's `local`,
    /// written or by `default_symbol_visibility`), by full name.
    pub(super) local_types: NameMap<LocalBy>,
    /// Whether each file, by index, says `optimize_for = LITE_RUNTIME` (a file that does not
    /// cannot import one that does).
    pub lite: Vec<bool>,
}

/// The `features.enum_type` the options set last: whether it is `CLOSED`.
fn enum_type<'o>(options: impl Iterator<Item = &'o ast::OptionDecl>) -> Option<bool> {
    options
        .filter(|o| o.has_name("features.enum_type"))
        .last()
        .map(|o| o.value == OptionValue::Ident("CLOSED".into()))
}

/// Whether the enums of a file are closed unless they say otherwise: the file's
/// `features.enum_type`, else the syntax default (proto2 closed; proto3 and editions open).
fn enums_closed_by_default(ast: &ast::FileAst) -> bool {
    let file = enum_type(ast.items.iter().filter_map(|item| match item {
        TopItem::Option(o) => Some(o),
        _ => None,
    }));
    let by_syntax = !matches!(
        &ast.syntax,
        Some(decl) if decl.kind == ast::SyntaxKind::Edition || decl.value == "proto3"
    );
    file.unwrap_or(by_syntax)
}

/// Whether an enum is closed: its own `features.enum_type`, else the file's default
/// ([`enums_closed_by_default`]).
fn enum_is_closed(closed_by_default: bool, decl: &ast::EnumDecl) -> bool {
    let own = enum_type(decl.body.iter().filter_map(|item| match item {
        EnumItem::Option(o) => Some(o),
        _ => None,
    }));
    own.unwrap_or(closed_by_default)
}

/// Why a type is local to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LocalBy {
    /// `local message M {}`.
    Keyword,
    /// The file's `features.default_symbol_visibility`, named here.
    Default(&'static str),
}

/// The file's `features.default_symbol_visibility` from edition 2024 on (`EXPORT_TOP_LEVEL`
/// unless set); `None` before, where every type is exported.
pub(super) fn default_visibility(ast: &ast::FileAst) -> Option<&'static str> {
    let edition = ast
        .syntax
        .as_ref()
        .filter(|decl| decl.kind == ast::SyntaxKind::Edition)?;
    // Edition names of one length compare as numbers.
    if edition.value.as_str() < "2024" {
        return None;
    }
    let mut value = "EXPORT_TOP_LEVEL".to_string();
    for item in &ast.items {
        let TopItem::Option(o) = item else { continue };
        match (&o.value, o.canonical_name().as_str()) {
            (OptionValue::Ident(v), "features.default_symbol_visibility") => value = v.clone(),
            (OptionValue::Aggregate(text), "features") => {
                let set = super::features::simple_fields(text);
                if let Some((_, v)) = set
                    .into_iter()
                    .find(|(k, _)| k == "default_symbol_visibility")
                {
                    value = v;
                }
            }
            _ => {}
        }
    }
    Some(match value.as_str() {
        // By name, or by number in a literal (`{ default_symbol_visibility: 4 }`).
        "EXPORT_ALL" | "1" => "EXPORT_ALL",
        "LOCAL_ALL" | "3" => "LOCAL_ALL",
        "STRICT" | "4" => "STRICT",
        _ => "EXPORT_TOP_LEVEL",
    })
}

/// Whether a message or enum is local to its file, and why (protoc's
/// `Symbol::GetEffectiveVisibility`).
fn local_by(
    keyword: Option<ast::Visibility>,
    default: Option<&'static str>,
    nested: bool,
) -> Option<LocalBy> {
    match (keyword, default?) {
        (Some(ast::Visibility::Local), _) => Some(LocalBy::Keyword),
        (Some(ast::Visibility::Export), _) | (None, "EXPORT_ALL") => None,
        (None, "EXPORT_TOP_LEVEL") if !nested => None,
        (None, default) => Some(LocalBy::Default(default)),
    }
}

pub(super) type Errors = Vec<(usize, Span, String)>;

pub(super) fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        // Called for every declared name: one exact allocation, no formatting machinery.
        let mut full = String::with_capacity(scope.len() + 1 + name.len());
        full.push_str(scope);
        full.push('.');
        full.push_str(name);
        full
    }
}

pub(super) fn file_package(ast: &ast::FileAst) -> &str {
    ast.items
        .iter()
        .find_map(|item| match item {
            TopItem::Package(p) => Some(p.name.text.as_str()),
            _ => None,
        })
        .unwrap_or("")
}

/// Records the symbols one file declares: packages, messages (including the ones groups
/// and map fields synthesize), enums, services, and the non-type names that share their
/// scopes (fields, oneofs, enum values, methods, extensions), so that a clash between any
/// two is reported as protoc and buf report it.
pub(super) fn collect_symbols(
    ast: &ast::FileAst,
    file: usize,
    symbols: &mut Symbols,
    errors: &mut Errors,
) {
    let package = file_package(ast);
    let mut prefix = String::new();
    for part in package.split('.').filter(|p| !p.is_empty()) {
        prefix = join(&prefix, part);
        // A package named again (by this file or another) keeps its first symbol.
        let _ = symbols
            .map
            .insert_new(&prefix, Sym::new(SymKind::Package, file));
    }
    record_closed_enums(ast, package, &mut symbols.closed_enums);
    let mut collector = Collector {
        symbols,
        errors,
        file,
        default_visibility: default_visibility(ast),
        name: String::new(),
    };
    for item in &ast.items {
        match item {
            TopItem::Message(m) => collector.message(package, m, false),
            TopItem::Enum(e) => collector.enumeration(package, e, false),
            TopItem::Service(s) => {
                let name = join(package, &s.name.text);
                collector.add(&name, SymKind::Service, s.name.span);
                for method in &s.methods {
                    collector.add_in(&name, &method.name.text, SymKind::Value, method.name.span);
                }
            }
            TopItem::Extend(e) => collector.extend(package, e),
            _ => {}
        }
    }
}

/// How many names [`collect_symbols`] records for a file, at most (a package once per
/// component, though files share them): the table is sized once for the whole build
/// instead of rehashing every name each time it doubles.
pub(super) fn declared_names(ast: &ast::FileAst) -> usize {
    fn in_enum(decl: &ast::EnumDecl) -> usize {
        let values = decl.body.iter();
        1 + values
            .filter(|item| matches!(item, EnumItem::Value(_)))
            .count()
    }
    fn in_field(field: &ast::FieldDecl) -> usize {
        match (&field.ty, &field.group_body) {
            (TypeRef::Group, Some(body)) => 2 + in_message(body),
            (TypeRef::Map { .. }, _) => 2,
            _ => 1,
        }
    }
    fn in_message(items: &[MessageItem]) -> usize {
        let count = |item: &MessageItem| match item {
            MessageItem::Message(m) => 1 + in_message(&m.body),
            MessageItem::Enum(e) => in_enum(e),
            MessageItem::Field(f) => in_field(f),
            MessageItem::Oneof(o) => 1 + o.fields.iter().map(in_field).sum::<usize>(),
            MessageItem::Extend(e) => e.fields.iter().map(in_field).sum(),
            _ => 0,
        };
        items.iter().map(count).sum()
    }
    let count = |item: &TopItem| match item {
        TopItem::Message(m) => 1 + in_message(&m.body),
        TopItem::Enum(e) => in_enum(e),
        TopItem::Service(s) => 1 + s.methods.len(),
        TopItem::Extend(e) => e.fields.iter().map(in_field).sum(),
        _ => 0,
    };
    file_package(ast).split('.').count() + ast.items.iter().map(count).sum::<usize>()
}

struct Collector<'a> {
    symbols: &'a mut Symbols,
    errors: &'a mut Errors,
    file: usize,
    default_visibility: Option<&'static str>,
    /// The buffer [`Collector::add_in`] builds full names in: the table copies each name,
    /// so a field or enum value needs no string of its own.
    name: String,
}

impl Collector<'_> {
    /// Records `name`, or reports it defined twice (a package may be declared again).
    fn add(&mut self, name: &str, kind: SymKind, span: Span) {
        if let Err(existing) = self.symbols.map.insert_new(name, Sym::new(kind, self.file)) {
            self.defined_twice(name, existing, kind, span);
        }
    }

    /// Reports `name` declared again, unless both are packages.
    fn defined_twice(&mut self, name: &str, existing: Sym, kind: SymKind, span: Span) {
        if existing.kind != SymKind::Package || kind != SymKind::Package {
            let hint = if !kind.is_scope() || !existing.kind.is_scope() {
                " (fields, oneofs, nested types and enum values share their scope; enum values are siblings of their enum)"
            } else {
                ""
            };
            self.errors.push((
                self.file,
                span,
                format!("`{name}` is already defined{hint}"),
            ));
        }
    }

    /// [`Collector::add`] of `scope.name` (a simple name: its last dot is the scope's).
    fn add_in(&mut self, scope: &str, name: &str, kind: SymKind, span: Span) {
        let mut full = std::mem::take(&mut self.name);
        full.clear();
        let dot = (!scope.is_empty()).then(|| {
            full.push_str(scope);
            full.push('.');
            scope.len()
        });
        full.push_str(name);
        let added = self
            .symbols
            .map
            .insert_split(&full, dot, Sym::new(kind, self.file));
        if let Err(existing) = added {
            self.defined_twice(&full, existing, kind, span);
        }
        self.name = full;
    }

    fn message(&mut self, scope: &str, decl: &ast::MessageDecl, nested: bool) {
        let name = join(scope, &decl.name.text);
        self.visibility(&name, decl.visibility, nested);
        self.add(&name, SymKind::Message, decl.name.span);
        self.extension_ranges(&name, &decl.body);
        self.message_items(&name, &decl.body);
    }

    /// `max` reaches the int32 maximum in message-set messages.
    fn extension_ranges(&mut self, name: &str, body: &[MessageItem]) {
        let message_set = body.iter().any(|item| {
            matches!(item, MessageItem::Option(o)
                if o.has_name("message_set_wire_format")
                    && o.value == OptionValue::Ident("true".into()))
        });
        let ranges: Vec<(i64, i64)> = body
            .iter()
            .filter_map(|item| match item {
                MessageItem::Extensions(e) => Some(e.ranges.iter()),
                _ => None,
            })
            .flatten()
            .map(|r| {
                let end = if r.end_is_max && message_set {
                    i64::from(i32::MAX)
                } else {
                    r.end
                };
                (r.start, end)
            })
            .collect();
        if message_set {
            self.symbols.message_sets.insert(name.to_string());
        }
        if !ranges.is_empty() {
            self.symbols
                .extension_ranges
                .insert(name.to_string(), ranges);
        }
    }

    fn visibility(&mut self, name: &str, keyword: Option<ast::Visibility>, nested: bool) {
        if let Some(why) = local_by(keyword, self.default_visibility, nested) {
            self.symbols.local_types.insert(name.to_string(), why);
        }
    }

    fn enumeration(&mut self, scope: &str, decl: &ast::EnumDecl, nested: bool) {
        let name = join(scope, &decl.name.text);
        self.visibility(&name, decl.visibility, nested);
        self.add(&name, SymKind::Enum, decl.name.span);
        for item in &decl.body {
            if let EnumItem::Value(v) = item {
                self.add_in(scope, &v.name.text, SymKind::Value, v.name.span);
            }
        }
    }

    fn message_items(&mut self, scope: &str, items: &[MessageItem]) {
        for item in items {
            match item {
                MessageItem::Message(m) => self.message(scope, m, true),
                MessageItem::Enum(e) => self.enumeration(scope, e, true),
                MessageItem::Field(f) => self.field(scope, f),
                MessageItem::Oneof(o) => {
                    self.add_in(scope, &o.name.text, SymKind::Value, o.name.span);
                    for f in &o.fields {
                        self.field(scope, f);
                    }
                }
                MessageItem::Extend(e) => self.extend(scope, e),
                _ => {}
            }
        }
    }

    fn extend(&mut self, scope: &str, decl: &ast::ExtendDecl) {
        for f in &decl.fields {
            self.field(scope, f);
            let extension = Extension {
                extendee: decl.extendee.text.to_string(),
                scope: scope.to_string(),
            };
            let name = match (&f.ty, &f.group_body) {
                (TypeRef::Group, Some(_)) => f.name.text.as_str().to_ascii_lowercase(),
                _ => f.name.text.to_string(),
            };
            self.symbols
                .extensions
                .insert(join(scope, &name), extension);
        }
    }

    /// A field (or extension) in `scope`, and the message a group or map field creates.
    fn field(&mut self, scope: &str, field: &ast::FieldDecl) {
        match (&field.ty, &field.group_body) {
            (TypeRef::Group, Some(body)) => {
                let name = join(scope, &field.name.text);
                self.add(&name, SymKind::Message, field.name.span);
                self.extension_ranges(&name, body);
                self.message_items(&name, body);
                let field_name = field.name.text.to_ascii_lowercase();
                self.add_in(scope, &field_name, SymKind::Field, field.name.span);
            }
            (TypeRef::Map { .. }, _) => {
                let entry = join(scope, &map_entry_name(&field.name.text));
                self.symbols.map_entries.insert(entry.clone());
                self.add(&entry, SymKind::Message, field.name.span);
                self.add_in(scope, &field.name.text, SymKind::Field, field.name.span);
            }
            _ => self.add_in(scope, &field.name.text, SymKind::Field, field.name.span),
        }
    }
}

/// Adds the file's closed enums (top-level and nested) to `closed`, with their first value.
fn record_closed_enums(ast: &ast::FileAst, package: &str, closed: &mut NameMap<i64>) {
    fn first_value(e: &ast::EnumDecl) -> i64 {
        e.body
            .iter()
            .find_map(|item| match item {
                EnumItem::Value(v) => Some(v.number),
                _ => None,
            })
            .unwrap_or(0)
    }
    fn in_message(
        closed_by_default: bool,
        scope: &str,
        items: &[MessageItem],
        closed: &mut NameMap<i64>,
    ) {
        for item in items {
            match item {
                MessageItem::Enum(e) if enum_is_closed(closed_by_default, e) => {
                    closed.insert(join(scope, &e.name.text), first_value(e));
                }
                MessageItem::Message(m) => {
                    let scope = join(scope, &m.name.text);
                    in_message(closed_by_default, &scope, &m.body, closed)
                }
                MessageItem::Field(ast::FieldDecl {
                    name,
                    group_body: Some(body),
                    ..
                }) => in_message(closed_by_default, &join(scope, &name.text), body, closed),
                _ => {}
            }
        }
    }
    let closed_by_default = enums_closed_by_default(ast);
    for item in &ast.items {
        match item {
            TopItem::Enum(e) if enum_is_closed(closed_by_default, e) => {
                closed.insert(join(package, &e.name.text), first_value(e));
            }
            TopItem::Message(m) => {
                let scope = join(package, &m.name.text);
                in_message(closed_by_default, &scope, &m.body, closed)
            }
            _ => {}
        }
    }
}

/// Whether a file sets `option optimize_for = LITE_RUNTIME;`.
pub(super) fn is_lite(ast: &ast::FileAst) -> bool {
    ast.items.iter().any(|item| {
        matches!(item, TopItem::Option(o)
            if o.has_name("optimize_for")
                && o.value == OptionValue::Ident("LITE_RUNTIME".into()))
    })
}

#[cfg(test)]
mod symbol_map_tests {
    use super::{Sym, SymKind, SymbolMap};

    /// The table answers as a map by full name would: names under a scope it holds, under
    /// one it does not (kept whole), one name inside another's spelling, and repeats.
    #[test]
    fn finds_each_name_as_a_map_by_full_name_would() {
        let mut map = SymbolMap::default();
        let names = [
            "a",
            "a.b",
            "a.b.M",
            "a.b.M.f",
            "a.b.M.ff",
            "a.b.Mf",
            "x.y.z",
            "x.y",
            "a.b.M.N.g",
            "ab",
        ];
        map.reserve(2);
        for (file, name) in names.iter().enumerate() {
            assert!(map.insert_new(name, Sym::new(SymKind::Field, file)).is_ok());
        }
        for (file, name) in names.iter().enumerate() {
            assert_eq!(map.get(name).map(|s| s.file()), Some(file), "{name}");
            let again = map.insert_new(name, Sym::new(SymKind::Message, 99));
            assert_eq!(again.map_err(|s| s.file()), Err(file), "{name}");
        }
        for absent in [
            "", "b", "a.", ".a", "a.b.M.", "b.M.f", "a.bM", "a.b.M.N", "x", "y.z",
        ] {
            assert!(map.get(absent).is_none(), "{absent}");
        }
    }
}
