//! FILE_SAME_PACKAGE: the `package` of a file changed.

use crate::finding::{Location, Sink};
use crate::rules::pairs::FilePair;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(FilePair { new, old }: FilePair, out: &mut Sink) {
    if new.package == old.package {
        return;
    }
    let help = if old.package.is_empty() {
        "remove the package statement: the file had no package before".to_string()
    } else {
        format!("restore `package {};`", old.package)
    };
    out.add(
        Some(Location::in_file(new, new.package_span)),
        Some(Location::in_file(old, old.package_span)),
        format!(
            "File package changed from {} to {}.",
            quote(&old.package),
            quote(&new.package)
        ),
    )
    .help = Some(help);
}
