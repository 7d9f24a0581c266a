//! Rules about packages: a package and the types it declares must not disappear, wherever in
//! the package's files they live (moving a type between files of one package is fine).

use std::collections::BTreeMap;

use super::util::{
    deleted_element_location, enclosing_message, enums_by_nested_name, extensions_by_nested_name,
    for_each_message, messages_by_nested_name, quote,
};
use crate::compare::{Ctx, Location, Sink};
use crate::model::{File, Message, Schema, Span};

/// Package -> nested name -> (declaring file, span of the element).
type PackageElements<'a> = BTreeMap<String, BTreeMap<String, (&'a File, Span)>>;

/// An element missing from its package: (nested name, old file, old span).
type Deleted<'a> = (String, &'a File, Span);

/// PACKAGE_NO_DELETE: every file of a package was deleted or moved to another package.
pub fn package_no_delete(ctx: &Ctx, out: &mut Sink) {
    for (package, old_files) in &ctx.old_index.packages {
        if ctx.new_index.packages.contains_key(package) {
            continue;
        }
        // buf attaches the old file that sorts first, so ignores by path still apply.
        let Some(first) = old_files.iter().min_by(|a, b| a.path.cmp(&b.path)) else {
            continue;
        };
        out.add(
            None,
            ctx.old_loc(first, None),
            format!("Previously present package {} was deleted.", quote(package)),
        )
        .help = Some(format!(
            "keep at least one file declaring `package {package};` with its types; \
             deprecate the types instead of deleting the package"
        ));
    }
}

/// PACKAGE_MESSAGE_NO_DELETE: a message of a package is gone from every file of the package.
pub fn package_message_no_delete(ctx: &Ctx, out: &mut Sink) {
    let new_messages = package_messages(ctx.new);
    report_package_deletions(
        ctx,
        out,
        "message",
        |file: &File, add: &mut dyn FnMut(String, Span)| {
            for_each_message(file, |nested, m| add(nested.to_string(), m.span));
        },
        |old_file, package, nested| {
            // buf looks for a surviving parent among all messages of the package (it may have
            // moved to another file), but only when the old file still exists.
            ctx.new.files.get(&old_file.path).map(|new_file| {
                let parent = new_messages
                    .get(package)
                    .and_then(|messages| enclosing_message(nested, messages));
                match parent {
                    Some((file, m)) => Location::in_file(file, Some(m.span)),
                    None => Location::in_file(new_file, None),
                }
            })
        },
        |nested, package| {
            format!(
                "restore message {nested} in package {package} (in any of its files); \
                 deprecate it instead of deleting it"
            )
        },
    );
}

/// PACKAGE_ENUM_NO_DELETE: an enum of a package is gone from every file of the package.
pub fn package_enum_no_delete(ctx: &Ctx, out: &mut Sink) {
    let new_messages = messages_per_file(ctx.new);
    report_package_deletions(
        ctx,
        out,
        "enum",
        |file: &File, add: &mut dyn FnMut(String, Span)| {
            for (nested, e) in enums_by_nested_name(file) {
                add(nested, e.span);
            }
        },
        |old_file, _, nested| location_in_same_file(ctx, &new_messages, old_file, nested),
        |nested, package| {
            format!(
                "restore enum {nested} in package {package} (in any of its files); \
                 deprecate it instead of deleting it"
            )
        },
    );
}

/// PACKAGE_EXTENSION_NO_DELETE: an extension of a package is gone from every file of it.
pub fn package_extension_no_delete(ctx: &Ctx, out: &mut Sink) {
    let new_messages = messages_per_file(ctx.new);
    report_package_deletions(
        ctx,
        out,
        "extension",
        |file: &File, add: &mut dyn FnMut(String, Span)| {
            for (nested, f) in extensions_by_nested_name(file) {
                add(nested, f.span);
            }
        },
        |old_file, _, nested| location_in_same_file(ctx, &new_messages, old_file, nested),
        |nested, package| {
            format!(
                "restore extension {nested} in package {package}; to retire it, keep it and \
                 mark it deprecated, and never reuse its number on the extended message"
            )
        },
    );
}

/// The shared body of the message/enum/extension package rules: reports each element of
/// `kind` (listed per file by `gather`) that no file of its surviving package declares any
/// more, at `locate(old file, package, nested name)`, with `help(nested name, package)`.
fn report_package_deletions<'a>(
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

/// PACKAGE_SERVICE_NO_DELETE: a service of a package is gone from every file of it.
pub fn package_service_no_delete(ctx: &Ctx, out: &mut Sink) {
    let gather = |file: &File, add: &mut dyn FnMut(String, Span)| {
        for s in &file.services {
            add(s.name.clone(), s.span);
        }
    };
    let old = collect(ctx.old, gather);
    for (package, deleted) in
        deleted_in_surviving_packages(ctx, &old, gather, Compared::EveryPackage)
    {
        for (name, old_file, old_span) in deleted {
            // buf never points inside the file for a deleted service.
            let location = ctx
                .new
                .files
                .get(&old_file.path)
                .map(|f| Location::in_file(f, None));
            out.add(
                location,
                ctx.old_loc(old_file, Some(old_span)),
                format!(
                    "Previously present service {} was deleted from package {}.",
                    quote(&name),
                    quote(&package)
                ),
            )
            .help = Some(format!(
                "restore service {name} in package {package}; clients still call it"
            ));
        }
    }
}

/// Where buf reports an enum or extension deleted from a package: in the new version of the
/// file that declared it (at its closest surviving parent message, else the file); nowhere if
/// that file is gone.
fn location_in_same_file(
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
type FileMessages<'a> = BTreeMap<&'a str, BTreeMap<String, &'a Message>>;

fn messages_per_file(schema: &Schema) -> FileMessages<'_> {
    schema
        .files
        .values()
        .map(|f| (f.path.as_str(), messages_by_nested_name(f)))
        .collect()
}

/// Builds package -> nested name -> (file, span) with `gather` listing a file's elements.
/// A package only gets an entry once it has an element of the kind gathered.
fn collect<'a>(
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
enum Compared {
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
fn deleted_in_surviving_packages<'a>(
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
            (None, Compared::EveryPackage) if ctx.new_index.packages.contains_key(package) => {
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
fn package_messages(schema: &Schema) -> BTreeMap<String, BTreeMap<String, (&File, &Message)>> {
    let mut out: BTreeMap<String, BTreeMap<String, (&File, &Message)>> = BTreeMap::new();
    for file in schema.files.values() {
        let entry = out.entry(file.package.clone()).or_default();
        for (nested, m) in messages_by_nested_name(file) {
            entry.entry(nested).or_insert((file, m));
        }
    }
    out
}
