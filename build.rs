//! Generates the typed rule ids and the rule registry from the rule catalog in `rules/*.md`.
//!
//! The catalog is the one source of truth for rule metadata: each doc's front matter gives the
//! id, categories (per buf config version), default, severity, deprecation and summary. Every id
//! becomes a `RuleId` variant (`FIELD_NO_DELETE` → `RuleId::FieldNoDelete`), so code naming a
//! rule that the catalog renamed or dropped does not compile. `RuleId::check`
//! (`src/rules/registry.rs`) maps every id to its check with one exhaustive `match`, so a rule
//! without a check is a compile error and docs and behaviour cannot drift apart silently.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read at run time: a build script binary reused from another checkout must not read its docs.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest_dir).join("rules");
    println!("cargo:rerun-if-changed=rules");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("rules/ directory")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    // Sorted by id: `RuleId`'s order (and so `Ord`) is the ids' string order, and variant `i`
    // describes `RULES[i]`.
    entries.sort_by_key(|p| p.file_stem().map(|s| s.to_owned()));

    let mut ids = Vec::new();
    let mut out = String::from("pub static RULES: &[RuleMeta] = &[\n");
    for path in entries {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("rule doc is UTF-8");
        let fm =
            front_matter(&text).unwrap_or_else(|| panic!("{}: no front matter", path.display()));
        let get = |k: &str| fm.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
        let id = get("id").unwrap_or_else(|| panic!("{}: no id", path.display()));
        assert_eq!(
            path.file_stem().unwrap().to_str().unwrap(),
            id,
            "doc file name must be the rule id"
        );
        let list = |k: &str| get(k).map(|v| parse_list(&v));
        let cats = list("categories").unwrap_or_default();
        let cats_v1 = list("categories_v1")
            .unwrap_or_else(|| cats.iter().filter(|c| *c != "CSR").cloned().collect());
        let cats_v1beta1 = list("categories_v1beta1").unwrap_or_else(|| cats_v1.clone());
        let versions =
            list("versions").unwrap_or_else(|| vec!["v1beta1".into(), "v1".into(), "v2".into()]);
        let deprecated = get("deprecated").as_deref() == Some("true");
        let replaced_by = list("replaced_by").unwrap_or_default();
        let default = get("default").as_deref() == Some("true");
        let severity = match get("severity").as_deref() {
            Some("warning") => "Severity::Warning",
            _ => "Severity::Error",
        };
        let summary = get("summary").unwrap_or_default();
        // Variant `i` of `RuleId` is `RULES[i]` (both in id order).
        let check = if deprecated {
            "None".to_string()
        } else {
            format!("Some(registry::run::<{}>)", ids.len())
        };
        writeln!(
            out,
            "    RuleMeta {{ rule: RuleId::{variant}, id: {id:?}, categories: &{cats:?}, categories_v1: &{cats_v1:?}, \
             categories_v1beta1: &{cats_v1beta1:?}, versions: &{versions:?}, default: {default}, \
             severity: {severity}, deprecated: {deprecated}, replaced_by: &{replaced_by:?}, \
             summary: {summary:?}, doc: include_str!({path:?}), check: {check} }},",
            path = path.display().to_string(),
            variant = variant_name(&id),
        )
        .unwrap();
        ids.push(id);
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").unwrap();
    std::fs::write(Path::new(&out_dir).join("registry.rs"), out).unwrap();
    std::fs::write(Path::new(&out_dir).join("rule_id.rs"), rule_id_enum(&ids)).unwrap();
}

/// `FIELD_NO_DELETE` → `FieldNoDelete`.
fn variant_name(id: &str) -> String {
    id.split('_')
        .map(|word| {
            let mut chars = word.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            first
                .into_iter()
                .chain(chars.map(|c| c.to_ascii_lowercase()))
                .collect::<String>()
        })
        .collect()
}

/// The `RuleId` enum, its `ALL` list and its two string conversions.
fn rule_id_enum(ids: &[String]) -> String {
    let mut out = String::from(
        "/// A rule of the catalog, one variant per `rules/<ID>.md` (deprecated ids included).\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]\n\
         pub enum RuleId {\n",
    );
    for id in ids {
        writeln!(out, "    /// `{id}`\n    {},", variant_name(id)).unwrap();
    }
    out.push_str("}\n\nimpl RuleId {\n    /// Every rule id, in id order.\n    pub const ALL: &'static [RuleId] = &[\n");
    for id in ids {
        writeln!(out, "        RuleId::{},", variant_name(id)).unwrap();
    }
    out.push_str(
        "    ];\n\n    /// The id as the catalog, configs and reports spell it.\n    \
         pub const fn as_str(self) -> &'static str {\n        match self {\n",
    );
    for id in ids {
        writeln!(out, "            RuleId::{} => {id:?},", variant_name(id)).unwrap();
    }
    out.push_str(
        "        }\n    }\n\n    fn from_id(id: &str) -> Option<RuleId> {\n        match id {\n",
    );
    for id in ids {
        writeln!(
            out,
            "            {id:?} => Some(RuleId::{}),",
            variant_name(id)
        )
        .unwrap();
    }
    out.push_str("            _ => None,\n        }\n    }\n}\n");
    out
}

/// `key: value` lines between the leading `---` fences.
fn front_matter(text: &str) -> Option<Vec<(String, String)>> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---")?;
    Some(
        rest[..end]
            .lines()
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect(),
    )
}

fn parse_list(v: &str) -> Vec<String> {
    v.trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}
