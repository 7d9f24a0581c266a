//! `audit` and `log`: the history audit's commands. The library builds the ledger and the
//! findings (`protocompat::history`); this turns them into report findings with both
//! commits' snippets, and prints them.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use git2::Repository;
use protocompat::engine::FailOn;
use protocompat::finding::{Finding, Location};
use protocompat::history::{self, AuditOptions, History, HistoryFinding, Occurrence, Side};
use protocompat::model::line_col;
use protocompat::report::{self, Format, SourceText, Sources};
use protocompat::rules::Severity;
use serde_json::{json, Value};

use super::check::formats::{FailOnArg, FormatArg};
use super::{print, DisplayArgs};

/// Where the history comes from: check's source flags, and the walk.
#[derive(Args)]
pub struct HistoryArgs {
    /// The directory holding the schema (a subdirectory of the repository is fine).
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// The revision whose history is audited.
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub rev: String,
    /// Start at this commit or date (YYYY-MM-DD) instead of the first commit.
    #[arg(long, value_name = "REV|DATE")]
    pub since: Option<String>,
    /// Walk every commit, merged branches included (default: first parents only, like
    /// `git log --first-parent`).
    #[arg(long)]
    pub all_parents: bool,
    /// The git directory to read (e.g. a bare repository).
    #[arg(long, value_name = "DIR")]
    pub git_dir: Option<PathBuf>,
    /// Accepted for symmetry with `check`; the audit reads each file on its own, so imports
    /// are not needed.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Only audit files under this path (relative to ROOT). Repeatable.
    #[arg(long, value_name = "PATH")]
    pub path: Vec<String>,
    /// Leave out files under this path (relative to ROOT). Repeatable.
    #[arg(long, value_name = "PATH")]
    pub exclude_path: Vec<String>,
    /// A file that cannot be read at some commit is an error (exit 2) instead of a warning.
    #[arg(long)]
    pub strict: bool,
    /// Audit a shallow clone from its first commit (a warning) instead of refusing.
    #[arg(long)]
    pub allow_shallow: bool,
    /// Neither read nor write the cache under the git directory.
    #[arg(long)]
    pub no_cache: bool,
}

impl HistoryArgs {
    pub fn options(&self) -> AuditOptions {
        AuditOptions {
            root: self.root.clone(),
            git_dir: self.git_dir.clone(),
            rev: self.rev.clone(),
            since: self.since.clone(),
            all_parents: self.all_parents,
            paths: self.path.clone(),
            exclude_paths: self.exclude_path.clone(),
            strict: self.strict,
            allow_shallow: self.allow_shallow,
            cache: !self.no_cache,
        }
    }
}

#[derive(Args)]
pub struct AuditArgs {
    #[command(flatten)]
    pub history: HistoryArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// Which findings make the exit code 1: errors, any finding, or none.
    #[arg(long, value_enum, default_value = "error", value_name = "LEVEL")]
    pub fail_on: FailOnArg,
    #[command(flatten)]
    pub display: DisplayArgs,
}

#[derive(Args)]
pub struct LogArgs {
    /// The full name of a message or enum, e.g. acme.v1.User.
    pub name: String,
    #[command(flatten)]
    pub history: HistoryArgs,
    /// `text` (a table) or `json`.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
}

fn build(opts: &AuditOptions) -> Result<History, ExitCode> {
    match history::build(opts) {
        Ok(h) => {
            for warning in &h.warnings {
                eprintln!("{warning:?}");
            }
            Ok(h)
        }
        Err(e) => {
            for d in &e.diagnostics {
                eprintln!("{d:?}");
            }
            Err(ExitCode::from(2))
        }
    }
}

pub fn run_audit(args: AuditArgs) -> ExitCode {
    let history = match build(&args.history.options()) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let found = history.findings();
    let Ok(repo) = Repository::open(&history.git_dir) else {
        eprintln!("error: cannot reopen {}", history.git_dir.display());
        return ExitCode::from(2);
    };
    let prefix = report::path_prefix(&args.history.root);
    let mut texts = Texts::new(&repo, &history);
    let findings: Vec<Finding> = found.iter().map(|f| finding(f, &mut texts)).collect();
    let out = match Format::from(args.format) {
        Format::Text => text(&found, &findings, &history, &mut texts, &args, &prefix),
        Format::Json => json_doc(&found, &findings, &history, &prefix),
        format => {
            let mut ctx = report::Context::new("v2");
            ctx.new_prefix = &prefix;
            ctx.old_prefix = &prefix;
            report::render(format, &findings, &ctx)
        }
    };
    print(&out);
    exit_code(&found, FailOn::from(args.fail_on))
}

fn exit_code(found: &[HistoryFinding], fail_on: FailOn) -> ExitCode {
    let errors = found
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let failed = match fail_on {
        FailOn::Error => errors > 0,
        FailOn::Warning => !found.is_empty(),
        FailOn::Never => false,
    };
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Blob texts, read once each.
struct Texts<'r> {
    repo: &'r Repository,
    history: &'r History,
    blobs: HashMap<git2::Oid, Option<String>>,
}

impl<'r> Texts<'r> {
    fn new(repo: &'r Repository, history: &'r History) -> Self {
        Texts {
            repo,
            history,
            blobs: HashMap::new(),
        }
    }
    fn get(&mut self, oid: git2::Oid) -> Option<&str> {
        let (repo, history) = (self.repo, self.history);
        self.blobs
            .entry(oid)
            .or_insert_with(|| history.blob_text(repo, oid))
            .as_deref()
    }
    fn location(&mut self, at: &Occurrence) -> Location {
        let span = protocompat::model::Span::from(at.span);
        let (start_line, start_column, end_line, end_column) = match self.get(at.blob) {
            Some(text) => {
                let (l1, c1) = line_col(text, span.start);
                let (l2, c2) = line_col(text, span.end);
                (l1, c1, l2, c2)
            }
            None => (1, 1, 1, 1),
        };
        Location {
            path: at.path.to_string(),
            span: Some(span),
            start_line,
            start_column,
            end_line,
            end_column,
        }
    }
}

fn finding(f: &HistoryFinding, texts: &mut Texts) -> Finding {
    Finding {
        rule: f.rule,
        location: Some(texts.location(&f.at)),
        previous: f.previous.as_ref().map(|p| texts.location(&p.at)),
        message: f.message.clone(),
        help: Some(f.help.clone()),
        edits: Default::default(),
        group: None,
        focus: None,
        direction: protocompat::rules::find(f.rule)
            .map_or(protocompat::rules::Direction::Both, |r| r.direction),
        severity: Some(f.severity),
    }
}

/// Each finding rendered by the text format with its own two revisions (the old snippet
/// labelled `<short sha> (<date>)`), then one summary.
fn text(
    found: &[HistoryFinding],
    findings: &[Finding],
    history: &History,
    texts: &mut Texts,
    args: &AuditArgs,
    prefix: &str,
) -> String {
    let mut out = String::new();
    for (h, f) in found.iter().zip(findings) {
        let old = h.previous.as_ref().map(|p| &p.at);
        let mut sources = Sources {
            old_label: old.map_or(String::new(), |o| {
                history::rules::cite(history.commit(o.commit))
            }),
            new_label: new_label(h, history, &args.history.rev),
            old: HashMap::new(),
            new: HashMap::new(),
            old_is_dir: false,
        };
        if let Some(o) = old {
            if let Some(t) = texts.get(o.blob) {
                sources
                    .old
                    .insert(o.path.to_string(), SourceText::new(t.into()));
            }
        }
        if let Some(t) = texts.get(h.at.blob) {
            sources
                .new
                .insert(h.at.path.to_string(), SourceText::new(t.into()));
        }
        let mut ctx = report::Context::new("v2");
        ctx.sources = Some(&sources);
        ctx.style = args.display.style();
        ctx.new_prefix = prefix;
        ctx.old_prefix = prefix;
        let rendered = report::render(Format::Text, std::slice::from_ref(f), &ctx);
        out.push_str(without_summary(&rendered));
        out.push_str(&commits_note(h, history));
        if h.severity == Severity::Warning
            && protocompat::rules::find(f.rule).map(|r| r.severity) == Some(Severity::Error)
        {
            out.push_str("  (reported as a warning: the element was gone in between)\n\n");
        }
    }
    out.push_str(&summary(found, history));
    out
}

/// The commits a finding cites, with author and subject.
fn commits_note(h: &HistoryFinding, history: &History) -> String {
    let line = |what: &str, c: u32| {
        let info = history.commit(c);
        format!(
            "  {what:>8} {} by {}: {}\n",
            history::rules::cite(info),
            info.author,
            info.subject
        )
    };
    let mut out = String::new();
    if let Some(p) = &h.previous {
        out.push_str(&line("added", p.added_in));
        if let Some(d) = p.deleted_in {
            out.push_str(&line(
                if h.rule == "RESERVED_DROPPED" {
                    "dropped"
                } else {
                    "deleted"
                },
                d,
            ));
        }
    }
    if let Some(c) = &h.current {
        out.push_str(&line("reused", c.added_in));
    }
    out.push('\n');
    out
}

/// The audited revision when the finding's place is still there, else the commit.
fn new_label(h: &HistoryFinding, history: &History, rev: &str) -> String {
    let live = h.current.as_ref().is_none_or(|c| c.deleted_in.is_none());
    if live {
        rev.to_string()
    } else {
        history::rules::cite(history.commit(h.at.commit))
    }
}

/// The text format ends with a summary line about one finding; the audit prints its own.
fn without_summary(rendered: &str) -> &str {
    match rendered.rfind("breaking change") {
        Some(at) => {
            let line_start = rendered[..at].rfind('\n').map_or(0, |i| i + 1);
            &rendered[..line_start]
        }
        None => rendered,
    }
}

fn summary(found: &[HistoryFinding], history: &History) -> String {
    let errors = found
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = found.len() - errors;
    let s = history.stats;
    let mut by_rule: std::collections::BTreeMap<&str, usize> = Default::default();
    for f in found {
        *by_rule.entry(f.rule).or_default() += 1;
    }
    let mut out = format!(
        "{} finding{} ({errors} error{}, {warnings} warning{}) in the history of {} commit{} \
         ({} changed the schema; {} element{}); {} blob{} parsed, {} from the cache, {} \
         unreadable; {:.2} s.\n",
        found.len(),
        plural(found.len()),
        plural(errors),
        plural(warnings),
        s.commits_walked,
        plural(s.commits_walked),
        s.commits_changed,
        history.ledger.elements.len(),
        plural(history.ledger.elements.len()),
        s.blobs_parsed,
        plural(s.blobs_parsed),
        s.blobs_cached,
        history.unreadable.len(),
        s.elapsed.as_secs_f64(),
    );
    if !by_rule.is_empty() {
        let list: Vec<String> = by_rule.iter().map(|(r, n)| format!("{r} {n}")).collect();
        out.push_str(&format!("By rule: {}.\n", list.join(", ")));
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The JSON document of `check` with each finding's history: `element`, `number` or `name`,
/// `previous` and `current` with their commits; severities and the summary as the audit
/// judged them.
fn json_doc(
    found: &[HistoryFinding],
    findings: &[Finding],
    history: &History,
    prefix: &str,
) -> String {
    let mut ctx = report::Context::new("v2");
    ctx.new_prefix = prefix;
    ctx.old_prefix = prefix;
    let rendered = report::render(Format::Json, findings, &ctx);
    let Ok(mut doc) = serde_json::from_str::<Value>(&rendered) else {
        return rendered;
    };
    if let Some(list) = doc["findings"].as_array_mut() {
        for (value, f) in list.iter_mut().zip(found) {
            extend(value, f, history);
        }
    }
    let errors = found
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    doc["summary"]["errors"] = json!(errors);
    doc["summary"]["warnings"] = json!(found.len() - errors);
    doc["summary"]["commits"] = json!(history.stats.commits_walked);
    doc["summary"]["unreadable"] = json!(history.unreadable.len());
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}

fn commit_json(history: &History, c: u32) -> Value {
    let info = history.commit(c);
    json!({
        "commit": info.oid.to_string(),
        "date": info.date(),
        "author": info.author,
        "subject": info.subject,
    })
}

fn side_json(history: &History, side: &Side, previous: &Value, deleted: bool) -> Value {
    let mut v = json!({
        "name": side.name,
        "type": side.ty,
        "path": side.at.path.as_ref(),
        "start_line": previous.get("start_line").cloned().unwrap_or(Value::Null),
        "added_in": commit_json(history, side.added_in),
    });
    if deleted {
        v["deleted_in"] = side
            .deleted_in
            .map_or(Value::Null, |c| commit_json(history, c));
    }
    v
}

fn extend(value: &mut Value, f: &HistoryFinding, history: &History) {
    value["severity"] = json!(f.severity.name());
    value["element"] = json!(f.element);
    match &f.subject {
        history::Subject::Number(n) => value["number"] = json!(n),
        history::Subject::Name(n) => value["name"] = json!(n),
        history::Subject::Reservation(history::ledger::Reserved::Numbers(s, e)) => {
            value["number"] = json!(s);
            value["end_number"] = json!(e);
        }
        history::Subject::Reservation(history::ledger::Reserved::Name(n)) => {
            value["name"] = json!(n)
        }
    }
    let previous_span = value["previous"].clone();
    if let Some(p) = &f.previous {
        let mut side = side_json(history, p, &previous_span, true);
        // Keep the location keys every finding's `previous` has.
        for key in ["start_column", "end_line", "end_column"] {
            side[key] = previous_span.get(key).cloned().unwrap_or(Value::Null);
        }
        value["previous"] = side;
    }
    let here = json!({"start_line": value["start_line"].clone()});
    value["current"] = f
        .current
        .as_ref()
        .map_or(Value::Null, |c| side_json(history, c, &here, false));
}

/// `log FULL.NAME`: every number the element used, each name and type it had, with the
/// commits that added, changed, deleted and reserved it.
pub fn run_log(args: LogArgs) -> ExitCode {
    let history = match build(&args.history.options()) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let entries: Vec<_> = [history::Kind::Message, history::Kind::Enum]
        .into_iter()
        .filter_map(|k| {
            history
                .ledger
                .elements
                .get(&(args.name.clone(), k))
                .map(|e| (k, e))
        })
        .collect();
    let Some((kind, entry)) = entries.first().copied() else {
        eprintln!(
            "{:?}",
            miette::miette!(
                help = "give the full name with its package, e.g. acme.v1.User",
                "no message or enum named `{}` in the history of `{}`",
                args.name,
                args.history.rev
            )
        );
        return ExitCode::from(2);
    };
    let rows = log_rows(&history, entry);
    let out = match Format::from(args.format) {
        Format::Json => {
            let doc = json!({
                "element": args.name,
                "kind": kind.name(),
                "present": entry.present(),
                "entries": rows.iter().map(|r| r.json(&history)).collect::<Vec<_>>(),
            });
            let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
            s.push('\n');
            s
        }
        _ => log_table(&args.name, kind, entry.present(), &rows, &history),
    };
    print(&out);
    ExitCode::SUCCESS
}

/// One name/type a number had, for the table.
struct Row {
    number: i64,
    name: String,
    ty: String,
    added: u32,
    /// The next version's commit (changed in place) or the deletion.
    until: Option<u32>,
    changed: bool,
    reserved: Option<u32>,
}

impl Row {
    fn json(&self, history: &History) -> Value {
        let c = |x: Option<u32>| x.map_or(Value::Null, |c| commit_json(history, c));
        json!({
            "number": self.number,
            "name": self.name,
            "type": self.ty,
            "added_in": commit_json(history, self.added),
            "changed_in": if self.changed { c(self.until) } else { Value::Null },
            "deleted_in": if self.changed { Value::Null } else { c(self.until) },
            "reserved_in": c(self.reserved),
        })
    }
}

fn log_rows(history: &History, entry: &history::ElementLedger) -> Vec<Row> {
    let _ = history;
    let mut rows = Vec::new();
    for (number, lives) in &entry.numbers {
        for life in lives {
            for (i, v) in life.versions.iter().enumerate() {
                let next = life.versions.get(i + 1).map(|n| n.at);
                let ty = match (v.label.as_str(), v.ty.as_str()) {
                    ("", t) => t.to_string(),
                    (l, t) => format!("{l} {t}"),
                };
                rows.push(Row {
                    number: *number,
                    name: v.name.clone(),
                    ty,
                    added: v.at,
                    until: next.or(life.deleted),
                    changed: next.is_some(),
                    reserved: if next.is_none() { life.reserved } else { None },
                });
            }
        }
    }
    rows
}

fn log_table(
    name: &str,
    kind: history::Kind,
    present: bool,
    rows: &[Row],
    history: &History,
) -> String {
    let cite = |c: u32| history::rules::cite(history.commit(c));
    let mut table: Vec<[String; 6]> = vec![[
        "NUMBER".into(),
        "NAME".into(),
        "TYPE".into(),
        "ADDED".into(),
        "DELETED / CHANGED".into(),
        "RESERVED".into(),
    ]];
    for r in rows {
        let until = match (r.until, r.changed) {
            (Some(c), true) => format!("changed {}", cite(c)),
            (Some(c), false) => cite(c),
            (None, _) => "-".into(),
        };
        table.push([
            r.number.to_string(),
            r.name.clone(),
            if r.ty.is_empty() {
                "-".into()
            } else {
                r.ty.clone()
            },
            cite(r.added),
            until,
            r.reserved.map_or("-".into(), cite),
        ]);
    }
    let widths: Vec<usize> = (0..6)
        .map(|i| {
            table
                .iter()
                .map(|row| row[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = format!(
        "{} {name}{}\n",
        kind.name(),
        if present { "" } else { " (deleted)" }
    );
    for row in &table {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:w$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// `check --history`: the audit's verdict on the new side's additions, against the history
/// of the `--against` revision, added to the check's findings (located on the new side; the
/// old use is cited by commit in the message).
pub fn add_history_findings(
    opts: &AuditOptions,
    outcome: &mut protocompat::Outcome,
) -> Result<(), ExitCode> {
    let mut history = build(opts)?;
    let files: Vec<(String, &str)> = outcome
        .sources
        .new
        .iter()
        .map(|(path, text)| (path.clone(), text.text()))
        .collect();
    let label = format!("`{}`", outcome.sources.new_label);
    let found = history.judge_new_side(&files, &label);
    for f in &found {
        let location = outcome.sources.new.get(f.at.path.as_ref()).map(|text| {
            let span = protocompat::model::Span::from(f.at.span);
            let (l1, c1) = line_col(text.text(), span.start);
            let (l2, c2) = line_col(text.text(), span.end);
            Location {
                path: f.at.path.to_string(),
                span: Some(span),
                start_line: l1,
                start_column: c1,
                end_line: l2,
                end_column: c2,
            }
        });
        outcome.findings.push(Finding {
            rule: f.rule,
            location,
            previous: None,
            message: f.message.clone(),
            help: Some(f.help.clone()),
            edits: Default::default(),
            group: None,
            focus: None,
            direction: protocompat::rules::find(f.rule)
                .map_or(protocompat::rules::Direction::Both, |r| r.direction),
            severity: Some(f.severity),
        });
    }
    outcome
        .findings
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Ok(())
}
