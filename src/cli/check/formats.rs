//! The `--format` and `--fail-on` values: clap's view of the library's [`Format`] and
//! [`FailOn`]; the doc comments are the help text of each value.

use protocompat::engine::FailOn;
use protocompat::report::Format;
use protocompat::rules::DirectionFilter;

/// Output formats as `--format` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Rich diagnostics: both revisions' snippets, the rule id, the fix, a summary.
    Text,
    /// One line per finding: `path:line:col: severity[RULE_ID]: message` (editors, grep).
    Short,
    /// One JSON document (see docs/json.md: version, findings, summary).
    Json,
    /// GitHub Actions workflow commands (`::error file=…::message`): annotations on the PR diff.
    #[value(alias = "github-actions")]
    Github,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// JUnit XML as buf prints it: a testsuite per file, a failing testcase per finding.
    Junit,
    /// GitLab code quality report (JSON array).
    #[value(alias = "gitlab-code-quality")]
    Gitlab,
    /// Visual Studio style: `path(line,col) : error RULE_ID : message`.
    Msvs,
    /// Markdown: a summary table and the findings, for PR comments and job summaries.
    Markdown,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Format {
        match arg {
            FormatArg::Text => Format::Text,
            FormatArg::Short => Format::Short,
            FormatArg::Json => Format::Json,
            FormatArg::Github => Format::Github,
            FormatArg::Sarif => Format::Sarif,
            FormatArg::Junit => Format::Junit,
            FormatArg::Gitlab => Format::Gitlab,
            FormatArg::Msvs => Format::Msvs,
            FormatArg::Markdown => Format::Markdown,
        }
    }
}

/// Who must not break (`--direction`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DirectionArg {
    /// Findings that break new code reading old data (and `both`).
    Backward,
    /// Findings that break old code reading new data (and `both`).
    Forward,
    /// Every finding, `source` ones included.
    #[default]
    Full,
}

impl From<DirectionArg> for DirectionFilter {
    fn from(arg: DirectionArg) -> DirectionFilter {
        match arg {
            DirectionArg::Backward => DirectionFilter::Backward,
            DirectionArg::Forward => DirectionFilter::Forward,
            DirectionArg::Full => DirectionFilter::Full,
        }
    }
}

/// When findings make the check fail (`--fail-on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FailOnArg {
    /// Fail when any finding has severity error.
    #[default]
    Error,
    /// Fail on any finding, warnings included.
    Warning,
    /// Never fail because of findings (exit 2 still reports a check that could not be done).
    Never,
}

impl From<FailOnArg> for FailOn {
    fn from(arg: FailOnArg) -> FailOn {
        match arg {
            FailOnArg::Error => FailOn::Error,
            FailOnArg::Warning => FailOn::Warning,
            FailOnArg::Never => FailOn::Never,
        }
    }
}
