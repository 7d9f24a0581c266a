//! Lookup tables over one schema: elements by fully-qualified name, extensions by
//! (extendee, number).

use std::collections::BTreeMap;

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
pub struct Index<'a> {
    pub messages: BTreeMap<String, InFile<'a, Message>>,
    pub enums: BTreeMap<String, InFile<'a, Enum>>,
    pub services: BTreeMap<String, InFile<'a, Service>>,
    pub extensions: BTreeMap<(String, i64), FieldIn<'a>>,
    /// Package name -> files declaring it.
    pub packages: BTreeMap<String, Vec<&'a File>>,
}

impl<'a> Index<'a> {
    pub fn build(schema: &'a Schema) -> Self {
        let mut index = Index::default();
        for file in schema.files.values() {
            index
                .packages
                .entry(file.package.clone())
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
                index
                    .enums
                    .insert(e.full_name.clone(), InFile { file, item: e });
            }
            for s in &file.services {
                index
                    .services
                    .insert(s.full_name.clone(), InFile { file, item: s });
            }
            for m in file.all_messages() {
                index
                    .messages
                    .insert(m.full_name.clone(), InFile { file, item: m });
                for e in &m.enums {
                    index
                        .enums
                        .insert(e.full_name.clone(), InFile { file, item: e });
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
        index
    }

    fn add_extension(&mut self, field: FieldIn<'a>) {
        let extendee = field.field.extendee.clone().unwrap_or_default();
        self.extensions
            .insert((extendee, field.field.number), field);
    }
}
