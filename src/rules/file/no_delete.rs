//! FILE_NO_DELETE: a file present in the old revision is missing (files match by path).

use crate::finding::{Location, Sink};
use crate::model::File;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(old: &File, out: &mut Sink) {
    let path = &old.path;
    out.add(
        None,
        Some(Location::in_file(old, None)),
        format!("Previously present file {} was deleted.", quote(path)),
    )
    .help = Some(format!(
        "restore {path}; to retire its types, deprecate them in place \
         (option deprecated = true;) instead of deleting the file"
    ));
}
