//! Lookup tables over one schema: elements by fully-qualified name, extensions by
//! (extendee, number).

use std::collections::BTreeMap;

use ahash::AHashMap;

use super::FieldIn;
use crate::model::{Enum, File, Message, Schema, Service};

/// An element together with the file that declares it.
pub struct InFile<'a, T> {
    pub file: &'a File,
    pub item: &'a T,
}

impl<T> Clone for InFile<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for InFile<'_, T> {}

#[derive(Default)]
///
/// Keys borrow the schema's own names: copying every full name of both sides cost more
/// than the lookups.
pub struct Index<'a> {
    pub messages: ByName<'a, InFile<'a, Message>>,
    pub enums: ByName<'a, InFile<'a, Enum>>,
    pub services: ByName<'a, InFile<'a, Service>>,
    pub extensions: BTreeMap<(&'a str, i64), FieldIn<'a>>,
    /// Package name -> files declaring it.
    pub packages: BTreeMap<&'a str, Vec<&'a File>>,
}

/// Elements by full name: hashed for lookups, and in name order for walks (pairings and
/// findings follow it). A sorted tree alone made every lookup a dozen comparisons of long
/// names sharing their package prefix, a visible part of the rules' time.
pub struct ByName<'a, T> {
    hashed: AHashMap<&'a str, T>,
    sorted: Vec<(&'a str, T)>,
}

impl<T> Default for ByName<'_, T> {
    fn default() -> Self {
        ByName {
            hashed: AHashMap::new(),
            sorted: Vec::new(),
        }
    }
}

impl<'a, T: Copy> ByName<'a, T> {
    /// Adds (or replaces, as a map insert does) the element named `name`.
    fn insert(&mut self, name: &'a str, item: T) {
        self.hashed.insert(name, item);
    }

    /// Puts the names in order, once every element is in.
    fn seal(&mut self) {
        self.sorted = self.hashed.iter().map(|(k, v)| (*k, *v)).collect();
        self.sorted.sort_unstable_by_key(|(k, _)| *k);
    }
}

impl<'a, T> ByName<'a, T> {
    pub fn get(&self, name: &str) -> Option<&T> {
        self.hashed.get(name)
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.hashed.contains_key(name)
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// Every element, in name order (as a `BTreeMap` walks).
    pub fn iter(&self) -> impl Iterator<Item = (&&'a str, &T)> {
        self.sorted.iter().map(|(k, v)| (k, v))
    }

    /// Every element, in name order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.sorted.iter().map(|(_, v)| v)
    }
}

impl<'s, 'a, T> IntoIterator for &'s ByName<'a, T> {
    type Item = (&'s &'a str, &'s T);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'s, (&'a str, T)>,
        fn(&'s (&'a str, T)) -> (&'s &'a str, &'s T),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.sorted.iter().map(|(k, v)| (k, v))
    }
}

impl<'a> Index<'a> {
    pub fn build(schema: &'a Schema) -> Self {
        let mut index = Index::default();
        for file in schema.files.values() {
            index
                .packages
                .entry(file.package.as_str())
                .or_default()
                .push(file);
            for ext in &file.extensions {
                index.add_extension(FieldIn {
                    file,
                    message: None,
                    field: ext,
                });
            }
            for e in &file.enums {
                index.enums.insert(&e.full_name, InFile { file, item: e });
            }
            for s in &file.services {
                index
                    .services
                    .insert(&s.full_name, InFile { file, item: s });
            }
            for m in file.all_messages() {
                index
                    .messages
                    .insert(&m.full_name, InFile { file, item: m });
                for e in &m.enums {
                    index.enums.insert(&e.full_name, InFile { file, item: e });
                }
                for ext in &m.extensions {
                    index.add_extension(FieldIn {
                        file,
                        message: Some(m),
                        field: ext,
                    });
                }
            }
        }
        index.messages.seal();
        index.enums.seal();
        index.services.seal();
        index
    }

    fn add_extension(&mut self, field: FieldIn<'a>) {
        let extendee = field.field.extendee().unwrap_or_default();
        self.extensions
            .insert((extendee, field.field.number), field);
    }
}
