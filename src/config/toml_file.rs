//! `protocompat.toml`: the same keys as buf.yaml's `breaking:` section, in TOML.
//!
//! ```toml
//! version = "v2"            # optional: which buf rule set/categories apply (default v2)
//! [breaking]
//! use = ["FILE"]
//! except = ["FIELD_SAME_JSON_NAME"]
//! ignore = ["vendor"]
//! ignore_unstable_packages = true
//! [breaking.ignore_only]
//! FIELD_NO_DELETE = ["legacy/old.proto"]
//! ```

use miette::Report;
use serde::Deserialize;

use super::yaml::BreakingYaml;
use super::{Config, ConfigError, Kind, Layout};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct File {
    version: Option<String>,
    #[serde(default)]
    breaking: BreakingYaml,
}

pub fn parse(text: &str, display: &str) -> Result<Config, Report> {
    let file: File = toml::from_str(text).map_err(|e| -> Report {
        ConfigError::at(
            format!("{display}: invalid protocompat.toml: {}", e.message()),
            display,
            text,
            e.span(),
            "here",
        )
        .into()
    })?;
    let version = file.version.unwrap_or_else(|| "v2".to_string());
    if !matches!(version.as_str(), "v1beta1" | "v1" | "v2") {
        return Err(ConfigError::at(
            format!("{display}: unknown version {version:?} (expected v1beta1, v1 or v2)"),
            display,
            text,
            text.find(&version).map(|i| i..i + version.len()),
            "unknown version",
        )
        .into());
    }
    let name = std::path::Path::new(display.split(" @ ").next().unwrap_or(display))
        .file_name()
        .map_or(display.to_string(), |n| n.to_string_lossy().into_owned());
    Ok(Config {
        name,
        version,
        // No module path to strip: ignore paths are only normalized.
        breaking: file.breaking.into_breaking(""),
        layout: Layout::default(),
        kind: Kind::Toml,
        source: Some((display.to_string(), text.to_string())),
        deps: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_breaking_section() {
        let c = parse(
            "[breaking]\nuse = [\"WIRE\"]\n[breaking.ignore_only]\nFIELD_NO_DELETE = [\"a\"]\n",
            "protocompat.toml",
        )
        .unwrap();
        assert_eq!(c.version, "v2");
        assert_eq!(c.breaking.use_, vec!["WIRE".to_string()]);
        assert_eq!(
            c.breaking.ignore_only["FIELD_NO_DELETE"],
            vec!["a".to_string()]
        );
    }

    #[test]
    fn bad_toml_names_the_place() {
        let err = parse("[breaking]\nuse = [\"WIRE\"\n", "protocompat.toml").unwrap_err();
        assert!(format!("{err}").contains("protocompat.toml"));
    }
}
