//! `check`'s `--config` and `-I`, as the audit reads them. The configuration is the one
//! `check` would use for the audited revision (`--config`, else `protocompat.toml` or the buf
//! configuration at ROOT at that revision): its modules' roots and excludes choose the files
//! walked, `except` turns history rules off (they run whatever `use` says, as the hazards
//! do), and `ignore` / `ignore_only` drop findings at those paths.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{miette, Report};

use super::conflict::FIELD_NUMBER_CONFLICT;
use super::rules::HISTORY_RULES;
use crate::config::{self, Config, Kind, Module};
use crate::source::{is_within, GitTree, Repo, Tree};

/// The rules and ignores of one module of the layout.
#[derive(Debug, Clone)]
struct ModuleRules {
    /// Relative to ROOT (`""` = ROOT).
    roots: Vec<String>,
    excludes: Vec<String>,
    rules: HashSet<&'static str>,
    /// Relative to the module root.
    ignore: Vec<String>,
    ignore_only: BTreeMap<&'static str, Vec<String>>,
}

/// What the configuration says about the audit.
#[derive(Debug, Clone, Default)]
pub struct AuditConfig {
    modules: Vec<ModuleRules>,
}

impl AuditConfig {
    /// Each module's (roots, excludes), for the walk.
    pub fn layout(&self) -> Vec<(Vec<String>, Vec<String>)> {
        self.modules
            .iter()
            .map(|m| (m.roots.clone(), m.excludes.clone()))
            .collect()
    }

    /// Whether a finding of `rule` at `path` (relative to ROOT) is reported: the module
    /// holding the path runs the rule and ignores neither the path nor the rule there.
    pub fn reports(&self, rule: &str, path: &str) -> bool {
        if self.modules.is_empty() {
            return true;
        }
        let Some((module, root)) = self.module_of(path) else {
            return true;
        };
        let inner = match path.strip_prefix(root) {
            Some(rest) if !root.is_empty() => rest.trim_start_matches('/'),
            _ => path,
        };
        module.rules.contains(rule)
            && !module.ignore.iter().any(|p| is_within(inner, p))
            && !module
                .ignore_only
                .get(rule)
                .is_some_and(|ps| ps.iter().any(|p| is_within(inner, p)))
    }

    fn module_of(&self, path: &str) -> Option<(&ModuleRules, &str)> {
        self.modules.iter().find_map(|m| {
            m.roots
                .iter()
                .find(|r| is_within(path, r))
                .map(|r| (m, r.as_str()))
        })
    }
}

/// Reads the configuration for the audit of `root` (a path inside the repository) at `rev`.
pub fn resolve(
    repo: &Repo,
    rev: &str,
    root: &str,
    explicit: Option<&Path>,
    warnings: &mut Vec<Report>,
) -> Result<AuditConfig, Vec<Report>> {
    let tree_id = repo.tree_of(rev).map_err(|e| vec![e])?;
    let tree: Box<dyn Tree> = match GitTree::new(repo, tree_id, root, rev).map_err(|e| vec![e])? {
        Some(t) => Box::new(t),
        // ROOT gone at REV: nothing there to configure; --config still applies.
        None => Box::new(Empty(rev.to_string())),
    };
    let resolved = config::resolve((explicit, None), &*tree, &*tree, warnings)?;
    let mut modules = Vec::new();
    for module in &resolved.new_layout.modules {
        modules.push(module_rules(&resolved.config, module).map_err(|e| vec![e])?);
    }
    Ok(AuditConfig { modules })
}

/// The history rules and ignores of one module: its own configuration's breaking section
/// (a v1 workspace member), else the module's or the configuration's.
fn module_rules(config: &Config, module: &Module) -> Result<ModuleRules, Report> {
    let own = match (&module.config, config.kind) {
        (Some(own), Kind::BufYaml) => own,
        _ => config,
    };
    let mut breaking = own.breaking_for(module).clone();
    let history_rules: Vec<&str> = HISTORY_RULES
        .iter()
        .copied()
        .chain([FIELD_NUMBER_CONFLICT])
        .collect();
    breaking.use_ = history_rules.iter().map(|r| r.to_string()).collect();
    let selection = own.select_with(&breaking)?;
    Ok(ModuleRules {
        roots: module.roots.clone(),
        excludes: module.excludes.clone(),
        rules: selection
            .rules
            .iter()
            .map(|r| r.id)
            .filter(|id| history_rules.contains(id))
            .collect(),
        ignore: selection.ignore,
        ignore_only: selection.ignore_only,
    })
}

/// `-I`: the audit reads each blob on its own (types from imports are compared by name as
/// written), so an include root changes no finding; but one that does not exist is the same
/// error as in `check`, never a silent pass.
pub fn check_includes(repo: &Repo, rev: &str, includes: &[PathBuf]) -> Result<(), Report> {
    let tree_id = repo.tree_of(rev)?;
    for dir in includes {
        let tracked = match repo.include_path(dir) {
            Some(path) => GitTree::new(repo, tree_id, &path, rev)?.is_some(),
            None => false,
        };
        if !tracked && !dir.is_dir() {
            return Err(miette!(
                help = "-I names a directory of imports, in the repository at the audited \
                        revision or on disk",
                "{} @ {rev}: include root does not exist at this revision, nor on disk",
                dir.display()
            ));
        }
    }
    Ok(())
}

/// A tree with no files (ROOT absent at the audited revision).
struct Empty(String);

impl Tree for Empty {
    fn label(&self) -> &str {
        &self.0
    }
    fn read(&self, _path: &str) -> Result<Option<Arc<str>>, Report> {
        Ok(None)
    }
    fn list_protos(&self, _dir: &str) -> Result<Option<Vec<String>>, Report> {
        Ok(None)
    }
}
