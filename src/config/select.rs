//! Rule selection with buf's semantics: ids and categories of the config's version, the
//! default set when `use` is empty, deprecated ids replaced (with a warning), `except`
//! removed, `ignore_only` keys expanded the same way.

use std::collections::{BTreeMap, BTreeSet};

use super::Breaking;
use crate::rules::{RuleMeta, HAZARD, RULES};
use crate::source::normalize;

/// The rules to run and the ignores to apply to their findings.
#[derive(Debug, Clone)]
pub struct Selection {
    /// The buf config version (categories in reports follow it).
    pub version: String,
    /// Sorted by id; never deprecated.
    pub rules: Vec<&'static RuleMeta>,
    /// Paths (relative to the module root) whose findings are dropped for every rule.
    pub ignore: Vec<String>,
    /// Rule id -> paths whose findings of that rule are dropped.
    pub ignore_only: BTreeMap<&'static str, Vec<String>>,
    pub ignore_unstable_packages: bool,
    /// Messages for stderr (deprecated ids, an empty rule set).
    pub warnings: Vec<String>,
}

/// `Err(id)`: `id` is neither a rule nor a category of this config version.
pub fn select(breaking: &Breaking, version: &str, config_name: &str) -> Result<Selection, String> {
    let known: Vec<&'static RuleMeta> = RULES
        .iter()
        .filter(|r| r.versions.contains(&version))
        .collect();
    let mut warnings = deprecation_warnings(breaking, &known, config_name);

    let mut use_ids = expand(&breaking.use_, &known, version)?;
    if breaking.use_.iter().all(|s| s.is_empty()) {
        use_ids = known.iter().filter(|r| r.default).map(|r| r.id).collect();
    }
    // The hazards are on whatever `use` says; only `except` turns them off.
    use_ids.extend(
        known
            .iter()
            .filter(|r| r.categories_for(version).contains(&HAZARD))
            .map(|r| r.id),
    );
    let except_ids = expand(&breaking.except, &known, version)?;
    let use_ids = undeprecate(use_ids, &known);
    let except_ids = undeprecate(except_ids, &known);

    let mut rules: Vec<&'static RuleMeta> = if breaking.disable_builtin {
        Vec::new()
    } else {
        use_ids
            .difference(&except_ids)
            .filter_map(|id| known.iter().find(|r| r.id == *id).copied())
            .collect()
    };
    rules.sort_by_key(|r| r.id);
    if rules.is_empty() {
        warnings.push(format!(
            "No breaking rules are configured in {config_name}."
        ));
    }

    let mut ignore_only: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for (key, paths) in &breaking.ignore_only {
        let ids = undeprecate(expand(std::slice::from_ref(key), &known, version)?, &known);
        for id in ids {
            ignore_only
                .entry(id)
                .or_default()
                .extend(paths.iter().map(|p| normalize(p)));
        }
    }

    Ok(Selection {
        version: version.to_string(),
        rules,
        ignore: breaking.ignore.iter().map(|p| normalize(p)).collect(),
        ignore_only,
        ignore_unstable_packages: breaking.ignore_unstable_packages,
        warnings,
    })
}

/// Rule and category ids -> rule ids (possibly deprecated ones).
fn expand(
    ids: &[String],
    known: &[&'static RuleMeta],
    version: &str,
) -> Result<BTreeSet<&'static str>, String> {
    let mut out = BTreeSet::new();
    for id in ids.iter().filter(|id| !id.is_empty()) {
        if let Some(rule) = known.iter().find(|r| r.id == id) {
            out.insert(rule.id);
            continue;
        }
        let members: Vec<&'static str> = known
            .iter()
            .filter(|r| r.categories_for(version).contains(&id.as_str()))
            .map(|r| r.id)
            .collect();
        if members.is_empty() {
            return Err(id.clone());
        }
        out.extend(members);
    }
    Ok(out)
}

/// Deprecated ids -> their replacements (which may be none).
fn undeprecate(ids: BTreeSet<&'static str>, known: &[&'static RuleMeta]) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    for id in ids {
        match known.iter().find(|r| r.id == id) {
            Some(rule) if rule.deprecated => {
                out.extend(
                    rule.replaced_by
                        .iter()
                        .filter_map(|r| known.iter().find(|k| k.id == *r).map(|k| k.id)),
                );
            }
            _ => {
                out.insert(id);
            }
        }
    }
    out
}

/// One warning per deprecated id the configuration names, in the spirit of buf's.
fn deprecation_warnings(
    breaking: &Breaking,
    known: &[&'static RuleMeta],
    config_name: &str,
) -> Vec<String> {
    let referenced: BTreeSet<&str> = breaking
        .use_
        .iter()
        .chain(&breaking.except)
        .chain(breaking.ignore_only.keys())
        .map(String::as_str)
        .collect();
    let mut out = Vec::new();
    for id in referenced {
        let Some(rule) = known.iter().find(|r| r.id == id && r.deprecated) else {
            continue;
        };
        let mut replacements: Vec<&str> = rule.replaced_by.to_vec();
        replacements.sort();
        let replaced = match replacements.as_slice() {
            [] => String::new(),
            [one] => format!(" It has been replaced by rule {one}."),
            many => format!(" It has been replaced by rules {}.", many.join(", ")),
        };
        out.push(format!(
            "Rule {id} referenced in your {config_name} is deprecated.{replaced}\n\
             It keeps working: {id} selects its replacements.\n\
             We recommend replacing {id} in your {config_name}; nothing else is needed."
        ));
    }
    out
}

/// buf's definition of an unstable package: the last component (of at least two) is a
/// version like `v1alpha1`, `v1beta`, `v2test`, `v1p1beta1`, and not a stable `vN`.
pub fn is_unstable_package(package: &str) -> bool {
    let mut parts = package.split('.');
    let Some(last) = parts.next_back() else {
        return false;
    };
    if parts.next().is_none() {
        return false;
    }
    matches!(stability(last), Some(s) if s != Stability::Stable)
}

#[derive(PartialEq)]
enum Stability {
    Stable,
    Alpha,
    Beta,
    Test,
}

fn stability(component: &str) -> Option<Stability> {
    let version = component.strip_prefix('v')?;
    if version.is_empty() || component.contains('.') {
        return None;
    }
    if let Some((major, _suffix)) = version.split_once("test") {
        return number(major, 1).map(|_| Stability::Test);
    }
    let (level, word) = match (version.contains("alpha"), version.contains("beta")) {
        (false, false) => return number(version, 1).map(|_| Stability::Stable),
        (true, false) => (Stability::Alpha, "alpha"),
        (false, true) => (Stability::Beta, "beta"),
        (true, true) => return None,
    };
    let (head, minor) = version.split_once(word)?;
    if !minor.is_empty() {
        number(minor, 1)?;
    }
    match head.split_once('p') {
        Some((major, patch)) => {
            number(major, 1)?;
            number(patch, 1)?;
        }
        None => {
            number(head, 1)?;
        }
    }
    Some(level)
}

/// A decimal number (as Go's ParseInt reads it, 32-bit) of at least `min`.
fn number(s: &str, min: i64) -> Option<i64> {
    let n: i32 = s.parse().ok()?;
    (i64::from(n) >= min).then_some(i64::from(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breaking(use_: &[&str], except: &[&str]) -> Breaking {
        Breaking {
            use_: use_.iter().map(|s| s.to_string()).collect(),
            except: except.iter().map(|s| s.to_string()).collect(),
            ..Breaking::default()
        }
    }

    fn ids(s: &Selection) -> Vec<&'static str> {
        s.rules.iter().map(|r| r.id).collect()
    }

    #[test]
    fn default_is_the_default_rules() {
        let s = select(&Breaking::default(), "v1", "buf.yaml").unwrap();
        assert!(ids(&s).contains(&"FILE_NO_DELETE"));
        assert!(s.rules.iter().all(|r| r.default));
    }

    #[test]
    fn deprecated_ids_map_to_replacements_with_a_warning() {
        let s = select(&breaking(&["FIELD_SAME_LABEL"], &[]), "v1", "buf.yaml").unwrap();
        // The HAZARD rules are on in every configuration; the point here is the replacements.
        let selected: Vec<&str> = s
            .rules
            .iter()
            .filter(|r| !r.categories.contains(&"HAZARD"))
            .map(|r| r.id)
            .collect();
        assert_eq!(
            selected,
            vec![
                "FIELD_SAME_CARDINALITY",
                "FIELD_WIRE_COMPATIBLE_CARDINALITY",
                "FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY"
            ]
        );
        assert_eq!(s.warnings.len(), 1);
        assert!(s.warnings[0].contains("FIELD_SAME_LABEL"));
    }

    #[test]
    fn except_removes_from_categories() {
        let s = select(&breaking(&["WIRE"], &["FIELD_NO_DELETE"]), "v2", "buf.yaml").unwrap();
        assert!(!ids(&s).contains(&"FIELD_NO_DELETE"));
        assert!(ids(&s).contains(&"FIELD_WIRE_COMPATIBLE_TYPE"));
    }

    #[test]
    fn unknown_id_is_an_error() {
        assert_eq!(
            select(&breaking(&["NOPE"], &[]), "v1", "buf.yaml").unwrap_err(),
            "NOPE"
        );
        // A v1-only deprecated id is unknown to v2.
        assert!(select(&breaking(&["FIELD_SAME_LABEL"], &[]), "v2", "buf.yaml").is_err());
    }

    #[test]
    fn unstable_packages_as_buf_defines_them() {
        for p in [
            "a.v1beta1",
            "a.v1alpha",
            "a.v1test",
            "a.v2testfoo",
            "a.v1p1alpha1",
        ] {
            assert!(is_unstable_package(p), "{p}");
        }
        for p in [
            "a.v1",
            "v1beta1",
            "a.beta",
            "a.alpha",
            "a.v1alphabeta",
            "",
            "a.b",
        ] {
            assert!(!is_unstable_package(p), "{p}");
        }
    }
}
