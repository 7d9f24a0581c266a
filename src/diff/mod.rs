//! The diff of two schema snapshots: every element paired with its counterpart, and the
//! elements only one side has.
//!
//! Matching follows buf: files by path, messages/enums/services by full name across all files,
//! message fields by number, extensions by (extendee, number), enum values by number, oneofs
//! and methods by name. A [`Diff`] is built once per pair of schemas and read by everything
//! after it (the rules, grouping by cause, `--fix` edits); each list is computed on first use
//! and shared, as a check runs dozens of rules over the same pairs.

mod index;
mod one_side;
#[cfg(test)]
mod tests;

pub use index::{ByName, InFile, Index};
use one_side::Side;
pub use one_side::{EnumValueIn, MethodIn, OneSide, OneofIn};

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::finding::Location;
use crate::model::{Enum, EnumValue, Field, File, Message, Method, Schema, Service, Span};

/// Both schemas, their indexes, and the pairings between them.
pub struct Diff<'a> {
    pub old: &'a Schema,
    pub new: &'a Schema,
    pub old_index: Index<'a>,
    pub new_index: Index<'a>,
    pairs: Pairs<'a>,
    /// The same lists without the pairs inside unchanged files: what the rules judge.
    judged: Pairs<'a>,
    /// Files no pair rule can find anything in (see [`unchanged_files`]).
    unchanged: HashSet<&'a str, ahash::RandomState>,
    /// Whether the judged lists leave out the pairs of one element shared by both models
    /// (see [`Diff::judges_pair`]).
    skips_shared: bool,
    added: OnceLock<OneSide<'a>>,
    removed: OnceLock<OneSide<'a>>,
}

/// The name rule handlers know the diff by.
pub type Ctx<'a> = Diff<'a>;

/// The pair lists, each built on first use.
#[derive(Default)]
struct Pairs<'a> {
    /// Files at both sides, by path: every file rule walks them.
    files: OnceLock<Vec<(&'a File, &'a File)>>,
    messages: OnceLock<Vec<Pair<'a, Message>>>,
    enums: OnceLock<Vec<Pair<'a, Enum>>>,
    services: OnceLock<Vec<Pair<'a, Service>>>,
    fields: OnceLock<Vec<FieldPair<'a>>>,
    enum_values: OnceLock<Vec<EnumValuePair<'a>>>,
    methods: OnceLock<Vec<MethodPair<'a>>>,
    oneofs: OnceLock<Vec<OneofPair<'a>>>,
}

/// A pair of matched elements, new side first (as buf's handlers take them).
pub struct Pair<'a, T> {
    pub new: InFile<'a, T>,
    pub old: InFile<'a, T>,
}

impl<T> Clone for Pair<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Pair<'_, T> {}

impl<'a> Diff<'a> {
    pub fn new(old: &'a Schema, new: &'a Schema) -> Self {
        let (indexes, unchanged) =
            rayon::join(|| Diff::indexes(old, new), || unchanged_files(old, new));
        Diff::with(old, new, indexes, (unchanged, true))
    }

    /// A diff whose rules judge every pair, unchanged files too: the reference the skip of
    /// unchanged files is tested against (the findings must be the same).
    pub fn judging_everything(old: &'a Schema, new: &'a Schema) -> Self {
        Diff::with(
            old,
            new,
            Diff::indexes(old, new),
            (HashSet::default(), false),
        )
    }

    /// Both sides' indexes, one per core.
    fn indexes(old: &'a Schema, new: &'a Schema) -> (Index<'a>, Index<'a>) {
        rayon::join(|| Index::build(old), || Index::build(new))
    }

    fn with(
        old: &'a Schema,
        new: &'a Schema,
        (old_index, new_index): (Index<'a>, Index<'a>),
        (unchanged, skips_shared): (HashSet<&'a str, ahash::RandomState>, bool),
    ) -> Self {
        Diff {
            old,
            new,
            old_index,
            new_index,
            pairs: Pairs::default(),
            judged: Pairs::default(),
            unchanged,
            skips_shared,
            added: OnceLock::new(),
            removed: OnceLock::new(),
        }
    }

    /// Whether the file at `path` is unchanged, with everything it imports (see
    /// [`unchanged_files`]): no pair rule needs to look inside it.
    pub fn is_unchanged(&self, path: &str) -> bool {
        self.unchanged.contains(path)
    }

    /// Whether a pair of elements in these files may differ: not both in one unchanged file.
    fn judges(&self, new: &File, old: &File) -> bool {
        !(new.path == old.path && self.is_unchanged(&new.path))
    }

    /// Whether the rules judge a pair of elements (`new` in `files.0`, `old` in `files.1`):
    /// not both in one unchanged file, nor one and the same element object.
    ///
    /// Why a shared element can be left out. The new side's build takes the old side's
    /// model of a file (the same `Arc<File>`) when the file is unchanged with all it imports,
    /// or when its text is the same and every lookup and fact its lowering read gives the
    /// same answer (`link::replay`), and keeps it only if the option values typed again
    /// equal the old ones (else it is a copy: `link::build`). A pair of one element object
    /// is then the same element with the same children, file and parents, which no pair
    /// rule finds anything between. What a pair rule reads beyond the pair and what hangs
    /// off it: only the field rules do, through each side's index, the message and the enum
    /// named by a field's `type_name` (`rules::field::FieldSide::{message_type,
    /// enum_type}`), and only that element's own data (no name is looked up from there),
    /// so [`Diff::same_references`] makes a shared field skippable only when that name
    /// finds the same object (or nothing) at both sides. The removed-element handlers
    /// (fields, oneofs, values, RPCs) find nothing missing between a message, enum or
    /// service and itself. Rules over whole schemas (packages, removed files) and the
    /// passes read the full lists.
    fn judges_pair<T>(&self, files: (&File, &File), new: &T, old: &T) -> bool {
        self.judges(files.0, files.1) && !(self.skips_shared && std::ptr::eq(new, old))
    }

    /// Whether a field pair is judged: as [`Diff::judges_pair`], a field shared by both
    /// models being skipped only if the type it names is the same object at both sides.
    fn judges_field(&self, pair: &FieldPair<'a>) -> bool {
        let (new, old) = (pair.new.field, pair.old.field);
        self.judges(pair.new.file, pair.old.file)
            && !(self.skips_shared && std::ptr::eq(new, old) && self.same_references(new))
    }

    /// Whether the message and the enum that `field`'s type name finds are the same
    /// objects (or both absent) in the old and the new index.
    fn same_references(&self, field: &Field) -> bool {
        let Some(name) = field.type_name.as_deref() else {
            return true;
        };
        same_found(
            self.old_index.messages.get(name),
            self.new_index.messages.get(name),
        ) && same_found(
            self.old_index.enums.get(name),
            self.new_index.enums.get(name),
        )
    }

    fn set(&self, judged: bool) -> &Pairs<'a> {
        match judged {
            true => &self.judged,
            false => &self.pairs,
        }
    }

    /// What only the new schema has: added files, types, and (inside paired parents) added
    /// fields, oneofs, values and methods.
    pub fn added(&self) -> &OneSide<'a> {
        self.added.get_or_init(|| OneSide::build(self, Side::New))
    }

    /// What only the old schema has: removed files, types, and (inside paired parents)
    /// removed fields, oneofs, values and methods.
    pub fn removed(&self) -> &OneSide<'a> {
        self.removed.get_or_init(|| OneSide::build(self, Side::Old))
    }

    /// A location in the new schema.
    pub fn new_loc(&self, file: &File, span: Option<Span>) -> Option<Location> {
        Some(Location::in_file(file, span))
    }

    /// A location in the old schema.
    pub fn old_loc(&self, file: &File, span: Option<Span>) -> Option<Location> {
        Some(Location::in_file(file, span))
    }

    /// Files present at both sides, matched by path (sorted by path).
    pub fn file_pairs(&self) -> impl Iterator<Item = (&'a File, &'a File)> + '_ {
        self.files_in(false).iter().copied()
    }

    /// The file pairs, built once (a path lookup per file, and for the judged list a
    /// lookup in the unchanged set) rather than by each of the file rules.
    fn files_in(&self, judged: bool) -> &[(&'a File, &'a File)] {
        self.set(judged).files.get_or_init(|| {
            let (old, new) = (self.old, self.new);
            let both = old
                .files
                .iter()
                .filter_map(|(path, o)| new.files.get(path).map(|n| (&**n, &**o)));
            match judged {
                false => both.collect(),
                true => both
                    .filter(|&(n, o)| self.judges_pair((n, o), n, o))
                    .collect(),
            }
        })
    }

    /// Messages matched by full name, wherever they live.
    pub fn message_pairs(&self) -> &[Pair<'a, Message>] {
        self.messages_in(false)
    }

    pub fn enum_pairs(&self) -> &[Pair<'a, Enum>] {
        self.enums_in(false)
    }

    pub fn service_pairs(&self) -> &[Pair<'a, Service>] {
        self.services_in(false)
    }

    /// Message fields matched by number within matched messages, then extensions matched by
    /// (extendee, number). `parent` of an extension is the message it is declared in, if any.
    pub fn field_pairs(&self) -> &[FieldPair<'a>] {
        self.fields_in(false)
    }

    /// Enum values matched by number within matched enums. Aliases (several names for one
    /// number) are kept together, as buf compares name sets per number.
    pub fn enum_value_pairs(&self) -> &[EnumValuePair<'a>] {
        self.enum_values_in(false)
    }

    /// Methods matched by name within matched services.
    pub fn method_pairs(&self) -> &[MethodPair<'a>] {
        self.methods_in(false)
    }

    /// Oneofs (real and synthetic) matched by name within matched messages.
    pub fn oneof_pairs(&self) -> &[OneofPair<'a>] {
        self.set(false)
            .oneofs
            .get_or_init(|| self.build_oneof_pairs(self.message_pairs()))
    }

    /// What the rules judge: the pair lists above without the pairs inside unchanged files
    /// and the pairs of one element shared by both models ([`Diff::judges_pair`]; the same
    /// lists when built by [`Diff::judging_everything`]). The passes (grouping, `--fix`)
    /// read the full lists.
    pub fn judged(&self) -> Judged<'_, 'a> {
        Judged { diff: self }
    }

    // The judged lists of messages, enums, services and fields are the full lists filtered
    // (the same order, as a pair of elements lies in the pair of their parents' files): each
    // pairing is built once, and is the same list when no file is unchanged.

    fn messages_in(&self, judged: bool) -> &[Pair<'a, Message>] {
        if judged && self.filters() {
            let all = self.messages_in(false);
            return self.judged.messages.get_or_init(|| self.keep_judged(all));
        }
        self.pairs
            .messages
            .get_or_init(|| pair_by_key(&self.old_index.messages, &self.new_index.messages))
    }

    fn enums_in(&self, judged: bool) -> &[Pair<'a, Enum>] {
        if judged && self.filters() {
            let all = self.enums_in(false);
            return self.judged.enums.get_or_init(|| self.keep_judged(all));
        }
        self.pairs
            .enums
            .get_or_init(|| pair_by_key(&self.old_index.enums, &self.new_index.enums))
    }

    fn services_in(&self, judged: bool) -> &[Pair<'a, Service>] {
        if judged && self.filters() {
            let all = self.services_in(false);
            return self.judged.services.get_or_init(|| self.keep_judged(all));
        }
        self.pairs
            .services
            .get_or_init(|| pair_by_key(&self.old_index.services, &self.new_index.services))
    }

    fn fields_in(&self, judged: bool) -> &[FieldPair<'a>] {
        if judged && self.filters() {
            let all = self.fields_in(false);
            return self.judged.fields.get_or_init(|| {
                all.iter()
                    .filter(|p| self.judges_field(p))
                    .copied()
                    .collect()
            });
        }
        self.pairs
            .fields
            .get_or_init(|| self.build_field_pairs(self.messages_in(false)))
    }

    fn enum_values_in(&self, judged: bool) -> &[EnumValuePair<'a>] {
        self.set(judged)
            .enum_values
            .get_or_init(|| self.build_enum_value_pairs(self.enums_in(judged)))
    }

    fn methods_in(&self, judged: bool) -> &[MethodPair<'a>] {
        self.set(judged)
            .methods
            .get_or_init(|| self.build_method_pairs(self.services_in(judged)))
    }

    /// Whether the judged lists leave anything out.
    fn filters(&self) -> bool {
        self.skips_shared || !self.unchanged.is_empty()
    }

    /// `pairs`, less those [`Diff::judges_pair`] leaves out.
    fn keep_judged<T>(&self, pairs: &[Pair<'a, T>]) -> Vec<Pair<'a, T>> {
        pairs
            .iter()
            .filter(|p| self.judges_pair((p.new.file, p.old.file), p.new.item, p.old.item))
            .copied()
            .collect()
    }

    fn build_field_pairs(&self, messages: &[Pair<'a, Message>]) -> Vec<FieldPair<'a>> {
        let mut out = Vec::new();
        for pair in messages {
            // By number: a map, as messages can have thousands of fields. Numbers are unique
            // within a built message; `or_insert` keeps the first field, as a linear `find`
            // would.
            let mut new_by_number: ahash::AHashMap<i64, &'a Field> =
                ahash::AHashMap::with_capacity(pair.new.item.fields.len());
            for field in &pair.new.item.fields {
                new_by_number.entry(field.number).or_insert(field);
            }
            for old_field in &pair.old.item.fields {
                if let Some(&new_field) = new_by_number.get(&old_field.number) {
                    out.push(FieldPair {
                        new: FieldIn {
                            file: pair.new.file,
                            message: Some(pair.new.item),
                            field: new_field,
                        },
                        old: FieldIn {
                            file: pair.old.file,
                            message: Some(pair.old.item),
                            field: old_field,
                        },
                    });
                }
            }
        }
        for (key, old) in &self.old_index.extensions {
            if let Some(new) = self.new_index.extensions.get(key) {
                out.push(FieldPair {
                    new: *new,
                    old: *old,
                });
            }
        }
        out
    }

    fn build_enum_value_pairs(&self, enums: &[Pair<'a, Enum>]) -> Vec<EnumValuePair<'a>> {
        let mut out = Vec::new();
        for pair in enums {
            let by_number = |values: &'a [EnumValue]| {
                let mut map: ahash::AHashMap<i64, Vec<&'a EnumValue>> = ahash::AHashMap::new();
                for value in values {
                    map.entry(value.number).or_default().push(value);
                }
                map
            };
            let mut old_by_number = by_number(&pair.old.item.values);
            let mut new_by_number = by_number(&pair.new.item.values);
            let mut numbers: Vec<i64> = old_by_number.keys().copied().collect();
            numbers.sort();
            for number in numbers {
                let Some(new_values) = new_by_number.remove(&number) else {
                    continue;
                };
                out.push(EnumValuePair {
                    new_file: pair.new.file,
                    old_file: pair.old.file,
                    new_enum: pair.new.item,
                    old_enum: pair.old.item,
                    number,
                    new: new_values,
                    old: old_by_number.remove(&number).unwrap_or_default(),
                });
            }
        }
        out
    }

    fn build_oneof_pairs(&self, messages: &[Pair<'a, Message>]) -> Vec<OneofPair<'a>> {
        let mut out = Vec::new();
        for pair in messages {
            for old_oneof in &pair.old.item.oneofs {
                let new_oneof = pair
                    .new
                    .item
                    .oneofs
                    .iter()
                    .find(|o| o.name == old_oneof.name);
                if let Some(new_oneof) = new_oneof {
                    out.push(OneofPair {
                        new: OneofIn {
                            file: pair.new.file,
                            message: pair.new.item,
                            oneof: new_oneof,
                        },
                        old: OneofIn {
                            file: pair.old.file,
                            message: pair.old.item,
                            oneof: old_oneof,
                        },
                    });
                }
            }
        }
        out
    }

    fn build_method_pairs(&self, services: &[Pair<'a, Service>]) -> Vec<MethodPair<'a>> {
        let mut out = Vec::new();
        for pair in services {
            // By name: a map, as a linear `find` per method is quadratic on large services;
            // `or_insert` keeps the first method of a name, as `find` would.
            let mut new_by_name: ahash::AHashMap<&str, &'a Method> = ahash::AHashMap::new();
            for method in &pair.new.item.methods {
                new_by_name.entry(&method.name).or_insert(method);
            }
            for old_method in &pair.old.item.methods {
                if let Some(&new_method) = new_by_name.get(old_method.name.as_str()) {
                    out.push(MethodPair {
                        new_file: pair.new.file,
                        old_file: pair.old.file,
                        new_service: pair.new.item,
                        old_service: pair.old.item,
                        new: new_method,
                        old: old_method,
                    });
                }
            }
        }
        out
    }
}

/// The pair lists rules judge (see [`Diff::judged`]); each has the order of the full list.
#[derive(Clone, Copy)]
pub struct Judged<'d, 'a> {
    diff: &'d Diff<'a>,
}

impl<'d, 'a> Judged<'d, 'a> {
    /// Files matched by path, unchanged ones left out.
    pub fn file_pairs(self) -> impl Iterator<Item = (&'a File, &'a File)> + 'd {
        self.diff.files_in(true).iter().copied()
    }

    pub fn message_pairs(self) -> &'d [Pair<'a, Message>] {
        self.diff.messages_in(true)
    }

    pub fn enum_pairs(self) -> &'d [Pair<'a, Enum>] {
        self.diff.enums_in(true)
    }

    pub fn service_pairs(self) -> &'d [Pair<'a, Service>] {
        self.diff.services_in(true)
    }

    pub fn field_pairs(self) -> &'d [FieldPair<'a>] {
        self.diff.fields_in(true)
    }

    pub fn enum_value_pairs(self) -> &'d [EnumValuePair<'a>] {
        self.diff.enum_values_in(true)
    }

    pub fn method_pairs(self) -> &'d [MethodPair<'a>] {
        self.diff.methods_in(true)
    }
}

/// Paths of the files in which no pair rule can find anything: present at both sides with
/// the same text, and importing (directly or not) only such files, or files that neither
/// side has.
///
/// Why that is enough: a file's elements are lowered from its own text and the symbols of
/// the files it can see, which are itself, its imports and what those import publicly
/// (`link::resolve` looks nowhere else, and resolution errors fail the build before any
/// diff). With all of those byte-identical at both sides, every element of the file equals
/// its counterpart, which lives at the same path (a full name is declared once per side),
/// and so does everything it references (it lives in those files). A pair rule judges a
/// pair and what it references, so it finds nothing there. Rules across files (packages,
/// deleted files, added elements) and the passes still see every file: only the pair lists
/// that rules judge leave these files out. The files are still parsed, lowered and
/// validated on both sides.
pub fn unchanged_files<'a>(
    old: &'a Schema,
    new: &'a Schema,
) -> HashSet<&'a str, ahash::RandomState> {
    let mut state: HashMap<&'a str, State, ahash::RandomState> = HashMap::default();
    for path in new.files.keys() {
        // Depth first without recursion: (file, index of the next import to look at).
        let mut stack: Vec<(&'a str, usize)> = vec![(path.as_str(), 0)];
        while let Some(&mut (file, ref mut next)) = stack.last_mut() {
            if *next == 0 {
                if state.contains_key(file) {
                    stack.pop();
                    continue;
                }
                let same_text = match (old.files.get(file), new.files.get(file)) {
                    (Some(o), Some(n)) => o.text == n.text,
                    _ => false,
                };
                if !same_text {
                    state.insert(file, State::Changed);
                    stack.pop();
                    continue;
                }
                state.insert(file, State::Open);
            }
            let imports = &new.files[file].imports;
            let Some(import) = imports.get(*next) else {
                state.insert(file, State::Unchanged);
                stack.pop();
                continue;
            };
            *next += 1;
            let target = import.path.as_str();
            match (
                old.files.contains_key(target),
                new.files.contains_key(target),
            ) {
                (false, false) => continue,
                (true, true) => {}
                _ => {
                    mark_changed(&mut state, &mut stack);
                    continue;
                }
            }
            match state.get(target) {
                Some(State::Unchanged) => {}
                Some(State::Changed | State::Open) => mark_changed(&mut state, &mut stack),
                None => stack.push((target, 0)),
            }
        }
    }
    state
        .into_iter()
        .filter(|(_, s)| *s == State::Unchanged)
        .map(|(path, _)| path)
        .collect()
}
/// The items of `this` whose key no item of `other` has, in order. Most paired parents are
/// unchanged, so the same keys in the same order are checked first, and short lists are
/// scanned: only a long list that changed builds a set (a scan per item would be quadratic
/// on messages with thousands of fields).
pub fn missing_from<'t, T, K: Eq + std::hash::Hash>(
    this: &'t [T],
    other: &'t [T],
    key: impl Fn(&'t T) -> K + Copy,
) -> Vec<&'t T> {
    // The children of one element shared by both builds (`Diff::judges_pair`).
    if std::ptr::eq(this, other) {
        return Vec::new();
    }
    let same_keys =
        this.len() == other.len() && this.iter().zip(other).all(|(a, b)| key(a) == key(b));
    if same_keys {
        return Vec::new();
    }
    if other.len() <= 16 {
        return this
            .iter()
            .filter(|t| !other.iter().any(|o| key(o) == key(t)))
            .collect();
    }
    let keys: ahash::AHashSet<K> = other.iter().map(key).collect();
    this.iter().filter(|t| !keys.contains(&key(t))).collect()
}

/// Both lookups found the same object, or neither found one.
fn same_found<T>(old: Option<&InFile<T>>, new: Option<&InFile<T>>) -> bool {
    match (old, new) {
        (Some(old), Some(new)) => std::ptr::eq(old.item, new.item),
        (None, None) => true,
        _ => false,
    }
}

fn pair_by_key<'a, T>(
    old: &ByName<'a, InFile<'a, T>>,
    new: &ByName<'a, InFile<'a, T>>,
) -> Vec<Pair<'a, T>> {
    old.iter()
        .filter_map(|(name, o)| new.get(name).map(|n| Pair { new: *n, old: *o }))
        .collect()
}

/// A field (or extension) with its file and, for message fields, its message.
#[derive(Clone, Copy)]
pub struct FieldIn<'a> {
    pub file: &'a File,
    /// The containing message: for a message field its owner; for an extension the message it
    /// is declared in (None at top level).
    pub message: Option<&'a Message>,
    pub field: &'a Field,
}

#[derive(Clone, Copy)]
pub struct FieldPair<'a> {
    pub new: FieldIn<'a>,
    pub old: FieldIn<'a>,
}

pub struct EnumValuePair<'a> {
    pub new_file: &'a File,
    pub old_file: &'a File,
    pub new_enum: &'a Enum,
    pub old_enum: &'a Enum,
    pub number: i64,
    pub new: Vec<&'a EnumValue>,
    pub old: Vec<&'a EnumValue>,
}

pub struct MethodPair<'a> {
    pub new_file: &'a File,
    pub old_file: &'a File,
    pub new_service: &'a Service,
    pub old_service: &'a Service,
    pub new: &'a Method,
    pub old: &'a Method,
}

pub struct OneofPair<'a> {
    pub new: OneofIn<'a>,
    pub old: OneofIn<'a>,
}

/// Where [`unchanged_files`] stands on a file.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Unchanged,
    Changed,
    /// Being decided (import cycles fail the build, so a file is never met again then).
    Open,
}

/// The file on top of the stack imports a changed file: it is changed, and so is every file
/// below it (each imports the one above it).
fn mark_changed<'a>(
    state: &mut HashMap<&'a str, State, ahash::RandomState>,
    stack: &mut Vec<(&'a str, usize)>,
) {
    for (file, _) in stack.drain(..) {
        state.insert(file, State::Changed);
    }
}
