//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning and other viewers.
//!
//! The driver lists every rule of the catalog (so `ruleIndex` is an index into `RULES`),
//! with descriptions and help from the rule docs. Each result points at the new file (the
//! enclosing element for deletions, the old path for a deleted file), relates the old side
//! (the deleted element itself, not only its parent), and carries a fingerprint that
//! survives unrelated edits (no line numbers in it). Findings sharing a cause (a rename, a
//! move) are one result placed where the cause shows, as the text format groups them; its
//! level is its most severe finding's.

use serde_json::{json, Value};

use super::{categories, fingerprint, severity, Context};
use crate::finding::{Finding, Location};
use crate::model::{line_col, pascal_case};
use crate::passes::Group;
use crate::rules::{RuleMeta, Severity, RULES};

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The key of our entry in `partialFingerprints`; bump the version if the hash input changes.
const FINGERPRINT_KEY: &str = "protocompat/v1";

pub fn render(findings: &[Finding], ctx: &Context) -> String {
    let rules = RULES.iter().map(|r| rule(r, ctx)).collect::<Vec<_>>();
    pretty(&json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver(Some(rules)) },
            "results": results(findings, ctx),
        }],
    }))
}

/// The tool's description, with the rules when the run checked anything.
fn driver(rules: Option<Vec<Value>>) -> Value {
    let mut driver = json!({
        "name": "protocompat",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
    });
    if let Some(rules) = rules {
        driver["rules"] = json!(rules);
    }
    if let Some(uri) = information_uri() {
        driver["informationUri"] = json!(uri);
    }
    driver
}

fn pretty(log: &Value) -> String {
    // Serializing a serde_json::Value cannot fail.
    let mut out = serde_json::to_string_pretty(log).unwrap_or_default();
    out.push('\n');
    out
}

/// A run that could not check anything: no results, and the errors as the invocation's
/// tool notifications (code scanning shows them as the tool's errors).
pub(super) fn render_failed_run(notifications: Vec<Value>) -> String {
    pretty(&json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver(None) },
            "invocations": [{
                "executionSuccessful": false,
                "toolExecutionNotifications": notifications,
            }],
            "results": [],
        }],
    }))
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
        Severity::Info => "note",
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
        // SARIF's `name` is an identifier-like label: `FIELD_SAME_TYPE` -> `FieldSameType`.
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

/// One result per cause shown as a group (several findings, or a rename or move placed in
/// the new revision), one per other finding, in the findings' order.
fn results(findings: &[Finding], ctx: &Context) -> Vec<Value> {
    super::shown(findings, ctx.groups)
        .into_iter()
        .map(|item| match item {
            super::Shown::Cause(g, members) => group_result(g, &members, ctx),
            super::Shown::Alone(f, _) => result(f, ctx),
        })
        .collect()
}

/// A cause as one result: the first finding's rule, the cause's title, each finding on a
/// line of its own, the cause's fix; placed where the cause shows in the new revision, with
/// each finding's old-side element related.
fn group_result(group: &Group, members: &[&Finding], ctx: &Context) -> Value {
    let first = members[0];
    let mut out = result(first, ctx);
    let mut text = group.title.clone();
    for f in members {
        text.push_str(&format!("\n{}: {}", f.rule, f.message));
    }
    text.push_str("\nhelp: ");
    text.push_str(&group.help);
    out["message"] = json!({ "text": text });
    if let Some(l) = &group.location {
        out["locations"] = json!([{ "physicalLocation": physical(l, ctx.new_prefix) }]);
    }
    let worst = members
        .iter()
        .map(|f| severity(f))
        .max()
        .unwrap_or(Severity::Error);
    out["level"] = json!(level(worst));
    let mut rules: Vec<&str> = Vec::new();
    for f in members {
        if !rules.contains(&f.rule) {
            rules.push(f.rule);
        }
    }
    out["partialFingerprints"] = json!({
        FINGERPRINT_KEY: fingerprint("group", &group.key, &rules.join(",")),
    });
    out["properties"]["rules"] = json!(rules);
    out["properties"]["findings"] = json!(members.len());
    out["properties"]["group"] = json!(group.key);
    let related: Vec<Value> = members
        .iter()
        .filter_map(|f| f.previous.as_ref().map(|p| (f, p)))
        .enumerate()
        .map(|(i, (f, p))| related(i + 1, f, p, ctx))
        .collect();
    if related.is_empty() {
        out.as_object_mut().map(|o| o.remove("relatedLocations"));
    } else {
        out["relatedLocations"] = json!(related);
    }
    out
}

fn physical(l: &Location, prefix: &str) -> Value {
    json!({
        "artifactLocation": { "uri": format!("{prefix}{}", l.path) },
        "region": {
            "startLine": l.start_line,
            "startColumn": l.start_column,
            "endLine": l.end_line,
            "endColumn": l.end_column,
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
        "properties": {
            "categories": categories(f.rule, ctx.config_version),
            "direction": f.direction.name(),
        },
    });
    let note = super::direction_note(f);
    if !note.is_empty() {
        out["properties"]["directionNote"] = json!(note);
    }
    if let Some(index) = index {
        out["ruleIndex"] = json!(index);
    }
    if let Some(previous) = &f.previous {
        out["relatedLocations"] = json!([related(1, f, previous, ctx)]);
    }
    out
}

/// The old side's location, labelled with the revision it was read from: the deleted
/// element itself when the finding has one (buf reports a deleted field at its message).
fn related(id: usize, f: &Finding, previous: &Location, ctx: &Context) -> Value {
    let l = focused(f, previous, ctx).unwrap_or_else(|| previous.clone());
    let path = ctx.old_path(&l);
    json!({
        "id": id,
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

/// `previous` narrowed to the finding's focus (the old-side element), when the old text is
/// at hand to place it.
fn focused(f: &Finding, previous: &Location, ctx: &Context) -> Option<Location> {
    let focus = f.focus?;
    let text = ctx.sources?.old.get(&previous.path)?.text();
    let (start_line, start_column) = line_col(text, focus.start);
    let (end_line, end_column) = line_col(text, focus.end);
    Some(Location {
        path: previous.path.clone(),
        span: Some(focus),
        start_line,
        start_column,
        end_line,
        end_column,
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
