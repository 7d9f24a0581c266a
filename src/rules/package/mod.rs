//! Rules about packages: a package and the types it declares must not disappear, wherever in
//! the package's files they live (moving a type between files of one package is fine).

pub(super) mod enum_no_delete;
pub(super) mod extension_no_delete;
pub(super) mod message_no_delete;
pub(super) mod no_delete;
pub(super) mod service_no_delete;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::diff::Ctx;
use crate::finding::{Location, Sink};
use crate::model::{File, Message, Schema, Span};
use crate::rules::nested::{deleted_element_location, messages_by_nested_name};
use crate::rules::quote::quote;

/// Package -> nested name -> (declaring file, span of the element).
pub(super) type PackageElements<'a> = BTreeMap<String, BTreeMap<String, (&'a File, Span)>>;

/// An element missing from its package: (nested name, old file, old span).
pub(super) type Deleted<'a> = (String, &'a File, Span);

/// The shared body of the message/enum/extension package rules: reports each element of
/// `kind` (listed per file by `gather`) that no file of its surviving package declares any
/// more, at `locate(old file, package, nested name)`, with `help(nested name, package)`.
pub(super) fn report_package_deletions<'a>(
    ctx: &Ctx<'a>,
    out: &mut Sink,
    kind: &str,
    gather: impl Fn(&'a File, &mut dyn FnMut(String, Span)) + Copy,
    locate: impl Fn(&'a File, &str, &str) -> Option<Location>,
    help: impl Fn(&str, &str) -> String,
) {
    let old = collect(ctx.old, gather);
    for (package, deleted) in
        deleted_in_surviving_packages(ctx, &old, gather, Compared::PackagesWithElements)
    {
        for (nested, old_file, old_span) in deleted {
            out.add(
                locate(old_file, &package, &nested),
                ctx.old_loc(old_file, Some(old_span)),
                format!(
                    "Previously present {kind} {} was deleted from package {}.",
                    quote(&nested),
                    quote(&package)
                ),
            )
            .help = Some(help(&nested, &package));
        }
    }
}

/// Where buf reports an enum or extension deleted from a package: in the new version of the
/// file that declared it (at its closest surviving parent message, else the file); nowhere if
/// that file is gone.
pub(super) fn location_in_same_file(
    ctx: &Ctx,
    new_messages: &FileMessages,
    old_file: &File,
    nested: &str,
) -> Option<Location> {
    let new_file = ctx.new.files.get(&old_file.path)?;
    let messages = new_messages.get(old_file.path.as_str())?;
    Some(deleted_element_location(new_file, messages, nested))
}

/// File path -> nested name -> message, for every file of a schema.
pub(super) type FileMessages<'a> = BTreeMap<&'a str, BTreeMap<String, &'a Message>>;

pub(super) fn messages_per_file(schema: &Schema) -> FileMessages<'_> {
    schema
        .files
        .values()
        .map(|f| (f.path.as_str(), messages_by_nested_name(f)))
        .collect()
}

/// Builds package -> nested name -> (file, span) with `gather` listing a file's elements.
/// A package only gets an entry once it has an element of the kind gathered.
pub(super) fn collect<'a>(
    schema: &'a Schema,
    gather: impl Fn(&'a File, &mut dyn FnMut(String, Span)),
) -> PackageElements<'a> {
    let mut out: PackageElements<'a> = BTreeMap::new();
    for file in schema.files.values() {
        gather(file, &mut |nested, span| {
            out.entry(file.package.clone())
                .or_default()
                .entry(nested)
                .or_insert((file, span));
        });
    }
    out
}

/// Which new packages buf compares against.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Compared {
    /// Every package that still has a file (services).
    EveryPackage,
    /// Only packages that still have at least one element of the kind: buf builds its
    /// per-package tables from the elements, so when the last message/enum/extension of a
    /// package is deleted buf does not see the package and reports nothing. We mirror that
    /// to stay a drop-in (the FILE-category rules still catch such deletions).
    PackagesWithElements,
}

/// Deleted elements per package, for the packages buf compares (a wholly deleted package is
/// PACKAGE_NO_DELETE's finding).
pub(super) fn deleted_in_surviving_packages<'a>(
    ctx: &Ctx<'a>,
    old: &PackageElements<'a>,
    gather: impl Fn(&'a File, &mut dyn FnMut(String, Span)),
    compared: Compared,
) -> Vec<(String, Vec<Deleted<'a>>)> {
    let new = collect(ctx.new, gather);
    let empty = BTreeMap::new();
    let mut out = Vec::new();
    for (package, old_elements) in old {
        let new_elements = match (new.get(package), compared) {
            (Some(elements), _) => elements,
            (None, Compared::EveryPackage)
                if ctx.new_index.packages.contains_key(package.as_str()) =>
            {
                &empty
            }
            (None, _) => continue,
        };
        let deleted: Vec<_> = old_elements
            .iter()
            .filter(|(nested, _)| !new_elements.contains_key(*nested))
            .map(|(nested, (file, span))| (nested.clone(), *file, *span))
            .collect();
        if !deleted.is_empty() {
            out.push((package.clone(), deleted));
        }
    }
    out
}

/// Package -> nested name -> (file, message), over the new schema.
pub(super) fn package_messages(
    schema: &Schema,
) -> BTreeMap<String, BTreeMap<String, (&File, &Message)>> {
    let mut out: BTreeMap<String, BTreeMap<String, (&File, &Message)>> = BTreeMap::new();
    for file in schema.files.values() {
        let entry = out.entry(file.package.clone()).or_default();
        for (nested, m) in messages_by_nested_name(file) {
            entry.entry(nested).or_insert((file, m));
        }
    }
    out
}
