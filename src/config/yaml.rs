//! `buf.yaml`, versions v1beta1, v1 and v2, decoded strictly as buf does (unknown keys are
//! errors). Only what breaking-change detection needs is kept.

use std::collections::BTreeMap;

use miette::Report;
use serde::Deserialize;
use yaml_serde::Value;

use super::{point, Breaking, Config, ConfigError, Kind, Layout, Module};
use crate::source::normalize;

#[derive(Deserialize, Default)]
struct VersionOnly {
    #[serde(default)]
    version: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileV1 {
    #[allow(dead_code)]
    version: Option<String>,
    #[allow(dead_code)]
    name: Option<Value>,
    deps: Option<Value>,
    #[serde(default)]
    build: BuildV1,
    #[allow(dead_code)]
    lint: Option<Value>,
    #[serde(default)]
    breaking: BreakingYaml,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct BuildV1 {
    #[serde(default)]
    roots: Vec<String>,
    #[serde(default)]
    excludes: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileV2 {
    #[allow(dead_code)]
    version: Option<String>,
    #[allow(dead_code)]
    name: Option<Value>,
    #[serde(default)]
    modules: Vec<ModuleV2>,
    deps: Option<Value>,
    #[allow(dead_code)]
    lint: Option<Value>,
    breaking: Option<BreakingYaml>,
    #[allow(dead_code)]
    plugins: Option<Value>,
    #[allow(dead_code)]
    policies: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModuleV2 {
    #[serde(default)]
    path: String,
    #[allow(dead_code)]
    name: Option<Value>,
    #[allow(dead_code)]
    includes: Option<Value>,
    #[serde(default)]
    excludes: Vec<String>,
    #[allow(dead_code)]
    lint: Option<Value>,
    breaking: Option<BreakingYaml>,
}

/// The `breaking:` keys, shared by buf.yaml and protocompat.toml (`[breaking]`).
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct BreakingYaml {
    #[serde(default, rename = "use")]
    use_: Vec<String>,
    #[serde(default)]
    except: Vec<String>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    ignore_only: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    ignore_unstable_packages: bool,
    #[serde(default)]
    disable_builtin: bool,
}

impl BreakingYaml {
    /// `strip`: the module path that v2 ignore paths start with.
    pub(super) fn into_breaking(self, strip: &str) -> Breaking {
        let rel = |p: &String| {
            let p = normalize(p);
            if strip.is_empty() {
                p
            } else if p == strip {
                String::new()
            } else {
                p.strip_prefix(&format!("{strip}/"))
                    .map_or(p.clone(), str::to_string)
            }
        };
        Breaking {
            use_: self.use_,
            except: self.except,
            ignore: self.ignore.iter().map(rel).collect(),
            ignore_only: self
                .ignore_only
                .into_iter()
                .map(|(k, v)| (k, v.iter().map(rel).collect()))
                .collect(),
            ignore_unstable_packages: self.ignore_unstable_packages,
            disable_builtin: self.disable_builtin,
        }
    }
}

pub fn parse(text: &str, display: &str) -> Result<Config, Report> {
    let error = |e: yaml_serde::Error| -> Report {
        let span = e.location().map(|l| point(text, l.line(), l.column()));
        ConfigError::at(
            format!("{display}: invalid buf.yaml: {e}"),
            display,
            text,
            span,
            "here",
        )
        .into()
    };
    let empty = text.trim().is_empty();
    let version = if empty {
        None
    } else {
        yaml_serde::from_str::<VersionOnly>(text)
            .map_err(error)?
            .version
    };
    let version = version.unwrap_or_else(|| "v1beta1".to_string());
    let deps;
    let (breaking, layout) = match version.as_str() {
        "v1beta1" | "v1" => {
            let file: FileV1 = if empty {
                FileV1::default()
            } else {
                yaml_serde::from_str(text).map_err(error)?
            };
            deps = file.deps.clone();
            let mut roots: Vec<String> = file.build.roots.iter().map(|r| normalize(r)).collect();
            if roots.is_empty() || version == "v1" {
                roots = vec![String::new()];
            }
            let breaking = file.breaking.into_breaking("");
            let layout = Layout {
                modules: vec![Module {
                    name: String::new(),
                    roots,
                    excludes: file.build.excludes.iter().map(|e| normalize(e)).collect(),
                    breaking: Some(breaking.clone()),
                    config: None,
                }],
            };
            (breaking, layout)
        }
        "v2" => {
            let file: FileV2 = yaml_serde::from_str(text).map_err(error)?;
            deps = file.deps.clone();
            v2_breaking_and_layout(file)
        }
        other => {
            return Err(ConfigError::at(
                format!(
                    "{display}: unknown buf.yaml version {other:?} (expected v1beta1, v1 or v2)"
                ),
                display,
                text,
                super::find_word(text, other),
                "unknown version",
            )
            .into())
        }
    };
    Ok(Config {
        name: display_file_name(display),
        version,
        breaking,
        layout,
        kind: Kind::BufYaml,
        source: Some((display.to_string(), text.to_string())),
        deps: dep_names(deps),
    })
}

/// The module names of `deps:` (a list of strings; anything else names nothing).
fn dep_names(deps: Option<Value>) -> Vec<String> {
    let Some(Value::Sequence(items)) = deps else {
        return Vec::new();
    };
    items
        .into_iter()
        .filter_map(|item| item.as_str().map(str::to_string))
        .collect()
}

/// A v2 workspace: one module per entry, each with its own breaking section or the
/// top-level one (whose ignore paths, like a module's, start with the module path).
fn v2_breaking_and_layout(file: FileV2) -> (Breaking, Layout) {
    let top = file.breaking.unwrap_or_default();
    if file.modules.is_empty() {
        let breaking = top.into_breaking("");
        let mut layout = Layout::default();
        layout.modules[0].breaking = Some(breaking.clone());
        return (breaking, layout);
    }
    let modules: Vec<Module> = file
        .modules
        .into_iter()
        .map(|module| {
            let path = normalize(&module.path);
            let breaking = module
                .breaking
                .unwrap_or_else(|| top.clone())
                .into_breaking(&path);
            Module {
                name: path.clone(),
                roots: vec![path],
                excludes: module.excludes.iter().map(|e| normalize(e)).collect(),
                breaking: Some(breaking),
                config: None,
            }
        })
        .collect();
    let first = modules[0].breaking.clone().unwrap_or_default();
    (first, Layout { modules })
}

/// `buf.yaml @ main` -> `buf.yaml` (what buf's warnings call the file).
fn display_file_name(display: &str) -> String {
    let name = display.split(" @ ").next().unwrap_or(display);
    std::path::Path::new(name)
        .file_name()
        .map_or(name.to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1beta1_roots_and_breaking() {
        let c = parse(
            "version: v1beta1\nbuild:\n  roots:\n    - root\nbreaking:\n  use:\n    - FILE_SAME_SYNTAX\n  ignore:\n    - a/c\n",
            "buf.yaml",
        )
        .unwrap();
        assert_eq!(c.version, "v1beta1");
        assert_eq!(c.layout.modules[0].roots, vec!["root".to_string()]);
        assert_eq!(c.breaking.use_, vec!["FILE_SAME_SYNTAX".to_string()]);
        assert_eq!(c.breaking.ignore, vec!["a/c".to_string()]);
    }

    #[test]
    fn v2_module_paths_are_stripped_from_ignores() {
        let c = parse(
            "version: v2\nmodules:\n  - path: proto\n    breaking:\n      use: [WIRE]\n      ignore: [proto/foo]\n",
            "buf.yaml",
        )
        .unwrap();
        assert_eq!(c.layout.modules[0].roots, vec!["proto".to_string()]);
        assert_eq!(c.breaking.ignore, vec!["foo".to_string()]);
    }

    #[test]
    fn unknown_key_is_an_error_with_location() {
        let err = parse("version: v1\nbreaking:\n  usee: [FILE]\n", "buf.yaml").unwrap_err();
        assert!(format!("{err}").contains("usee"), "{err}");
    }

    #[test]
    fn empty_file_is_v1beta1_defaults() {
        let c = parse("", "buf.yaml").unwrap();
        assert_eq!(c.version, "v1beta1");
    }
}
