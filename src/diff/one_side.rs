//! The elements only one side of a diff has: what was added (new side only) and what was
//! removed (old side only). Additions are first-class: a review lists them and hazard rules
//! look at them.
//!
//! Each element is listed once, at the outermost level that is new: an added message is
//! listed, its fields are not (they come with it); a field is listed when its message is
//! paired but has no field of that number on the other side.

use super::{missing_from, Diff, FieldIn, InFile, Index, Pair};
use crate::model::{Enum, EnumValue, File, Message, Method, Oneof, Service};

/// Which side of the diff a [`OneSide`] lists.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    Old,
    New,
}

impl Side {
    /// A pair's element on this side, then on the other.
    fn this_and_other<'a, T>(self, pair: &Pair<'a, T>) -> (InFile<'a, T>, InFile<'a, T>) {
        match self {
            Side::New => (pair.new, pair.old),
            Side::Old => (pair.old, pair.new),
        }
    }
}

/// An oneof with its message and file.
#[derive(Clone, Copy)]
pub struct OneofIn<'a> {
    pub file: &'a File,
    pub message: &'a Message,
    pub oneof: &'a Oneof,
}

/// An enum value with its enum and file.
#[derive(Clone, Copy)]
pub struct EnumValueIn<'a> {
    pub file: &'a File,
    pub parent: &'a Enum,
    pub value: &'a EnumValue,
}

/// A method (rpc) with its service and file.
#[derive(Clone, Copy)]
pub struct MethodIn<'a> {
    pub file: &'a File,
    pub service: &'a Service,
    pub method: &'a Method,
}

/// Elements of one side without a counterpart on the other, each list in a stable order
/// (files by path, types by full name, members in declaration order within their parent).
#[derive(Default)]
pub struct OneSide<'a> {
    pub files: Vec<&'a File>,
    pub messages: Vec<InFile<'a, Message>>,
    pub enums: Vec<InFile<'a, Enum>>,
    pub services: Vec<InFile<'a, Service>>,
    /// Fields of paired messages, then extensions (by extendee and number).
    pub fields: Vec<FieldIn<'a>>,
    pub oneofs: Vec<OneofIn<'a>>,
    /// Values of paired enums whose number the other side does not use.
    pub enum_values: Vec<EnumValueIn<'a>>,
    pub methods: Vec<MethodIn<'a>>,
}

impl<'a> OneSide<'a> {
    pub(super) fn build(diff: &Diff<'a>, side: Side) -> Self {
        let (this, other) = match side {
            Side::New => (diff.new, diff.old),
            Side::Old => (diff.old, diff.new),
        };
        let (this_index, other_index) = match side {
            Side::New => (&diff.new_index, &diff.old_index),
            Side::Old => (&diff.old_index, &diff.new_index),
        };
        let mut out = OneSide {
            files: this
                .files
                .iter()
                .filter(|(path, _)| !other.files.contains_key(*path))
                .map(|(_, file)| &**file)
                .collect(),
            messages: unmatched(&this_index.messages, &other_index.messages),
            enums: unmatched(&this_index.enums, &other_index.enums),
            services: unmatched(&this_index.services, &other_index.services),
            ..OneSide::default()
        };
        out.members(diff, side);
        out.extensions(this_index, other_index);
        out
    }

    /// Fields, oneofs, values and methods inside paired parents.
    fn members(&mut self, diff: &Diff<'a>, side: Side) {
        for pair in diff.message_pairs() {
            let (this, other) = side.this_and_other(pair);
            let fields = missing_from(&this.item.fields, &other.item.fields, |f| f.number);
            self.fields.extend(fields.into_iter().map(|field| FieldIn {
                file: this.file,
                message: Some(this.item),
                field,
            }));
            let oneofs = missing_from(&this.item.oneofs, &other.item.oneofs, |o| o.name.as_str());
            self.oneofs.extend(oneofs.into_iter().map(|oneof| OneofIn {
                file: this.file,
                message: this.item,
                oneof,
            }));
        }
        for pair in diff.enum_pairs() {
            let (this, other) = side.this_and_other(pair);
            let values = missing_from(&this.item.values, &other.item.values, |v| v.number);
            self.enum_values
                .extend(values.into_iter().map(|value| EnumValueIn {
                    file: this.file,
                    parent: this.item,
                    value,
                }));
        }
        for pair in diff.service_pairs() {
            let (this, other) = side.this_and_other(pair);
            let methods =
                missing_from(&this.item.methods, &other.item.methods, |m| m.name.as_str());
            self.methods
                .extend(methods.into_iter().map(|method| MethodIn {
                    file: this.file,
                    service: this.item,
                    method,
                }));
        }
    }

    fn extensions(&mut self, this: &Index<'a>, other: &Index<'a>) {
        self.fields.extend(
            this.extensions
                .iter()
                .filter(|(key, _)| !other.extensions.contains_key(*key))
                .map(|(_, field)| *field),
        );
    }
}

fn unmatched<'a, T>(
    this: &super::ByName<'a, InFile<'a, T>>,
    other: &super::ByName<'a, InFile<'a, T>>,
) -> Vec<InFile<'a, T>> {
    this.iter()
        .filter(|(name, _)| !other.contains_key(name))
        .map(|(_, item)| *item)
        .collect()
}
