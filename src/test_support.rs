//! Test support shared by the crate's unit tests: schemas from in-memory files, and one rule
//! run over two of them.

use crate::diff::Diff;
use crate::finding::Finding;
use crate::rules::RuleId;

/// Builds a schema from in-memory `(path, text)` files, panicking if it does not
/// build (test inputs are meant to be valid).
pub(crate) fn build_test_schema(files: &[(&str, &str)]) -> crate::model::Schema {
    use crate::link::{build_schema, NoImports, SourceFile};
    let sources = files
        .iter()
        .map(|(path, text)| SourceFile {
            path: path.to_string(),
            display_name: path.to_string(),
            text: (*text).into(),
        })
        .collect();
    match build_schema(sources, &NoImports) {
        Ok(out) => out.schema,
        Err(e) => panic!("test schema does not build: {:?}", e.diagnostics),
    }
}

/// Builds in-memory `(path, text)` files, taking what `old` (an earlier build's reuse)
/// allows, as a check's new side does.
pub(crate) fn build_reusing_texts(
    files: &[(&str, &str)],
    old: Option<&crate::link::Reuse>,
) -> Result<crate::link::BuildOutput, crate::link::BuildError> {
    crate::link::build_parsed_reusing(parsed_files(files), &crate::link::NoImports, old)
}

/// In-memory `(path, text)` files with their syntax trees, as a build takes them.
pub(crate) fn parsed_files(
    files: &[(&str, &str)],
) -> Vec<(
    crate::link::SourceFile,
    std::sync::Arc<crate::parse::ParsedFile>,
)> {
    use std::sync::Arc;
    files
        .iter()
        .map(|(path, text)| {
            let source = crate::link::SourceFile {
                path: path.to_string(),
                display_name: path.to_string(),
                text: Arc::from(*text),
            };
            (source, Arc::new(crate::parse::parse(text)))
        })
        .collect()
}

/// Runs one rule over two in-memory revisions and returns its full findings, in output order.
pub(crate) fn rule_findings(
    rule: RuleId,
    old: &[(&str, &str)],
    new: &[(&str, &str)],
) -> Vec<Finding> {
    let (old, new) = (build_test_schema(old), build_test_schema(new));
    crate::engine::run_rules(&Diff::new(&old, &new), &[rule.meta()])
}

/// Runs one rule over two in-memory revisions and returns
/// `(path, "line:col-line:col", message)` per finding, in output order.
pub(crate) fn run_rule(
    rule: RuleId,
    old: &[(&str, &str)],
    new: &[(&str, &str)],
) -> Vec<(String, String, String)> {
    rule_findings(rule, old, new)
        .into_iter()
        .map(|f| match f.location {
            Some(l) => (
                l.path,
                format!(
                    "{}:{}-{}:{}",
                    l.start_line, l.start_column, l.end_line, l.end_column
                ),
                f.message,
            ),
            None => (String::new(), String::new(), f.message),
        })
        .collect()
}

/// A proto3 file in package `p` with this body.
pub(crate) fn proto3(body: &str) -> String {
    format!("syntax = \"proto3\";\npackage p;\n{body}")
}

/// A proto2 file in package `p` with this body.
pub(crate) fn proto2(body: &str) -> String {
    format!("syntax = \"proto2\";\npackage p;\n{body}")
}

/// The messages of [`run_rule`]'s findings.
pub(crate) fn messages(findings: &[(String, String, String)]) -> Vec<&str> {
    findings.iter().map(|f| f.2.as_str()).collect()
}
