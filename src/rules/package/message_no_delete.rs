//! PACKAGE_MESSAGE_NO_DELETE: a message of a package is gone from every file of the package.

use super::{package_messages, report_package_deletions};
use crate::diff::Ctx;
use crate::finding::{Location, Sink};
use crate::model::{File, Span};
use crate::rules::nested::{enclosing_message, for_each_message};

pub(in crate::rules) fn check(ctx: &Ctx, out: &mut Sink) {
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
