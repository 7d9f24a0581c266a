//! PACKAGE_SERVICE_NO_DELETE: a service of a package is gone from every file of it.

use super::{collect, deleted_in_surviving_packages, Compared};
use crate::diff::Ctx;
use crate::finding::{Location, Sink};
use crate::model::{File, Span};
use crate::rules::quote::quote;

pub(in crate::rules) fn check(ctx: &Ctx, out: &mut Sink) {
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
