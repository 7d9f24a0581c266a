//! Each finding goes to the change it is about: the smallest change whose span holds the
//! finding's place, looked up by the old element the finding focuses on, then its new-side
//! location, then its old-side one. A finding no change holds (a rule about something the
//! review does not list on its own) becomes a change of its own, so the verdict never
//! misses an error.

use super::{element, Change, Class, Kind};
use crate::finding::{Finding, Location};
use crate::model::Span;

pub fn findings(changes: &mut Vec<Change>, findings: &[Finding]) {
    for finding in findings {
        match owner(changes, finding) {
            Some(i) => changes[i].findings.push(finding.clone()),
            None => changes.push(on_its_own(finding)),
        }
    }
}

/// The index of the change the finding belongs to.
fn owner(changes: &[Change], f: &Finding) -> Option<usize> {
    let old_path = f.previous.as_ref().map(|p| p.path.as_str());
    let focus = f.focus.zip(old_path).map(|(span, path)| (path, span));
    let new = place(&f.location);
    let old = place(&f.previous);
    focus
        .and_then(|p| smallest(changes, p, |c| c.old_at.as_ref()))
        .or_else(|| new.and_then(|p| smallest(changes, p, |c| c.new_at.as_ref())))
        .or_else(|| old.and_then(|p| smallest(changes, p, |c| c.old_at.as_ref())))
}

fn place(location: &Option<Location>) -> Option<(&str, Span)> {
    let l = location.as_ref()?;
    Some((l.path.as_str(), l.span.unwrap_or_default()))
}

/// The change with the smallest span on one side that holds `(path, span)`.
fn smallest(
    changes: &[Change],
    (path, span): (&str, Span),
    side: impl Fn(&Change) -> Option<&(String, Span)>,
) -> Option<usize> {
    changes
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let (p, s) = side(c)?;
            (p == path && s.start <= span.start && span.end <= s.end)
                .then_some((s.end - s.start, i))
        })
        .min()
        .map(|(_, i)| i)
}

/// A change made of a finding alone.
fn on_its_own(f: &Finding) -> Change {
    let at = f.location.as_ref().or(f.previous.as_ref());
    let path = at.map_or_else(String::new, |l| l.path.clone());
    let kind = if f.location.is_none() {
        Kind::Removed
    } else {
        Kind::Changed
    };
    Change {
        class: Class::Minor,
        kind,
        element: path.clone(),
        element_kind: kind_of_rule(f.rule),
        renamed_from: None,
        shown: super::Shown::Both,
        start_line: at.map_or(1, |l| l.start_line),
        path,
        description: f.message.clone(),
        findings: vec![f.clone()],
        unstable: None,
        package: String::new(),
        new_at: None,
        old_at: None,
        base: Class::Minor,
    }
}

/// The element kind a rule is about, by its id's prefix.
fn kind_of_rule(rule: &str) -> &'static str {
    const PREFIXES: &[(&str, &str)] = &[
        ("ENUM_VALUE_", element::ENUM_VALUE),
        ("ENUM_", element::ENUM),
        ("EXTENSION_", element::EXTENSION),
        ("FIELD_", element::FIELD),
        ("MESSAGE_", element::MESSAGE),
        ("ONEOF_", element::ONEOF),
        ("RESERVED_", element::RESERVATION),
        ("RPC_", element::RPC),
        ("SERVICE_", element::SERVICE),
    ];
    PREFIXES
        .iter()
        .find(|(prefix, _)| rule.starts_with(prefix))
        .map_or(element::FILE, |(_, kind)| kind)
}
