//! `protocompat explain RULE_ID`: a rule's doc from the embedded catalog, rendered for a
//! terminal (headings set off, code blocks indented, front matter as one header line).

use std::fmt::Write as _;

use super::Style;
use crate::rules::{self, RuleMeta, RULES};

/// The rule for an id typed by a user (case and `-`/`_` forgiven).
pub fn lookup(id: &str) -> Option<&'static RuleMeta> {
    let wanted = id.trim().to_ascii_uppercase().replace('-', "_");
    rules::find(&wanted)
}

/// Up to three known ids close to a mistyped one, best first.
pub fn suggestions(id: &str) -> Vec<&'static str> {
    let wanted = id.trim().to_ascii_uppercase().replace('-', "_");
    let mut scored: Vec<(f64, &'static str)> = RULES
        .iter()
        .map(|r| (strsim::jaro_winkler(&wanted, r.id), r.id))
        .filter(|(score, id)| *score > 0.8 || id.contains(wanted.as_str()))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, id)| id).collect()
}

/// The doc of `rule`, rendered.
pub fn render(rule: &RuleMeta, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", paint(style, "1", &header(rule)));
    if rule.deprecated && !rule.replaced_by.is_empty() {
        let _ = writeln!(
            out,
            "deprecated: replaced by {}",
            rule.replaced_by.join(", ")
        );
    }
    let body = strip_front_matter(rule.doc);
    if !body.contains(rule.summary) {
        let _ = writeln!(out, "{}", rule.summary);
    }
    out.push('\n');
    let mut in_code = false;
    let mut previous_blank = true;
    for line in body.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code && line.trim().is_empty() {
            out.push('\n');
            continue;
        }
        if in_code {
            let _ = writeln!(out, "    {}", paint(style, "36", line));
            previous_blank = false;
            continue;
        }
        let blank = line.trim().is_empty();
        if blank && previous_blank {
            continue;
        }
        previous_blank = blank;
        if let Some(title) = line.strip_prefix("# ") {
            // The doc's title repeats the id already in the header line.
            if title.trim() == rule.id {
                previous_blank = true;
                continue;
            }
            let _ = writeln!(out, "{}", paint(style, "1;4", title));
        } else if let Some(title) = line.strip_prefix("### ") {
            let _ = writeln!(out, "{}", paint(style, "1", &format!("{title}:")));
        } else if let Some(title) = line.strip_prefix("## ") {
            let underline = if style.unicode { "─" } else { "-" };
            let _ = writeln!(out, "{}", paint(style, "1", title));
            let _ = writeln!(out, "{}", underline.repeat(title.chars().count()));
        } else {
            let _ = writeln!(out, "{}", inline(line, style));
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// `FIELD_NO_DELETE — error, on by default — categories: FILE, PACKAGE — summary`.
fn header(rule: &RuleMeta) -> String {
    let default = if rule.default {
        "on by default"
    } else {
        "off by default"
    };
    let mut categories: Vec<&str> = rule.categories.to_vec();
    categories.sort_by_key(|c| rules::CATEGORIES.iter().position(|k| k == c));
    format!(
        "{} ({}, {default}; categories: {})",
        rule.id,
        rule.severity.name(),
        if categories.is_empty() {
            "none".to_string()
        } else {
            categories.join(", ")
        }
    )
}

fn strip_front_matter(doc: &str) -> &str {
    let Some(rest) = doc.strip_prefix("---") else {
        return doc;
    };
    match rest.find("\n---") {
        Some(end) => rest[end + 4..].trim_start_matches(['\r', '\n']),
        None => doc,
    }
}

/// Inline markdown: `code` and **bold** lose their markers when colour shows them instead.
fn inline(line: &str, style: Style) -> String {
    if !style.color {
        return line.replace("**", "");
    }
    let mut out = String::new();
    let mut code = false;
    let mut bold = false;
    let mut rest = line;
    while let Some(i) = rest.find(['`', '*']) {
        out.push_str(&rest[..i]);
        if rest[i..].starts_with("**") {
            bold = !bold;
            out.push_str(if bold { "\u{1b}[1m" } else { "\u{1b}[22m" });
            rest = &rest[i + 2..];
        } else if rest[i..].starts_with('`') {
            code = !code;
            out.push_str(if code { "\u{1b}[36m" } else { "\u{1b}[39m" });
            rest = &rest[i + 1..];
        } else {
            out.push('*');
            rest = &rest[i + 1..];
        }
    }
    out.push_str(rest);
    if code || bold {
        out.push_str("\u{1b}[0m");
    }
    out
}

fn paint(style: Style, ansi: &str, text: &str) -> String {
    if style.color {
        format!("\u{1b}[{ansi}m{text}\u{1b}[0m")
    } else {
        text.to_string()
    }
}
