//! `buf.yaml` (v1beta1, v1, v2) and `protocompat.toml` -> one [`Config`].
//!
//! Precedence (see README): `--config FILE` > `protocompat.toml` at ROOT > `buf.yaml` at ROOT >
//! defaults (buf's: config v1, category FILE). The layout of a tree (v1beta1 `build.roots`, v2
//! `modules`) is read from each side's own `buf.yaml`, as buf builds each input with its own
//! configuration.

mod discover;
mod resolve;
mod select;
mod toml_file;
mod workspace;
mod yaml;

pub use discover::buf_config_at;
pub use resolve::{resolve, Resolved};
pub use select::{is_unstable_package, Selection};
pub use workspace::parse as parse_workspace;

use std::collections::BTreeMap;
use std::path::Path;

use miette::{Diagnostic, NamedSource, Report, SourceSpan};

/// The `breaking:` section, as written (ids may be deprecated or unknown until `select`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Breaking {
    pub use_: Vec<String>,
    pub except: Vec<String>,
    /// Paths relative to the module root.
    pub ignore: Vec<String>,
    /// Rule or category id -> paths relative to the module root.
    pub ignore_only: BTreeMap<String, Vec<String>>,
    pub ignore_unstable_packages: bool,
    pub disable_builtin: bool,
}

/// Which directories of ROOT hold the compared files: one module (buf v1beta1/v1, or no
/// config), or the modules of a buf v2 workspace. buf checks each module on its own, with its
/// own breaking configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub modules: Vec<Module>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// The v2 module path (`""` otherwise): what messages call the module.
    pub name: String,
    /// Roots relative to ROOT (`""` = ROOT itself). File paths are matched relative to their
    /// root and reported relative to ROOT.
    pub roots: Vec<String>,
    /// Paths relative to ROOT whose files are not compared.
    pub excludes: Vec<String>,
    /// The module's breaking section (ignore paths relative to the module), when its
    /// buf.yaml gives one.
    pub breaking: Option<Breaking>,
    /// A v1 workspace module's own configuration (its `buf.yaml`, or buf's v1 defaults): its
    /// version and text govern rule selection and its diagnostics.
    pub config: Option<Box<Config>>,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            modules: vec![Module {
                name: String::new(),
                roots: vec![String::new()],
                excludes: Vec::new(),
                breaking: None,
                config: None,
            }],
        }
    }
}

/// What kind of file a configuration came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    BufYaml,
    Toml,
    Defaults,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// What messages call this configuration: `buf.yaml`, `protocompat.toml`, a path.
    pub name: String,
    /// The buf config version whose rule set and categories apply: v1beta1, v1 or v2.
    pub version: String,
    pub breaking: Breaking,
    /// The layout a buf.yaml gives (the default layout for other kinds).
    pub layout: Layout,
    pub kind: Kind,
    /// The text it was read from and what diagnostics call it, to point at offending ids.
    pub source: Option<(String, String)>,
    /// The BSR modules a buf.yaml depends on (`deps:`). protocompat never downloads them; they
    /// name what to export when their imports cannot be found.
    pub deps: Vec<String>,
}

impl Default for Config {
    /// buf's behaviour without a configuration file: version v1, the default (FILE) rules.
    fn default() -> Self {
        Config {
            name: "defaults".into(),
            version: "v1".into(),
            breaking: Breaking::default(),
            layout: Layout::default(),
            kind: Kind::Defaults,
            source: None,
            deps: Vec::new(),
        }
    }
}

impl Config {
    /// Every dependency this configuration and the configurations of its modules declare.
    pub fn all_deps(&self) -> Vec<String> {
        let modules = self
            .layout
            .modules
            .iter()
            .filter_map(|m| m.config.as_deref());
        let mut deps: Vec<String> = self
            .deps
            .iter()
            .chain(modules.flat_map(|c| &c.deps))
            .cloned()
            .collect();
        deps.sort();
        deps.dedup();
        deps
    }

    /// Parses a `buf.yaml`. `display` names it in diagnostics (e.g. `buf.yaml @ main`).
    pub fn from_buf_yaml(text: &str, display: &str) -> Result<Config, Report> {
        yaml::parse(text, display)
    }

    /// Parses a `protocompat.toml`.
    pub fn from_toml(text: &str, display: &str) -> Result<Config, Report> {
        toml_file::parse(text, display)
    }

    /// Reads a configuration file given by path; the format follows the extension.
    pub fn from_path(path: &Path) -> Result<Config, Report> {
        let display = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| miette::miette!("cannot read config file {display}: {e}"))?;
        match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => Config::from_toml(&text, &display),
            Some("yaml" | "yml") => Config::from_buf_yaml(&text, &display),
            _ => Err(miette::miette!(
                help = "use a .toml (protocompat) or .yaml (buf) file",
                "config file {display}: unknown format"
            )),
        }
    }

    /// Resolves `use`/`except`/`ignore_only` to rules, as buf does for this version.
    pub fn select(&self) -> Result<Selection, Report> {
        self.select_with(&self.breaking)
    }

    /// The breaking section that applies to `module`: a buf.yaml's module-specific one, else
    /// this configuration's.
    pub fn breaking_for<'a>(&'a self, module: &'a Module) -> &'a Breaking {
        match (&module.breaking, self.kind) {
            (Some(breaking), Kind::BufYaml) => breaking,
            _ => &self.breaking,
        }
    }

    /// The rules for `module`: those of its own configuration in a v1 workspace, else this
    /// configuration's (see [`Config::breaking_for`]). A protocompat.toml applies to every
    /// module alike.
    pub fn select_for(&self, module: &Module) -> Result<Selection, Report> {
        match (&module.config, self.kind) {
            (Some(own), Kind::BufYaml) => own.select(),
            _ => self.select_with(self.breaking_for(module)),
        }
    }

    /// Like [`Config::select`] for another breaking section of this configuration.
    pub fn select_with(&self, breaking: &Breaking) -> Result<Selection, Report> {
        select::select(breaking, &self.version, &self.name).map_err(|unknown| {
            let who = self
                .source
                .as_ref()
                .map_or(&self.name, |(display, _)| display);
            let message = format!(
                "{who}: {unknown:?} is not a known rule or category ID for config version {}",
                self.version
            );
            match &self.source {
                Some((display, text)) => ConfigError::at(
                    message,
                    display,
                    text,
                    find_word(text, &unknown),
                    "unknown id",
                )
                .into(),
                None => miette::miette!("{message}"),
            }
        })
    }
}

/// A configuration file that cannot be used, pointing at the offending place.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(protocompat::config))]
pub struct ConfigError {
    message: String,
    #[source_code]
    src: NamedSource<String>,
    #[label("{label}")]
    span: Option<SourceSpan>,
    label: String,
}

impl ConfigError {
    /// `span`: the offending bytes of `text`, when known.
    pub fn at(
        message: String,
        display: &str,
        text: &str,
        span: Option<std::ops::Range<usize>>,
        label: &str,
    ) -> ConfigError {
        let len = text.len();
        let span = span.map(|r| {
            let start = r.start.min(len);
            SourceSpan::from(start..r.end.clamp(start, len))
        });
        ConfigError {
            message,
            src: NamedSource::new(display, text.to_string()),
            span,
            label: label.to_string(),
        }
    }
}

/// Where `word` first occurs in `text`, not inside a longer identifier.
fn find_word(text: &str, word: &str) -> Option<std::ops::Range<usize>> {
    let is_id = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // An empty id matches everywhere and nowhere in particular (and stepping one byte past
    // an empty match could land inside a multi-byte character).
    if word.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let start = from + i;
        let end = start + word.len();
        let before_ok = text[..start].chars().next_back().is_none_or(|c| !is_id(c));
        let after_ok = text[end..].chars().next().is_none_or(|c| !is_id(c));
        if before_ok && after_ok {
            return Some(start..end);
        }
        // `end` follows a match of a non-empty `word`: a character boundary.
        from = end;
        if from >= text.len() {
            break;
        }
    }
    None
}

/// One character at a 1-based line and column, as a byte range.
pub(crate) fn point(text: &str, line: usize, column: usize) -> std::ops::Range<usize> {
    let start = offset_of(text, line, column);
    let end = text[start..]
        .chars()
        .next()
        .map_or(start, |c| start + c.len_utf8());
    start..end
}

/// 1-based line and column to a byte offset.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return offset
                + l.char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(l.len(), |(b, _)| b);
        }
        offset += l.len();
    }
    text.len()
}
