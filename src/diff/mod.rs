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

pub use index::{InFile, Index};
use one_side::Side;
pub use one_side::{EnumValueIn, MethodIn, OneSide, OneofIn};

use std::collections::HashMap;
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
    added: OnceLock<OneSide<'a>>,
    removed: OnceLock<OneSide<'a>>,
}

/// The name rule handlers know the diff by.
pub type Ctx<'a> = Diff<'a>;

/// The pair lists, each built on first use.
#[derive(Default)]
struct Pairs<'a> {
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

impl<'a> Diff<'a> {
    pub fn new(old: &'a Schema, new: &'a Schema) -> Self {
        Diff {
            old,
            new,
            old_index: Index::build(old),
            new_index: Index::build(new),
            pairs: Pairs::default(),
            added: OnceLock::new(),
            removed: OnceLock::new(),
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
        self.old
            .files
            .iter()
            .filter_map(|(path, old)| self.new.files.get(path).map(|new| (new, old)))
    }

    /// Messages matched by full name, wherever they live.
    pub fn message_pairs(&self) -> &[Pair<'a, Message>] {
        self.pairs
            .messages
            .get_or_init(|| pair_by_key(&self.old_index.messages, &self.new_index.messages))
    }

    pub fn enum_pairs(&self) -> &[Pair<'a, Enum>] {
        self.pairs
            .enums
            .get_or_init(|| pair_by_key(&self.old_index.enums, &self.new_index.enums))
    }

    pub fn service_pairs(&self) -> &[Pair<'a, Service>] {
        self.pairs
            .services
            .get_or_init(|| pair_by_key(&self.old_index.services, &self.new_index.services))
    }

    /// Message fields matched by number within matched messages, then extensions matched by
    /// (extendee, number). `parent` of an extension is the message it is declared in, if any.
    pub fn field_pairs(&self) -> &[FieldPair<'a>] {
        self.pairs.fields.get_or_init(|| self.build_field_pairs())
    }

    fn build_field_pairs(&self) -> Vec<FieldPair<'a>> {
        let mut out = Vec::new();
        for pair in self.message_pairs() {
            // By number: a map, as messages can have thousands of fields. Numbers are unique
            // within a built message; `or_insert` keeps the first field, as a linear `find`
            // would.
            let mut new_by_number: HashMap<i64, &'a Field> =
                HashMap::with_capacity(pair.new.item.fields.len());
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

    /// Enum values matched by number within matched enums. Aliases (several names for one
    /// number) are kept together, as buf compares name sets per number.
    pub fn enum_value_pairs(&self) -> &[EnumValuePair<'a>] {
        self.pairs
            .enum_values
            .get_or_init(|| self.build_enum_value_pairs())
    }

    fn build_enum_value_pairs(&self) -> Vec<EnumValuePair<'a>> {
        let mut out = Vec::new();
        for pair in self.enum_pairs() {
            let by_number = |values: &'a [EnumValue]| {
                let mut map: HashMap<i64, Vec<&'a EnumValue>> = HashMap::new();
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

    /// Methods matched by name within matched services.
    pub fn method_pairs(&self) -> &[MethodPair<'a>] {
        self.pairs.methods.get_or_init(|| self.build_method_pairs())
    }

    /// Oneofs (real and synthetic) matched by name within matched messages.
    pub fn oneof_pairs(&self) -> &[OneofPair<'a>] {
        self.pairs.oneofs.get_or_init(|| self.build_oneof_pairs())
    }

    fn build_oneof_pairs(&self) -> Vec<OneofPair<'a>> {
        let mut out = Vec::new();
        for pair in self.message_pairs() {
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

    fn build_method_pairs(&self) -> Vec<MethodPair<'a>> {
        let mut out = Vec::new();
        for pair in self.service_pairs() {
            // By name: a map, as a linear `find` per method is quadratic on large services;
            // `or_insert` keeps the first method of a name, as `find` would.
            let mut new_by_name: HashMap<&str, &'a Method> = HashMap::new();
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

fn pair_by_key<'a, T>(
    old: &std::collections::BTreeMap<String, InFile<'a, T>>,
    new: &std::collections::BTreeMap<String, InFile<'a, T>>,
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
