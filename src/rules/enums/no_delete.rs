//! ENUM_NO_DELETE: an enum (top-level or nested) is missing from a file that still exists.

use crate::finding::Sink;
use crate::rules::nested::{enums_by_nested_name, report_deleted_from_file};
use crate::rules::pairs::FilePair;

pub(in crate::rules) fn check(files: FilePair, out: &mut Sink) {
    report_deleted_from_file(files, out, "enum", enums_by_nested_name, |e| e.span);
}
