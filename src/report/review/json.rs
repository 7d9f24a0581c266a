//! `review --format json`: `{"version":1,"verdict":...,"conventional_commit":...,"changes":[...]}`
//! (docs/json.md).

use serde::Serialize;

use super::verdict_name;
use crate::review::Review;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    verdict: &'static str,
    conventional_commit: Option<&'static str>,
    changes: Vec<JsonChange<'a>>,
}

#[derive(Serialize)]
struct JsonChange<'a> {
    class: &'static str,
    kind: &'static str,
    element: &'a str,
    element_kind: &'static str,
    /// Only for `kind: "renamed"`: the element's old full name.
    #[serde(skip_serializing_if = "Option::is_none")]
    renamed_from: Option<&'a str>,
    path: &'a str,
    start_line: u32,
    description: &'a str,
    rules: Vec<&'static str>,
}

pub fn render(review: &Review) -> String {
    let doc = Document {
        version: 1,
        verdict: verdict_name(review),
        conventional_commit: review.conventional_commit(),
        changes: review
            .changes
            .iter()
            .map(|c| JsonChange {
                class: c.class.name(),
                kind: c.kind.name(),
                element: &c.element,
                element_kind: c.element_kind,
                renamed_from: c.renamed_from.as_deref(),
                path: &c.path,
                start_line: c.start_line,
                description: &c.description,
                rules: c.rules(),
            })
            .collect(),
    };
    let mut out = serde_json::to_string_pretty(&doc).expect("a review serializes");
    out.push('\n');
    out
}
