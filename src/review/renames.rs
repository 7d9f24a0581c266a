//! Elements the diff lists as removed on one side and added on the other that are one
//! element under a new name: the review shows each as one `renamed` change.
//!
//! - messages and enums: `check`'s cause grouping (`passes::group::renamed_types`: same
//!   kind, package and contents), and the types nested in them, renamed with them;
//! - services: same package and the same rpcs (names and signatures), one of a kind;
//! - rpcs: in a service both sides have, the one removed and the one added rpc of a
//!   signature.
//!
//! Fields and enum values are paired by number already; a name change there is a rename too,
//! which `collect` sees on the pair.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::diff::{Diff, InFile};
use crate::model::{Method, Service};
use crate::passes::group::renamed_types;

/// Old full name -> new full name, per kind of element.
#[derive(Default)]
pub struct Renames {
    /// Messages and enums (their names never clash: one namespace).
    pub types: BTreeMap<String, String>,
    pub services: BTreeMap<String, String>,
    pub methods: BTreeMap<String, String>,
}

impl Renames {
    pub fn find(diff: &Diff) -> Renames {
        Renames {
            types: types(diff),
            services: services(diff),
            methods: methods(diff),
        }
    }

    /// The new names of every renamed element.
    pub fn new_names(&self) -> HashSet<&str> {
        [&self.types, &self.services, &self.methods]
            .into_iter()
            .flat_map(|map| map.values().map(String::as_str))
            .collect()
    }

    /// The new name of a removed element, if it was renamed.
    pub fn new_name(&self, old: &str) -> Option<&str> {
        [&self.types, &self.services, &self.methods]
            .into_iter()
            .find_map(|map| map.get(old))
            .map(String::as_str)
    }
}

/// The renamed messages and enums, and each type nested in one under its new parent.
fn types(diff: &Diff) -> BTreeMap<String, String> {
    let top: Vec<(String, String)> = renamed_types(diff)
        .into_iter()
        .map(|r| (r.old, r.new))
        .collect();
    let mut out: BTreeMap<String, String> = top.iter().cloned().collect();
    let new_has = |name: &str| {
        diff.new_index.messages.contains_key(name) || diff.new_index.enums.contains_key(name)
    };
    let old_only = diff
        .removed()
        .messages
        .iter()
        .map(|m| m.item.full_name.as_str())
        .chain(
            diff.removed()
                .enums
                .iter()
                .map(|e| e.item.full_name.as_str()),
        );
    for old in old_only {
        let renamed_parent = top
            .iter()
            .filter(|(parent, _)| {
                old.strip_prefix(parent.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
            })
            .max_by_key(|(parent, _)| parent.len());
        if let Some((parent, new_parent)) = renamed_parent {
            let new = format!("{new_parent}{}", &old[parent.len()..]);
            if new_has(&new) {
                out.insert(old.to_string(), new);
            }
        }
    }
    out
}

/// A service's shape: its rpcs with their signatures, sorted.
fn service_shape(s: &Service) -> Vec<String> {
    let mut shape: Vec<String> = s
        .methods
        .iter()
        .map(|m| format!("{} {}", m.name, signature(m)))
        .collect();
    shape.sort();
    shape
}

fn signature(m: &Method) -> String {
    format!(
        "{}{} {}{}",
        if m.client_streaming { "stream " } else { "" },
        m.input_type,
        if m.server_streaming { "stream " } else { "" },
        m.output_type
    )
}

/// Removed and added services of one package and shape, paired when each side has exactly one.
fn services(diff: &Diff) -> BTreeMap<String, String> {
    let key = |s: &InFile<Service>| (s.file.package.clone(), service_shape(s.item));
    let removed = diff
        .removed()
        .services
        .iter()
        .filter(|s| !s.item.methods.is_empty());
    let added = diff.added().services.iter();
    let pairs = unique_pairs(
        removed.map(|s| (key(s), s.item.full_name.clone())),
        added.map(|s| (key(s), s.item.full_name.clone())),
    );
    pairs.into_iter().collect()
}

/// In each service both sides have, the removed and the added rpc of one signature, paired
/// when each side has exactly one.
fn methods(diff: &Diff) -> BTreeMap<String, String> {
    let key = |service: &Service, m: &Method| (service.full_name.clone(), signature(m));
    // Paired services keep their full name; a renamed one's rpcs come with it.
    let removed = diff.removed().methods.iter();
    let added = diff.added().methods.iter();
    unique_pairs(
        removed.map(|m| (key(m.service, m.method), m.method.full_name.clone())),
        added.map(|m| (key(m.service, m.method), m.method.full_name.clone())),
    )
    .into_iter()
    .collect()
}

/// (old name, new name) for each key that exactly one old and one new element have.
fn unique_pairs<K: std::hash::Hash + Eq>(
    old: impl Iterator<Item = (K, String)>,
    new: impl Iterator<Item = (K, String)>,
) -> Vec<(String, String)> {
    let mut by_key: HashMap<K, (Vec<String>, Vec<String>)> = HashMap::new();
    for (k, name) in old {
        by_key.entry(k).or_default().0.push(name);
    }
    for (k, name) in new {
        by_key.entry(k).or_default().1.push(name);
    }
    let mut out: Vec<(String, String)> = by_key
        .into_values()
        .filter_map(|(mut old, mut new)| {
            (old.len() == 1 && new.len() == 1).then(|| (old.remove(0), new.remove(0)))
        })
        .collect();
    out.sort();
    out
}
