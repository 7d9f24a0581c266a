//! MESSAGE_NO_DELETE: a message (top-level or nested) is missing from a file that still
//! exists. Points at the closest surviving parent message, else at the file.

use crate::finding::Sink;
use crate::rules::nested::{messages_by_nested_name, report_deleted_from_file};
use crate::rules::pairs::FilePair;

pub(in crate::rules) fn check(files: FilePair, out: &mut Sink) {
    report_deleted_from_file(files, out, "message", messages_by_nested_name, |m| m.span);
}
