//! Which configuration and layout apply to a comparison: `--config`, `--against-config`, each
//! side's own buf configuration or `protocompat.toml`, and the rule selection per module.

use std::collections::HashSet;
use std::path::Path;

use miette::{miette, Report};

use super::{buf_config_at, Config, Kind, Layout, Selection};
use crate::source::Tree;

/// The configuration of one comparison.
pub struct Resolved {
    /// The rules' configuration (the new side's, or `--config`).
    pub config: Config,
    pub new_layout: Layout,
    pub old_layout: Layout,
    /// The rule selection of each module of the new layout.
    pub selections: Vec<Selection>,
    /// The BSR dependencies either side declares (named when imports are missing).
    pub deps: Vec<String>,
}

/// Resolves the configuration from the files given on the command line (`config`,
/// `against_config`) and each side's own files. Notes go to `warnings`, once each.
pub fn resolve(
    (config, against_config): (Option<&Path>, Option<&Path>),
    new: &dyn Tree,
    old: &dyn Tree,
    warnings: &mut Vec<Report>,
) -> Result<Resolved, Vec<Report>> {
    let explicit = match config {
        Some(path) => Some(Config::from_path(path).map_err(|e| vec![e])?),
        None => None,
    };
    let against_explicit = match against_config {
        Some(path) => Some(self::against_config(path).map_err(|e| vec![e])?),
        None => None,
    };
    // What replaces each side's own layout: --against-config for the old side, else --config
    // (a buf.yaml) for both.
    let new_override = explicit.as_ref().filter(|c| c.kind == Kind::BufYaml);
    let old_override = against_explicit.as_ref().or(new_override);
    let (new_buf, old_buf) = side_buf_configs(
        (new_override.is_none(), new),
        (old_override.is_none(), old),
        warnings,
    )?;
    let config = match &explicit {
        Some(c) => c.clone(),
        None => side_config(new, &new_buf).map_err(|e| vec![e])?,
    };
    let new_layout = layout_of(new_override, &new_buf);
    let old_layout = layout_of(old_override, &old_buf);
    let deps = declared_deps([&new_buf, &old_buf]);

    let mut selections = Vec::new();
    for module in &new_layout.modules {
        selections.push(config.select_for(module).map_err(|e| vec![e])?);
    }
    let mut seen = HashSet::new();
    for warning in selections.iter().flat_map(|s| &s.warnings) {
        if seen.insert(warning.clone()) {
            warnings.push(miette!(severity = miette::Severity::Warning, "{warning}"));
        }
    }
    Ok(Resolved {
        config,
        new_layout,
        old_layout,
        selections,
        deps,
    })
}

/// The BSR dependencies either side's buf configuration declares.
fn declared_deps(configs: [&Option<Config>; 2]) -> Vec<String> {
    let mut deps: Vec<String> = configs
        .into_iter()
        .flatten()
        .flat_map(Config::all_deps)
        .collect();
    deps.sort();
    deps.dedup();
    deps
}

/// Each side's buf configuration (buf.yaml, buf.mod or a buf.work.yaml workspace), read
/// from that side as buf reads each input's own; not read where `--config` (a buf.yaml) or
/// `--against-config` replaces it (`read` false).
fn side_buf_configs(
    (read_new, new): (bool, &dyn Tree),
    (read_old, old): (bool, &dyn Tree),
    warnings: &mut Vec<Report>,
) -> Result<(Option<Config>, Option<Config>), Vec<Report>> {
    let new_buf = if read_new {
        buf_config_at(new, warnings)
    } else {
        Ok(None)
    };
    // The old side's notes (an unread buf.yml) are about a revision nobody edits now.
    let old_buf = if read_old {
        buf_config_at(old, &mut Vec::new())
    } else {
        Ok(None)
    };
    match (new_buf, old_buf) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (a, b) => Err([a.err(), b.err()].into_iter().flatten().collect()),
    }
}

/// `--against-config FILE`: a buf.yaml, the only kind of file that gives a layout.
fn against_config(path: &Path) -> Result<Config, Report> {
    let config = Config::from_path(path)?;
    if config.kind != Kind::BufYaml {
        return Err(miette!(
            help = "give a buf.yaml (its build.roots or modules describe the --against side)",
            "--against-config {}: not a buf.yaml; a protocompat.toml has no layout to give",
            path.display()
        ));
    }
    Ok(config)
}

/// The rules of the check: `protocompat.toml` at the new side's ROOT, else its buf
/// configuration, else buf's defaults.
fn side_config(root: &dyn Tree, buf: &Option<Config>) -> Result<Config, Report> {
    if let Some(text) = root.read("protocompat.toml")? {
        let display = format!("{} @ {}", root.shown("protocompat.toml"), root.label());
        return Config::from_toml(&text, &display);
    }
    Ok(buf.clone().unwrap_or_default())
}

/// Which directories hold a side's files: a buf.yaml given on the command line, else the
/// side's own buf configuration.
fn layout_of(replacement: Option<&Config>, buf: &Option<Config>) -> Layout {
    match (replacement, buf) {
        (Some(config), _) => config.layout.clone(),
        (None, Some(config)) => config.layout.clone(),
        (None, None) => Layout::default(),
    }
}
