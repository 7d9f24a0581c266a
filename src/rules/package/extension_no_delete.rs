//! PACKAGE_EXTENSION_NO_DELETE: an extension of a package is gone from every file of it.

use super::{location_in_same_file, messages_per_file, report_package_deletions};
use crate::diff::Ctx;
use crate::finding::Sink;
use crate::model::{File, Span};
use crate::rules::nested::extensions_by_nested_name;

pub(in crate::rules) fn check(ctx: &Ctx, out: &mut Sink) {
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
