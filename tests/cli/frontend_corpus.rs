//! Builds every side (`previous/`, `current/`) of every case of buf's conformance corpus
//! (`/work/shared/conformance/buf/cases`, skipped when absent) and asserts the front-end
//! reports no error: every file parses and every name resolves.

use crate::support;
use support::corpus;

use corpus::{side_sources, sides, CORPUS};
use protocompat::link::{build_schema, NoImports};

#[test]
fn every_corpus_file_builds_without_errors() {
    let sides = sides();
    if sides.is_empty() {
        eprintln!("skipped: {CORPUS} is absent");
        return;
    }
    let mut failures = Vec::new();
    for side in &sides {
        if let Err(error) = build_schema(side_sources(side), &NoImports) {
            for diagnostic in error.diagnostics {
                failures.push(format!("{}: {:?}", side.display(), diagnostic));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
