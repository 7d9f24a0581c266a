//! Renderers: each formats findings; none decides anything.

pub mod buf;
pub mod diagnostics;
pub mod explain;
pub mod failure;
mod github;
pub use github::warning_annotation;
mod gitlab;
mod json;
mod junit;
mod long_lines;
mod markdown;
mod msvs;
pub mod review;
mod sarif;
mod short;
mod text;

use crate::engine::{counts, direction_note, infos, severity};
pub use crate::engine::{Sources, Stats};
use crate::finding::{Finding, Location};
use crate::passes::{Group, Ignored};
use crate::rules;
pub use crate::source::SourceText;
use std::collections::{HashMap, HashSet};

pub use long_lines::SafeHandler;

/// The output formats (the CLI maps its `--format` values onto these).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Rich diagnostics: both revisions' snippets, the rule id, the fix, a summary.
    Text,
    /// One line per finding: `path:line:col: severity[RULE_ID]: message` (editors, grep).
    Short,
    /// One JSON document: version, findings, summary (docs/json.md).
    Json,
    /// GitHub Actions workflow commands (`::error file=…::message`).
    Github,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// JUnit XML as buf prints it: a testsuite per file, a failing testcase per finding.
    Junit,
    /// GitLab code quality report (JSON array).
    Gitlab,
    /// Visual Studio style: `path(line,col) : error RULE_ID : message`.
    Msvs,
    /// Markdown: a summary table and the findings, for PR comments and job summaries.
    Markdown,
}

/// How the text formats draw: colour, Unicode box characters, line width.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    pub unicode: bool,
    pub width: usize,
}

impl Default for Style {
    /// Plain and stable: no colour, Unicode, 100 columns (what the snapshot tests use).
    fn default() -> Self {
        Style {
            color: false,
            unicode: true,
            width: 100,
        }
    }
}

/// What a renderer needs besides the findings.
pub struct Context<'a> {
    /// The buf config version whose categories are reported.
    pub config_version: &'a str,
    /// Both sides' texts, for snippets; without them the text format shows locations only.
    pub sources: Option<&'a Sources>,
    /// Root causes shared by several findings (`Finding.group` keys into this).
    pub groups: &'a [Group],
    pub stats: Option<Stats>,
    pub style: Style,
    /// The old side as the user named it (a revision or a directory), for labels.
    pub against: &'a str,
    /// Prefixed to new-side paths (which are relative to ROOT) by the formats whose readers
    /// resolve paths from the working directory (annotations, SARIF, ...): ROOT as given,
    /// with a trailing `/`, or empty when ROOT is `.`.
    pub new_prefix: &'a str,
    /// The same for old-side paths: the `--against` directory, or `new_prefix` for a revision.
    pub old_prefix: &'a str,
    /// Base URL for file links in Markdown (e.g. `https://github.com/o/r/blob/SHA/`).
    pub link_base: Option<&'a str>,
    /// Findings silenced by `// protocompat:ignore` directives: counted in the text summary
    /// and the JSON summary.
    pub ignored: &'a [Ignored],
    /// `--show-ignored`: list them too.
    pub show_ignored: bool,
    /// The categories whose every rule ran: the text summary counts only these. None: not
    /// known (every category is counted).
    pub categories_run: Option<&'a [&'static str]>,
    /// Warnings about the check itself (a missing import allowed by
    /// `--allow-missing-imports`), each once: the Markdown summary counts and lists them.
    pub check_warnings: &'a [String],
}

impl<'a> Context<'a> {
    /// A context with no sources, groups or stats, and the default style.
    pub fn new(config_version: &'a str) -> Self {
        Context {
            config_version,
            sources: None,
            groups: &[],
            stats: None,
            style: Style::default(),
            against: "",
            new_prefix: "",
            old_prefix: "",
            link_base: None,
            ignored: &[],
            show_ignored: false,
            categories_run: None,
            check_warnings: &[],
        }
    }

    /// Where a finding is reported, as a path from the working directory: its new-side
    /// location, or for a deleted file the old path (`deleted` true).
    pub fn primary(&self, f: &Finding) -> Primary {
        self.place(f, self.new_prefix, "<input>")
    }

    /// [`Context::primary`] with the prefix of a deleted file's old path and the name used
    /// when a finding has no location at all (the formats differ on both).
    fn place(&self, f: &Finding, deleted_prefix: &str, nowhere: &str) -> Primary {
        let at_start = |path: String, deleted: bool| Primary {
            path,
            start_line: 1,
            start_column: 1,
            end_line: 1,
            end_column: 1,
            deleted,
        };
        match (&f.location, &f.previous) {
            (Some(l), _) => Primary {
                path: format!("{}{}", self.new_prefix, l.path),
                start_line: l.start_line,
                start_column: l.start_column,
                end_line: l.end_line,
                end_column: l.end_column,
                deleted: false,
            },
            (None, Some(p)) => at_start(format!("{deleted_prefix}{}", p.path), true),
            // No location on either side (not produced by any rule today): a placeholder.
            (None, None) => at_start(nowhere.to_string(), false),
        }
    }

    /// An old-side location's path from the working directory.
    pub fn old_path(&self, l: &Location) -> String {
        format!("{}{}", self.old_prefix, l.path)
    }
}

/// A finding's reported place (see [`Context::primary`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Primary {
    pub path: String,
    pub start_line: u32,
    pub start_column: u32,
    pub end_line: u32,
    pub end_column: u32,
    /// The file is gone on the new side: `path` is where it was.
    pub deleted: bool,
}

/// One item of a report: a cause with its findings, or a finding on its own (with the cause
/// it belongs to, when that cause is not shown as a group).
pub(crate) enum Shown<'f> {
    Cause(&'f Group, Vec<&'f Finding>),
    Alone(&'f Finding, Option<&'f Group>),
}

/// The findings in order, each cause shown as a group once, at its first finding: a cause
/// with several findings, or a rename or move that has a place in the new revision (it reads
/// better as its cause even when only one rule fired).
pub(crate) fn shown<'f>(findings: &'f [Finding], groups: &'f [Group]) -> Vec<Shown<'f>> {
    let by_key: HashMap<&str, &Group> = groups.iter().map(|g| (g.key.as_str(), g)).collect();
    let mut members: HashMap<&str, Vec<&Finding>> = HashMap::new();
    for f in findings {
        if let Some(key) = f.group.as_deref() {
            members.entry(key).or_default().push(f);
        }
    }
    let mut done: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for f in findings {
        match f.group.as_deref().and_then(|key| by_key.get(key).copied()) {
            Some(g) if g.members > 1 || g.location.is_some() => {
                if done.insert(g.key.as_str()) {
                    let of_cause = members.remove(g.key.as_str()).unwrap_or_default();
                    out.push(Shown::Cause(g, of_cause));
                }
            }
            alone => out.push(Shown::Alone(f, alone)),
        }
    }
    out
}

pub fn render(format: Format, findings: &[Finding], ctx: &Context) -> String {
    match format {
        Format::Text => {
            let mut out = text::render(findings, ctx);
            out.push_str(&ignored_text(ctx));
            out
        }
        Format::Short => short::render(findings, ctx),
        Format::Json => json::render(findings, ctx),
        Format::Github => github::render(findings, ctx),
        Format::Sarif => sarif::render(findings, ctx),
        Format::Junit => junit::render(findings, ctx),
        Format::Gitlab => gitlab::render(findings, ctx),
        Format::Msvs => msvs::render(findings, ctx),
        Format::Markdown => markdown::render(findings, ctx),
    }
}

/// The text summary of ignored findings (and their list with `--show-ignored`).
pub fn ignored_text(ctx: &Context) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    if ctx.ignored.is_empty() {
        return out;
    }
    if ctx.show_ignored {
        for i in ctx.ignored {
            let at = ctx.primary(&i.finding);
            let _ = writeln!(
                out,
                "ignored: {}:{}:{}: {} {} (by {}{}:{}: {})",
                at.path,
                at.start_line,
                at.start_column,
                i.finding.rule,
                i.finding.message,
                ctx.new_prefix,
                i.directive.path,
                i.directive.start_line,
                i.reason
            );
        }
    }
    let n = ctx.ignored.len();
    let _ = writeln!(
        out,
        "{n} finding{} ignored by protocompat:ignore comments{}",
        plural(n),
        if ctx.show_ignored {
            "."
        } else {
            " (--show-ignored lists them)."
        }
    );
    out
}

/// A rule's categories under a config version, in buf's order (FILE, PACKAGE, WIRE_JSON,
/// WIRE, CSR).
pub fn categories(rule: &str, config_version: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = rules::find(rule)
        .map(|r| r.categories_for(config_version).to_vec())
        .unwrap_or_default();
    out.sort_by_key(|c| rules::CATEGORIES.iter().position(|k| k == c));
    out
}

/// A stable identity for a finding across unrelated edits: a SHA-256 of the rule, the path
/// and the message (which names the element, never a line number).
pub fn fingerprint(rule: &str, path: &str, message: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in [rule, path, message] {
        hasher.update(part.as_bytes());
        hasher.update([0u8]);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How a directory given on the command line prefixes the paths inside it: empty for `.`,
/// else the path as given (without a leading `./`) and a trailing `/`.
pub fn path_prefix(dir: &std::path::Path) -> String {
    crate::source::path_prefix(dir)
}

/// A revision label as people read it: a full object id (pre-commit's pre-push refs) cut to
/// 10 hex digits, as git abbreviates; any other label as given.
pub fn short_revision(label: &str) -> &str {
    let full_id = label.len() == 40 && label.bytes().all(|b| b.is_ascii_hexdigit());
    if full_id {
        &label[..10]
    } else {
        label
    }
}

/// `s` for any count but one: "1 file", "2 files".
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
