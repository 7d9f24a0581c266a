//! A check that could not be done (a side that does not compile, a revision that cannot be
//! read), in the machine formats. Its errors are on stderr as for every format, but a CI
//! step often shows only what a format puts on stdout: an empty report there reads as a
//! pass. So each machine format says it failed, in its own terms: GitHub `::error`
//! annotations, a SARIF run with `executionSuccessful: false` and a tool notification per
//! error, a JUnit `<error>` testcase, a GitLab Code Quality `blocker`, an msvs line, and a
//! Markdown section for the job summary. `text` and `short` print nothing more: stderr is
//! their report.

use std::fmt::Write as _;

use serde_json::json;

use super::buf::CompileError;
use super::Format;

/// The rule-like name the formats give an error of the check itself, as buf names its
/// compile errors.
const COMPILE: &str = "COMPILE";

/// One error of a check that could not be done.
pub struct Failure {
    /// Where, when the error is in a `.proto` file (path from the working directory).
    pub at: Option<CompileError>,
    /// The message, with its help when it has one.
    pub message: String,
}

impl Failure {
    /// The failure a diagnostic describes. An error in another revision than the files on
    /// disk (`main`, `HEAD~1`) keeps its place in the message only: an annotation on the
    /// checked-out file at that line would point at other text.
    pub fn from_diagnostic(diagnostic: &miette::Report) -> Failure {
        let mut message = diagnostic.to_string();
        if let Some(help) = diagnostic.help() {
            let _ = write!(message, "\nhelp: {help}");
        }
        let at = CompileError::from_diagnostic(diagnostic);
        match (at, revision_of(diagnostic)) {
            (Some(at), Some(revision)) if !is_on_disk(&revision) => Failure {
                message: format!(
                    "{}:{}:{} @ {revision}: {message}",
                    at.path, at.start.0, at.start.1
                ),
                at: None,
            },
            (at, _) => Failure { at, message },
        }
    }

    /// `path:line:col: ` when located.
    fn place(&self) -> String {
        self.at.as_ref().map_or_else(String::new, |at| {
            format!("{}:{}:{}: ", at.path, at.start.0, at.start.1)
        })
    }
}

/// The revision a diagnostic's file is read from: what follows ` @ ` in its name.
fn revision_of(diagnostic: &miette::Report) -> Option<String> {
    let source = diagnostic.source_code()?;
    let span = *diagnostic.labels()?.next()?.inner();
    let contents = source.read_span(&span, 0, 0).ok()?;
    let (_, revision) = contents.name()?.rsplit_once(" @ ")?;
    Some(revision.to_string())
}

/// Whether files of `revision` are the ones on disk: the working tree, the index (staged
/// files are at their paths), or a directory.
fn is_on_disk(revision: &str) -> bool {
    matches!(revision, "working tree" | "index") || std::path::Path::new(revision).is_dir()
}

/// What `format` prints on stdout for a check that could not be done.
pub fn render(format: Format, failures: &[Failure]) -> String {
    match format {
        Format::Text | Format::Short | Format::Json => String::new(),
        Format::Github => github(failures),
        Format::Sarif => sarif(failures),
        Format::Junit => junit(failures),
        Format::Gitlab => gitlab(failures),
        Format::Msvs => msvs(failures),
        Format::Markdown => markdown(failures),
    }
}

/// One `::error` per failure: on its file, line and columns when it has a place, else on the
/// run. GitHub shows ten per step; the first ones are the ones to fix first.
fn github(failures: &[Failure]) -> String {
    let mut out = String::new();
    for f in failures {
        let properties = match &f.at {
            Some(at) => super::github::place_properties(
                &at.path,
                (at.start.0, at.start.1),
                (at.end.0, at.end.1),
            ),
            None => Vec::new(),
        };
        let title = match f.at {
            Some(_) => format!("protocompat: {COMPILE}"),
            None => "protocompat: the check could not be done".to_string(),
        };
        let _ = writeln!(
            out,
            "{}",
            super::github::command("error", properties, &title, &f.message)
        );
    }
    out
}

fn sarif(failures: &[Failure]) -> String {
    let notifications: Vec<serde_json::Value> = failures
        .iter()
        .map(|f| {
            let mut n = json!({
                "level": "error",
                "message": { "text": f.message },
                "descriptor": { "id": COMPILE },
            });
            if let Some(at) = &f.at {
                n["locations"] = json!([{
                    "physicalLocation": {
                        "artifactLocation": { "uri": at.path },
                        "region": {
                            "startLine": at.start.0,
                            "startColumn": at.start.1,
                            "endLine": at.end.0,
                            "endColumn": at.end.1,
                        },
                    },
                }]);
            }
            n
        })
        .collect();
    super::sarif::render_failed_run(notifications)
}

fn junit(failures: &[Failure]) -> String {
    let mut out = String::from("<testsuites>\n");
    let _ = writeln!(
        out,
        "  <testsuite name=\"protocompat\" tests=\"{n}\" failures=\"0\" errors=\"{n}\">",
        n = failures.len()
    );
    for f in failures {
        let name = match &f.at {
            Some(at) => format!("{COMPILE}_{}_{}", at.start.0, at.start.1),
            None => COMPILE.to_string(),
        };
        let message = format!("{}{}", f.place(), f.message);
        let _ = writeln!(
            out,
            "    <testcase name=\"{}\" classname=\"{}\">",
            super::junit::escape(&name),
            super::junit::escape(f.at.as_ref().map_or("protocompat", |a| a.path.as_str()))
        );
        let _ = writeln!(
            out,
            "      <error message=\"{}\" type=\"{COMPILE}\"></error>",
            super::junit::escape(&message)
        );
        out.push_str("    </testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

fn gitlab(failures: &[Failure]) -> String {
    let issues: Vec<serde_json::Value> = failures
        .iter()
        .map(|f| {
            let (path, begin, end) =
                f.at.as_ref()
                    .map_or((".", 1, 1), |a| (a.path.as_str(), a.start.0, a.end.0));
            json!({
                "description": f.message,
                "check_name": COMPILE,
                "fingerprint": super::fingerprint(COMPILE, path, &f.message),
                "severity": "blocker",
                "location": { "path": path, "lines": { "begin": begin, "end": end } },
            })
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&issues).unwrap_or_default();
    out.push('\n');
    out
}

fn msvs(failures: &[Failure]) -> String {
    let mut out = String::new();
    for f in failures {
        let first = f.message.lines().next().unwrap_or_default();
        let _ = match &f.at {
            Some(at) => writeln!(
                out,
                "{}({},{}) : error {COMPILE} : {first}",
                at.path, at.start.0, at.start.1
            ),
            None => writeln!(out, "protocompat : error {COMPILE} : {first}"),
        };
    }
    out
}

fn markdown(failures: &[Failure]) -> String {
    let mut out = String::from("## protocompat: the check could not be done\n\n");
    let _ = writeln!(
        out,
        "{} error{} stopped the check, so nothing was compared: this is not a pass.\n",
        failures.len(),
        super::plural(failures.len())
    );
    for f in failures {
        let mut lines = f.message.lines();
        let first = lines.next().unwrap_or_default();
        let place = f.at.as_ref().map_or_else(String::new, |_| {
            format!("`{}` ", f.place().trim_end_matches(": "))
        });
        let _ = writeln!(out, "- :x: {place}{}", super::markdown::escape(first));
        for line in lines {
            let _ = writeln!(out, "  {}", super::markdown::escape(line));
        }
    }
    out
}
