//! Finding a side's buf configuration as buf finds it: `buf.yaml` (or its legacy name
//! `buf.mod`) at the base of the tree, or a v1 workspace (`buf.work.yaml`, legacy `buf.work`)
//! whose directories are modules, each with its own optional `buf.yaml`.

use std::sync::Arc;

use miette::{miette, Report};

use super::workspace::{self, WORK_FILE_NAMES};
use super::{find_word, Config, ConfigError, Kind, Layout, Module};
use crate::source::{join, Tree};

/// The names buf reads a module's configuration from, in its order: `buf.yaml` wins and the
/// other is then not read. (`buf.yml` is not one of them: buf ignores it.)
const MODULE_FILE_NAMES: [&str; 2] = ["buf.yaml", "buf.mod"];

/// The buf configuration at `root`'s base; `None` when there is none. Notes about files buf
/// would not read go to `warnings`.
pub fn buf_config_at(
    root: &dyn Tree,
    warnings: &mut Vec<Report>,
) -> Result<Option<Config>, Report> {
    let work = first_file(root, "", &WORK_FILE_NAMES)?;
    let module = module_config_at(root, "")?;
    match (work, module) {
        (Some((work_path, _)), Some(module)) => Err(miette!(
            help = "buf refuses this too: keep the workspace file (and move the buf.yaml into a module directory) or the buf.yaml",
            "{} and {} @ {}: a workspace file and a buf.yaml cannot be in the same directory",
            root.shown(&work_path),
            root.shown(&module.name),
            root.label()
        )),
        (Some((path, text)), None) => v1_workspace(root, &path, &text, warnings).map(Some),
        (None, Some(module)) => Ok(Some(module)),
        (None, None) => {
            warn_unread_yml(root, "", warnings)?;
            Ok(None)
        }
    }
}

/// The first of `names` that exists in directory `dir`: (its path, its text).
fn first_file(
    root: &dyn Tree,
    dir: &str,
    names: &[&str],
) -> Result<Option<(String, Arc<str>)>, Report> {
    for name in names {
        let path = join(dir, name);
        if let Some(text) = root.read(&path)? {
            return Ok(Some((path, text)));
        }
    }
    Ok(None)
}

/// The `buf.yaml` (else `buf.mod`) of directory `dir`.
fn module_config_at(root: &dyn Tree, dir: &str) -> Result<Option<Config>, Report> {
    let Some((path, text)) = first_file(root, dir, &MODULE_FILE_NAMES)? else {
        return Ok(None);
    };
    let display = format!("{} @ {}", root.shown(&path), root.label());
    let config = Config::from_buf_yaml(&text, &display)?;
    if path.ends_with("buf.mod") && config.version == "v2" {
        return Err(ConfigError::at(
            format!("{display}: version v2 is not supported for buf.mod files"),
            &display,
            &text,
            find_word(&text, "v2"),
            "v2 needs the name buf.yaml",
        )
        .into());
    }
    Ok(Some(config))
}

/// A v1 workspace: one module per listed directory, in buf's (sorted) order, each configured
/// by its own `buf.yaml` (buf's v1 defaults without one).
fn v1_workspace(
    root: &dyn Tree,
    path: &str,
    text: &str,
    warnings: &mut Vec<Report>,
) -> Result<Config, Report> {
    let display = format!("{} @ {}", root.shown(path), root.label());
    let dirs = workspace::parse(text, &display)?;
    let mut modules = Vec::with_capacity(dirs.len());
    for dir in &dirs {
        require_protos(root, dir, &display, text)?;
        let own = match module_config_at(root, dir)? {
            Some(own) => own,
            None => {
                warn_unread_yml(root, dir, warnings)?;
                Config::default()
            }
        };
        if own.version == "v2" {
            return Err(miette!(
                help = "a module of a buf.work.yaml workspace uses buf.yaml version v1beta1 or v1; a v2 buf.yaml replaces buf.work.yaml instead",
                "{} @ {}: version v2 in a module of the workspace {display}",
                root.shown(&join(dir, "buf.yaml")),
                root.label()
            ));
        }
        modules.push(module_in(dir, own));
    }
    let first = modules[0].config.as_deref().cloned().unwrap_or_default();
    Ok(Config {
        name: path.rsplit('/').next().unwrap_or(path).to_string(),
        version: first.version,
        breaking: first.breaking,
        layout: Layout { modules },
        kind: Kind::BufYaml,
        deps: Vec::new(),
        source: Some((display, text.to_string())),
    })
}

/// buf refuses a workspace directory without `.proto` files (or missing altogether).
fn require_protos(root: &dyn Tree, dir: &str, display: &str, text: &str) -> Result<(), Report> {
    let problem = match root.list_protos(dir)? {
        None => "does not exist",
        Some(files) if files.is_empty() => "has no .proto files",
        Some(_) => return Ok(()),
    };
    Err(ConfigError::at(
        format!("{display}: directory {dir:?} listed in `directories` {problem}"),
        display,
        text,
        find_word(text, dir),
        problem,
    )
    .into())
}

/// The module a workspace directory holds: the layout of its own configuration (relative to
/// the directory) moved under the directory.
fn module_in(dir: &str, own: Config) -> Module {
    let inner = own
        .layout
        .modules
        .first()
        .cloned()
        .unwrap_or_else(|| Layout::default().modules.remove(0));
    let own = match own.kind {
        Kind::BufYaml => Config {
            name: join(dir, &own.name),
            ..own
        },
        _ => own,
    };
    Module {
        name: dir.to_string(),
        roots: inner.roots.iter().map(|r| join(dir, r)).collect(),
        excludes: inner.excludes.iter().map(|e| join(dir, e)).collect(),
        breaking: Some(own.breaking.clone()),
        config: Some(Box::new(own)),
    }
}

/// buf never reads `buf.yml`: say so rather than let its rules be silently unused.
fn warn_unread_yml(root: &dyn Tree, dir: &str, warnings: &mut Vec<Report>) -> Result<(), Report> {
    let path = join(dir, "buf.yml");
    if root.read(&path)?.is_some() {
        warnings.push(miette!(
            severity = miette::Severity::Warning,
            help = "rename it to buf.yaml",
            "{} @ {}: not read (buf reads buf.yaml or the legacy buf.mod, never buf.yml); buf's defaults apply",
            root.shown(&path),
            root.label()
        ));
    }
    Ok(())
}
