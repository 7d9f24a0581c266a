//! `review --format markdown`: a pull-request description. The verdict and the suggested
//! commit type first, then one table per file.

use std::fmt::Write as _;

use super::{by_file, counts_words, unstable_notes, verdict_name, ReviewContext};
use crate::review::{Change, Class, Review};

pub fn render(review: &Review, ctx: &ReviewContext) -> String {
    let mut out = String::new();
    let commit = review
        .conventional_commit()
        .map_or(String::new(), |c| format!(" · suggested commit type `{c}`"));
    let _ = writeln!(
        out,
        "## Schema review: **{}**{commit}\n",
        verdict_name(review)
    );
    let _ = writeln!(
        out,
        "{} against `{}` ({}).",
        capitalized(&counts_words(review)),
        ctx.against,
        ctx.new_label
    );
    for (path, changes) in by_file(review) {
        let _ = writeln!(out, "\n### `{path}`\n");
        for note in unstable_notes(&changes) {
            let _ = writeln!(
                out,
                "> Note: {note}; breaking changes there count as minor.\n"
            );
        }
        out.push_str("| Class | Change | Element | Line | Description | Rules |\n");
        out.push_str("| --- | --- | --- | ---: | --- | --- |\n");
        for change in changes {
            row(&mut out, change);
        }
    }
    out
}

fn row(out: &mut String, c: &Change) {
    let class = match c.class {
        Class::Major => "**major**".to_string(),
        other => other.name().to_string(),
    };
    let rules: Vec<String> = c.rules().iter().map(|r| format!("`{r}`")).collect();
    let _ = writeln!(
        out,
        "| {class} | {} {} | `{}` | {} | {} | {} |",
        c.kind.name(),
        c.element_kind.replace('_', " "),
        cell(&c.element),
        super::line_words(c).trim_start_matches("line "),
        cell(&c.description),
        rules.join(" ")
    );
}

/// Text made safe for a table cell: no `|` or line break.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
