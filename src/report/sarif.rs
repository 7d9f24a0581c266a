//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning and other viewers.
//!
//! The driver lists every rule of the catalog (so `ruleIndex` is an index into `RULES`),
//! with descriptions and help from the rule docs. Each result points at the new file (the
//! enclosing element for deletions, the old path for a deleted file), relates the old side,
//! and carries a fingerprint that survives unrelated edits (no line numbers in it).

use serde_json::{json, Value};

use super::{categories, fingerprint, severity, Context};
use crate::finding::{Finding, Location};
use crate::rules::{RuleMeta, Severity, RULES};

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The key of our entry in `partialFingerprints`; bump the version if the hash input changes.
const FINGERPRINT_KEY: &str = "protocompat/v1";

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let mut driver = json!({
        "name": "protocompat",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": RULES.iter().map(|r| rule(r, ctx)).collect::<Vec<_>>(),
    });
    if let Some(uri) = information_uri() {
        driver["informationUri"] = json!(uri);
    }
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver },
            "results": findings.iter().map(|f| result(f, ctx)).collect::<Vec<_>>(),
        }],
    });
    // Serializing a serde_json::Value cannot fail.
    let mut out = serde_json::to_string_pretty(&log).unwrap_or_default();
    out.push('\n');
    out
}

/// The project's home from Cargo.toml (`repository`, else `homepage`), when set.
fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_HOMEPAGE")]
        .into_iter()
        .find(|u| !u.is_empty())
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn rule(r: &RuleMeta, ctx: &Context) -> Value {
    let body = doc_body(r.doc);
    let detects = section(body, "What it detects").unwrap_or(r.summary);
    let fix = section(body, "How to fix").unwrap_or(r.summary);
    let short = if r.deprecated {
        format!("(deprecated) {}", r.summary)
    } else {
        r.summary.to_string()
    };
    json!({
        "id": r.id,
        "name": pascal_case(r.id),
        "shortDescription": { "text": short },
        "fullDescription": { "text": unwrap_paragraphs(detects) },
        "help": { "text": unwrap_paragraphs(fix), "markdown": body.trim() },
        "defaultConfiguration": { "level": level(r.severity) },
        "properties": {
            "tags": categories(r.id, ctx.config_version),
            "default": r.default,
            "deprecated": r.deprecated,
        },
    })
}

fn result(f: &Finding, ctx: &Context) -> Value {
    let index = RULES.iter().position(|r| r.id == f.rule);
    let primary = ctx.primary(f);
    let mut location = json!({
        "physicalLocation": {
            "artifactLocation": { "uri": primary.path },
            "region": {
                "startLine": primary.start_line,
                "startColumn": primary.start_column,
                "endLine": primary.end_line,
                "endColumn": primary.end_column,
            },
        },
    });
    if primary.deleted {
        location["message"] = json!({ "text": format!("file deleted since {}", ctx.against) });
        location["properties"] = json!({ "deletedFile": true, "revision": ctx.against });
    }
    let mut text = f.message.clone();
    if let Some(help) = &f.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    let identity_path = f
        .location
        .as_ref()
        .or(f.previous.as_ref())
        .map_or("", |l| l.path.as_str());
    let mut out = json!({
        "ruleId": f.rule,
        "level": level(severity(f)),
        "message": { "text": text },
        "locations": [location],
        "partialFingerprints": {
            FINGERPRINT_KEY: fingerprint(f.rule, identity_path, &f.message),
        },
        "properties": { "categories": categories(f.rule, ctx.config_version) },
    });
    if let Some(index) = index {
        out["ruleIndex"] = json!(index);
    }
    if let Some(previous) = &f.previous {
        out["relatedLocations"] = json!([related(previous, ctx)]);
    }
    out
}

/// The old side's location, labelled with the revision it was read from.
fn related(l: &Location, ctx: &Context) -> Value {
    let path = ctx.old_path(l);
    json!({
        "id": 1,
        "physicalLocation": {
            "artifactLocation": { "uri": path },
            "region": {
                "startLine": l.start_line,
                "startColumn": l.start_column,
                "endLine": l.end_line,
                "endColumn": l.end_column,
            },
        },
        "message": {
            "text": format!("{path}:{}:{} @ {}", l.start_line, l.start_column, ctx.against),
        },
    })
}

/// The doc without its front matter.
fn doc_body(doc: &str) -> &str {
    doc.strip_prefix("---\n")
        .and_then(|rest| rest.find("\n---\n").map(|end| &rest[end + 5..]))
        .unwrap_or(doc)
}

/// The text of a `## title` section, up to the next `## ` heading.
fn section<'d>(body: &'d str, title: &str) -> Option<&'d str> {
    let heading = format!("## {title}\n");
    let start = body.find(&heading)? + heading.len();
    let rest = &body[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// Joins hard-wrapped lines of each paragraph, keeping the blank lines between paragraphs.
fn unwrap_paragraphs(text: &str) -> String {
    text.split("\n\n")
        .map(|p| p.lines().map(str::trim).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// `FIELD_SAME_TYPE` -> `FieldSameType` (SARIF's `name` is an identifier-like label).
fn pascal_case(id: &str) -> String {
    id.split('_')
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(c) => c.to_string() + &chars.as_str().to_lowercase(),
                None => String::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_come_from_the_rule_doc() {
        let doc = "---\nid: X\n---\n\n# X\n\n## What it detects\n\nA field\nwas removed.\n\n## How to fix\n\nReserve it.\n";
        let body = doc_body(doc);
        assert_eq!(
            section(body, "What it detects").map(unwrap_paragraphs),
            Some("A field was removed.".to_string())
        );
        assert_eq!(section(body, "How to fix"), Some("Reserve it."));
        assert_eq!(section(body, "Missing"), None);
    }

    #[test]
    fn names_are_pascal_case() {
        assert_eq!(pascal_case("FIELD_SAME_TYPE"), "FieldSameType");
    }
}
