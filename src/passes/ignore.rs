//! Ignore directives in the new revision's comments.
//!
//! - `// protocompat:ignore RULE_ID[, RULE_ID] -- reason`, as a leading comment of an element
//!   (the comment block right before it, no blank line between, the comment on its own line),
//!   silences those rules for findings located on that element or inside it (span
//!   containment: a message covers its fields, options, nested types; a deleted field's
//!   finding is located on its message in the new revision).
//! - `// protocompat:ignore-file RULE_ID -- reason`, anywhere in a file, silences them for
//!   every finding located in that file.
//!
//! A rule id may also be a category (`WIRE_JSON`: every rule in it under the config's
//! version) or a deprecated id (its replacements). A directive without a reason is not
//! honoured; unknown ids, directives attached to nothing and ids that silence nothing are
//! warnings. Block comments (`/* ... */`) work the same way.

use std::sync::Arc;

use miette::{LabeledSpan, NamedSource, Report, Severity};
use rayon::prelude::*;

use crate::finding::{Finding, Location};
use crate::model::{File, Message, Schema, Span};
use crate::rules::{self, CATEGORIES, RULES};

const PREFIX: &str = "protocompat:";

/// A finding silenced by a directive.
#[derive(Debug, Clone)]
pub struct Ignored {
    pub finding: Finding,
    /// The reason written after `--`.
    pub reason: String,
    /// The directive's comment.
    pub directive: Location,
}

/// Findings split by the directives of the new revision.
pub struct Applied {
    pub kept: Vec<Finding>,
    pub ignored: Vec<Ignored>,
    pub warnings: Vec<Report>,
}

/// One honoured directive.
struct Directive {
    path: String,
    comment: Span,
    /// None for `ignore-file`; else the span of the element it is attached to.
    scope: Option<Span>,
    /// (id as written, rules it names, where it is written)
    ids: Vec<(String, Vec<&'static str>, Span)>,
    reason: String,
    /// Per entry of `ids`: whether it silenced something.
    used: Vec<bool>,
}

/// Splits `findings` (paths as in `new`) into kept and ignored ones. `display` names a file
/// for warnings (e.g. `acme/v1/a.proto @ working tree`).
pub fn apply(
    new: &Schema,
    findings: Vec<Finding>,
    config_version: &str,
    display: &dyn Fn(&str) -> String,
) -> Applied {
    apply_directives(new, directives(new, config_version), findings, display)
}

/// The directives of the new revision and the problems with them, before any finding is
/// matched: they depend on the schema alone, so they are found while the rules run.
pub struct Directives {
    found: Vec<Directive>,
    /// In file order.
    problems: Vec<Problem>,
}

/// A directive that could not be applied: (file path, where, what).
type Problem = (String, Span, String);

/// The directives of every file of `new`, the files read in parallel (each scan reads every
/// comment of its file).
pub fn directives(new: &Schema, config_version: &str) -> Directives {
    let per_file: Vec<(Vec<Directive>, Vec<Problem>)> = new
        .files
        .par_iter()
        .map(|(path, file)| {
            let mut problems = Vec::new();
            let mut warn = |span: Span, message: String| {
                problems.push((path.clone(), span, message));
            };
            (directives_of(file, config_version, &mut warn), problems)
        })
        .collect();
    let mut all = Directives {
        found: Vec::new(),
        problems: Vec::new(),
    };
    for (found, problems) in per_file {
        all.found.extend(found);
        all.problems.extend(problems);
    }
    all
}

/// [`apply`] with the directives already found.
pub fn apply_directives(
    new: &Schema,
    directives: Directives,
    findings: Vec<Finding>,
    display: &dyn Fn(&str) -> String,
) -> Applied {
    let mut warnings: Vec<Report> = directives
        .problems
        .into_iter()
        .map(|(path, span, message)| warning(&new.files[&path], &display(&path), span, message))
        .collect();
    let mut directives = directives.found;
    if directives.is_empty() {
        return Applied {
            kept: findings,
            ignored: Vec::new(),
            warnings,
        };
    }

    let mut kept = Vec::new();
    let mut ignored = Vec::new();
    for finding in findings {
        match silence(&mut directives, &finding) {
            Some(i) => {
                let d = &directives[i];
                let file = &new.files[&d.path];
                ignored.push(Ignored {
                    reason: d.reason.clone(),
                    directive: Location::in_file(file, Some(d.comment)),
                    finding,
                });
            }
            None => kept.push(finding),
        }
    }

    for d in &directives {
        let file = &new.files[&d.path];
        for ((written, _, at), used) in d.ids.iter().zip(&d.used) {
            if !*used {
                warnings.push(warning(
                    file,
                    &display(&d.path),
                    *at,
                    format!("`protocompat:ignore {written}` silences nothing: remove it, or fix the rule id"),
                ));
            }
        }
    }
    Applied {
        kept,
        ignored,
        warnings,
    }
}

/// Marks every directive covering `finding` as used; returns the innermost one.
fn silence(directives: &mut [Directive], finding: &Finding) -> Option<usize> {
    let loc = finding.location.as_ref()?;
    let mut best: Option<(usize, u32)> = None;
    for (i, d) in directives.iter_mut().enumerate() {
        if d.path != loc.path {
            continue;
        }
        let width = match (d.scope, loc.span) {
            (None, _) => u32::MAX,
            (Some(scope), Some(at)) if scope.start <= at.start && at.end <= scope.end => {
                scope.end - scope.start
            }
            _ => continue,
        };
        let mut hit = false;
        for ((_, rules, _), used) in d.ids.iter().zip(d.used.iter_mut()) {
            if rules.contains(&finding.rule) {
                *used = true;
                hit = true;
            }
        }
        if hit && best.is_none_or(|(_, w)| width < w) {
            best = Some((i, width));
        }
    }
    best.map(|(i, _)| i)
}

/// The honoured directives of one file; problems go to `warn`.
fn directives_of(
    file: &File,
    config_version: &str,
    warn: &mut dyn FnMut(Span, String),
) -> Vec<Directive> {
    // A directive's comment starts with the prefix, so a text without it has none (and no
    // problem to warn about): most files, skipped without walking their comments.
    if memchr::memmem::find(file.text.as_bytes(), PREFIX.as_bytes()).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut elements: Option<Vec<Span>> = None;
    for comment in &file.comments {
        let body = comment
            .body(&file.text)
            .trim_start_matches(['/', '*', '!'])
            .trim();
        let Some(rest) = body.strip_prefix(PREFIX) else {
            continue;
        };
        let (kind, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let file_wide = match kind {
            "ignore" => false,
            "ignore-file" => true,
            other => {
                warn(
                    comment.span,
                    format!("unknown directive `protocompat:{other}`: use `protocompat:ignore` or `protocompat:ignore-file`"),
                );
                continue;
            }
        };
        let located = Located {
            text: &file.text,
            comment: comment.span,
        };
        let Some(parsed) = parse_directive(rest, kind, config_version, &located, warn) else {
            continue;
        };
        let scope = if file_wide {
            None
        } else {
            let elements = elements.get_or_insert_with(|| element_spans(file));
            match attached_element(file, comment.span, elements) {
                Ok(span) => Some(span),
                Err(why) => {
                    warn(
                        comment.span,
                        format!("`protocompat:ignore` is not honoured: {why}"),
                    );
                    continue;
                }
            }
        };
        let used = vec![false; parsed.0.len()];
        out.push(Directive {
            path: file.path.clone(),
            comment: comment.span,
            scope,
            ids: parsed.0,
            reason: parsed.1,
            used,
        });
    }
    out
}

type Parsed = (Vec<(String, Vec<&'static str>, Span)>, String);

/// A directive's comment in its file, to point warnings at the word concerned.
struct Located<'a> {
    text: &'a str,
    comment: Span,
}

impl Located<'_> {
    /// The span of `word` in the comment (after the `protocompat:` marker), else the comment.
    fn word(&self, word: &str) -> Span {
        let body = &self.text[self.comment.range()];
        let after = body.find(PREFIX).map_or(0, |i| i + PREFIX.len());
        let found = body[after..].match_indices(word).find(|(i, _)| {
            let end = after + i + word.len();
            !body[end..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        });
        match found {
            Some((i, _)) => {
                let start = self.comment.start as usize + after + i;
                Span::new(start, start + word.len())
            }
            None => self.comment,
        }
    }
}

/// `RULE_ID[, RULE_ID] -- reason` -> the ids with the rules they name, and the reason.
fn parse_directive(
    rest: &str,
    kind: &str,
    config_version: &str,
    at: &Located,
    warn: &mut dyn FnMut(Span, String),
) -> Option<Parsed> {
    let (ids, reason) = match rest.split_once("--") {
        Some((ids, reason)) => (ids, reason.split_whitespace().collect::<Vec<_>>().join(" ")),
        None => (rest, String::new()),
    };
    if reason.is_empty() {
        warn(
            at.comment,
            format!("`protocompat:{kind}` is not honoured: it needs a reason (`protocompat:{kind} RULE_ID -- why this break is fine`)"),
        );
        return None;
    }
    let mut named = Vec::new();
    for id in ids.split([',', ' ', '\t']).filter(|s| !s.is_empty()) {
        let rules = rules_named(id, config_version);
        if rules.is_empty() {
            warn(
                at.word(id),
                format!("unknown rule id or category `{id}` in `protocompat:{kind}`: see `protocompat rules`"),
            );
        } else {
            named.push((id.to_string(), rules, at.word(id)));
        }
    }
    if named.is_empty() {
        warn(
            at.comment,
            format!("`protocompat:{kind}` is not honoured: it names no known rule id"),
        );
        return None;
    }
    Some((named, reason))
}

/// The rules an id in a directive stands for: a rule, a deprecated id's replacements, or a
/// category's rules under the config version.
fn rules_named(id: &str, config_version: &str) -> Vec<&'static str> {
    if let Some(rule) = rules::find(id) {
        if rule.deprecated {
            return rule.replaced_by.to_vec();
        }
        return vec![rule.id];
    }
    if CATEGORIES.contains(&id) {
        return RULES
            .iter()
            .filter(|r| !r.deprecated && r.categories_for(config_version).contains(&id))
            .map(|r| r.id)
            .collect();
    }
    Vec::new()
}

/// The element a leading comment is attached to: the declaration that starts right after
/// the comment block (consecutive comments with no blank line), the comment being on its
/// own line. The largest element starting there wins (a group's field and message).
fn attached_element(file: &File, comment: Span, elements: &[Span]) -> Result<Span, String> {
    let text: &str = &file.text;
    let line_start = text[..comment.start as usize]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    if !text[line_start..comment.start as usize].trim().is_empty() {
        return Err(
            "it follows code on its line; put it on its own line right before the element".into(),
        );
    }
    let mut pos = comment.end as usize;
    loop {
        let gap = &text[pos..];
        let ws = gap.len() - gap.trim_start().len();
        if gap[..ws].matches('\n').count() > 1 {
            return Err(
                "a blank line separates it from the next element; remove the blank line".into(),
            );
        }
        pos += ws;
        match file.comments.iter().find(|c| c.span.start as usize == pos) {
            Some(next) => pos = next.span.end as usize,
            None => break,
        }
    }
    elements
        .iter()
        .filter(|s| s.start as usize == pos)
        .max_by_key(|s| s.end)
        .copied()
        .ok_or_else(|| "no declaration follows it".to_string())
}

/// Every span a directive can be attached to: statements of the file and every element.
fn element_spans(file: &File) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    out.extend(file.syntax_span);
    out.extend(file.package_span);
    out.extend(file.imports.iter().map(|i| i.span));
    out.extend(file.options.entries.iter().map(|o| o.span));
    out.extend(file.extensions.iter().map(|f| f.span));
    for m in &file.messages {
        message_spans(m, &mut out);
    }
    for e in &file.enums {
        out.push(e.span);
        out.extend(e.values.iter().map(|v| v.span));
        out.extend(e.options.entries.iter().map(|o| o.span));
    }
    for s in &file.services {
        out.push(s.span);
        out.extend(s.options.entries.iter().map(|o| o.span));
        for m in &s.methods {
            out.push(m.span);
            out.extend(m.options.entries.iter().map(|o| o.span));
        }
    }
    out
}

fn message_spans(m: &Message, out: &mut Vec<Span>) {
    out.push(m.span);
    out.extend(m.fields.iter().map(|f| f.span));
    out.extend(m.oneofs.iter().filter(|o| !o.synthetic).map(|o| o.span));
    out.extend(m.extensions.iter().map(|f| f.span));
    out.extend(m.options.entries.iter().map(|o| o.span));
    out.extend(m.reserved_ranges.iter().map(|r| r.span));
    for e in &m.enums {
        out.push(e.span);
        out.extend(e.values.iter().map(|v| v.span));
        out.extend(e.options.entries.iter().map(|o| o.span));
    }
    for child in &m.messages {
        message_spans(child, out);
    }
}

fn warning(file: &File, name: &str, span: Span, message: String) -> Report {
    let diagnostic = miette::MietteDiagnostic::new(message)
        .with_severity(Severity::Warning)
        .with_code("protocompat::ignore")
        .with_label(LabeledSpan::at(span.range(), "here"));
    Report::new(diagnostic).with_source_code(NamedSource::new(name, Arc::clone(&file.text)))
}

#[cfg(test)]
mod tests;
