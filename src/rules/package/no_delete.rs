//! PACKAGE_NO_DELETE: every file of a package was deleted or moved to another package.

use crate::finding::{Location, Sink};
use crate::rules::pairs::RemovedPackage;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(package: &RemovedPackage, out: &mut Sink) {
    let RemovedPackage { name, old_files } = package;
    // buf attaches the old file that sorts first, so ignores by path still apply.
    let Some(first) = old_files.iter().min_by(|a, b| a.path.cmp(&b.path)) else {
        return;
    };
    out.add(
        None,
        Some(Location::in_file(first, None)),
        format!("Previously present package {} was deleted.", quote(name)),
    )
    .help = Some(format!(
        "keep at least one file declaring `package {name};` with its types; \
         deprecate the types instead of deleting the package"
    ));
}
