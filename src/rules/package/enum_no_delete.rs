//! PACKAGE_ENUM_NO_DELETE: an enum of a package is gone from every file of the package.

use super::{location_in_same_file, messages_per_file, report_package_deletions};
use crate::diff::Ctx;
use crate::finding::Sink;
use crate::model::{File, Span};
use crate::rules::nested::enums_by_nested_name;

pub(in crate::rules) fn check(ctx: &Ctx, out: &mut Sink) {
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
