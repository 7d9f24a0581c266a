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
use protocompat::report::{self, plural, Format, SourceText, Sources};
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
    /// An include root for imports, as in `check`: it must exist (at REV or on disk); the
    /// audit reads each file on its own, so types from imports are compared as written.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// A configuration file (protocompat .toml or buf .yaml) instead of the one at ROOT at
    /// REV: its modules' roots and excludes choose the files, `except` turns history rules
    /// off, `ignore` and `ignore_only` drop findings.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
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
            includes: self.include.clone(),
            config: self.config.clone(),
            strict: self.strict,
            allow_shallow: self.allow_shallow,
            cache: !self.no_cache,
            progress: false,
        }
    }
}

#[derive(Args)]
pub struct AuditArgs {
    #[command(flatten)]
    pub history: HistoryArgs,
    /// More ROOTs, each possibly in another git repository: each is audited, and copies of a
    /// message in several of them must agree on their field numbers (FIELD_NUMBER_CONFLICT).
    #[arg(value_name = "ROOT")]
    pub more_roots: Vec<PathBuf>,
    /// With several ROOTs: compare every name and type a field number ever had in each
    /// ROOT's history, not only those at the audited revisions.
    #[arg(long)]
    pub all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// Which findings make the exit code 1: errors, any finding, or none.
    #[arg(long, value_enum, default_value = "error", value_name = "LEVEL")]
    pub fail_on: FailOnArg,
    /// Write the missing `reserved` numbers and names (every one deleted and not reserved)
    /// into the working tree, then report what remains.
    #[arg(long)]
    pub fix: bool,
    /// With --fix: print the unified diff of the fixes and change nothing.
    #[arg(long, requires = "fix")]
    pub dry_run: bool,
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
    reported(history::build(opts).map(|h| (h, ()))).map(|(h, ())| h)
}

/// The history with its warnings printed, or the diagnostics that stopped it printed and
/// exit code 2.
fn reported<T>(result: Result<(History, T), history::Error>) -> Result<(History, T), ExitCode> {
    match result {
        Ok((h, more)) => {
            for warning in &h.warnings {
                eprintln!("{warning:?}");
            }
            Ok((h, more))
        }
        Err(e) => {
            super::print_errors(e.diagnostics);
            Err(ExitCode::from(2))
        }
    }
}

/// One audited ROOT: its history and how its paths are shown.
struct Audited {
    history: History,
    root: PathBuf,
    /// ROOT as given, with a trailing `/` (empty for `.`).
    prefix: String,
}

/// A finding with the ROOTs its sides come from: `home` holds `at` and `current`, `other`
/// holds `previous` (the same ROOT except for FIELD_NUMBER_CONFLICT).
struct Item {
    f: HistoryFinding,
    home: usize,
    other: usize,
}

/// The audited ROOTs, as the renderers need them.
struct View<'a> {
    roots: &'a [Audited],
    rev: &'a str,
}

impl View<'_> {
    fn multi(&self) -> bool {
        self.roots.len() > 1
    }
    /// A path as findings show it: relative to ROOT with one ROOT, else with ROOT in front.
    fn shown(&self, root: usize, path: &str) -> String {
        if self.multi() {
            format!("{}{path}", self.roots[root].prefix)
        } else {
            path.to_string()
        }
    }
    /// The prefix the renderers put before paths (already in them with several ROOTs).
    fn prefix(&self) -> &str {
        if self.multi() {
            ""
        } else {
            &self.roots[0].prefix
        }
    }
    fn history(&self, root: usize) -> &History {
        &self.roots[root].history
    }
    fn label(&self, root: usize) -> String {
        self.roots[root].root.display().to_string()
    }
}

pub fn run_audit(args: AuditArgs) -> ExitCode {
    if args.fix {
        if let Err(code) = refuse_fix_unless_on_disk(&args.history) {
            return code;
        }
    }
    let mut options = args.history.options();
    // People watch the text report; the machine formats never get a bar.
    options.progress = Format::from(args.format) == Format::Text;
    let mut roots = Vec::new();
    for root in std::iter::once(&args.history.root).chain(&args.more_roots) {
        let mut opts = options.clone();
        opts.root = root.clone();
        match build(&opts) {
            Ok(history) => roots.push(Audited {
                history,
                root: root.clone(),
                prefix: report::path_prefix(root),
            }),
            Err(code) => return code,
        }
    }
    let mut items = Vec::new();
    for (i, audited) in roots.iter().enumerate() {
        let mut found = audited.history.findings();
        if args.fix {
            match fix_working_tree(&args, &audited.root, &found) {
                Err(code) => return code,
                Ok(None) => {}
                Ok(Some(resolved)) => {
                    let mut resolved = resolved.into_iter();
                    found.retain(|_| !resolved.next().unwrap_or(false));
                }
            }
        }
        items.extend(found.into_iter().map(|f| Item {
            f,
            home: i,
            other: i,
        }));
    }
    if args.dry_run {
        let found: Vec<&HistoryFinding> = items.iter().map(|i| &i.f).collect();
        let code = exit_code(&found, FailOn::from(args.fail_on));
        super::leave_at_exit((roots, items));
        return code;
    }
    items.extend(conflicts(&roots, args.all));
    let repos: Vec<Repository> = roots
        .iter()
        .filter_map(|a| Repository::open(&a.history.git_dir).ok())
        .collect();
    let view = View {
        roots: &roots,
        rev: &args.history.rev,
    };
    let mut texts = Texts::new(&repos);
    let findings: Vec<Finding> = items
        .iter()
        .map(|i| finding(i, &view, &mut texts))
        .collect();
    let prefix = view.prefix();
    let out = match Format::from(args.format) {
        Format::Text => text(&items, &findings, &view, &mut texts, &args.display),
        Format::Json => json_doc(&items, &findings, &view),
        format => {
            let mut ctx = report::Context::new("v2");
            ctx.new_prefix = prefix;
            ctx.old_prefix = prefix;
            report::render(format, &findings, &ctx)
        }
    };
    print(&out);
    let found: Vec<&HistoryFinding> = items.iter().map(|i| &i.f).collect();
    let code = exit_code(&found, FailOn::from(args.fail_on));
    super::leave_at_exit((texts, findings, items, roots));
    code
}

/// FIELD_NUMBER_CONFLICT between the ROOTs (none with one ROOT), and the numbers one ROOT's
/// copy deleted and another's used again, as the home ROOT's configuration selects and
/// ignores them.
fn conflicts(roots: &[Audited], all: bool) -> Vec<Item> {
    if roots.len() < 2 {
        return Vec::new();
    }
    let labels: Vec<String> = roots.iter().map(|a| a.root.display().to_string()).collect();
    let pairs: Vec<(&str, &History)> = labels
        .iter()
        .zip(roots)
        .map(|(l, a)| (l.as_str(), &a.history))
        .collect();
    let mut found = history::conflict::find(&pairs, all);
    found.extend(history::conflict::reuses(&pairs));
    found
        .into_iter()
        .filter(|c| {
            roots[c.home]
                .history
                .config
                .reports(c.finding.rule, &c.finding.at.path)
        })
        .map(|c| Item {
            f: c.finding,
            home: c.home,
            other: c.other,
        })
        .collect()
}

/// `--fix` edits the files on disk, whose history is HEAD's: another `--rev` or a bare
/// repository has nothing to edit (as `check --fix` refuses `--rev` and `--staged`).
fn refuse_fix_unless_on_disk(args: &HistoryArgs) -> Result<(), ExitCode> {
    let why = if args.rev != "HEAD" {
        Some(format!(
            "the audited revision is `{}` (--rev); drop --rev to fix the working tree, \
             whose history is HEAD's",
            args.rev
        ))
    } else {
        let bare = args
            .git_dir
            .as_ref()
            .is_some_and(|d| Repository::open(d).is_ok_and(|r| r.is_bare()));
        bare.then(|| "the repository given by --git-dir is bare (it has no working tree)".into())
    };
    match why {
        Some(why) => {
            eprintln!("error: --fix edits the files on disk, but {why}");
            Err(ExitCode::from(2))
        }
        None => Ok(()),
    }
}

/// Plans the reservations and writes them (or prints their diff with --dry-run: `None`,
/// the audit stops there). `Some`: per finding, whether the working tree now reserves it.
fn fix_working_tree(
    args: &AuditArgs,
    root: &std::path::Path,
    found: &[HistoryFinding],
) -> Result<Option<Vec<bool>>, ExitCode> {
    let h = &args.history;
    let plan =
        history::fix::plan(root, &h.include, (&h.path, &h.exclude_path), found).map_err(|e| {
            eprintln!("{e:?}");
            ExitCode::from(2)
        })?;
    for element in &plan.gone {
        eprintln!(
            "note: --fix: {element} is not in the working tree any more; nothing to reserve it in"
        );
    }
    let files = plan.fixes.len();
    let newly = |n: usize| format!("{n} file{}", plural(n));
    if args.dry_run {
        print(&protocompat::passes::fix::unified_diff(root, &plan.fixes));
        eprintln!(
            "audit --fix --dry-run: would write reservations into {}; nothing was changed.",
            newly(files)
        );
        return Ok(None);
    }
    protocompat::passes::fix::write_files(root, &plan.fixes).map_err(|e| {
        eprintln!("{e:?}");
        ExitCode::from(2)
    })?;
    let prefix = report::path_prefix(root);
    for fix in &plan.fixes {
        eprintln!(
            "fixed: {prefix}{}: reserved the deleted numbers and names",
            fix.path
        );
    }
    if files == 0 {
        eprintln!("audit --fix: nothing to reserve.");
    } else {
        eprintln!(
            "audit --fix: wrote reservations into {}; commit them to settle the history.",
            newly(files)
        );
    }
    Ok(Some(plan.resolved))
}

fn exit_code(found: &[&HistoryFinding], fail_on: FailOn) -> ExitCode {
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

/// Blob texts, read once each, from whichever audited repository has the blob (a blob id
/// names the same bytes in every repository).
struct Texts<'r> {
    repos: &'r [Repository],
    blobs: HashMap<git2::Oid, Option<String>>,
}

impl<'r> Texts<'r> {
    fn new(repos: &'r [Repository]) -> Self {
        Texts {
            repos,
            blobs: HashMap::new(),
        }
    }
    fn get(&mut self, oid: git2::Oid) -> Option<&str> {
        let repos = self.repos;
        self.blobs
            .entry(oid)
            .or_insert_with(|| {
                repos.iter().find_map(|repo| {
                    let blob = repo.find_blob(oid).ok()?;
                    String::from_utf8(blob.content().to_vec()).ok()
                })
            })
            .as_deref()
    }
    fn location(&mut self, at: &Occurrence, path: String) -> Location {
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
            path,
            span: Some(span),
            start_line,
            start_column,
            end_line,
            end_column,
        }
    }
}

fn finding(item: &Item, view: &View, texts: &mut Texts) -> Finding {
    let f = &item.f;
    let location = Some(texts.location(&f.at, view.shown(item.home, &f.at.path)));
    let previous = f
        .previous
        .as_ref()
        .map(|p| texts.location(&p.at, view.shown(item.other, &p.at.path)));
    as_finding(f, location, previous)
}

/// A history finding as the renderers take it: the rule's direction, the audit's severity.
fn as_finding(
    f: &HistoryFinding,
    location: Option<Location>,
    previous: Option<Location>,
) -> Finding {
    Finding {
        rule: f.rule,
        location,
        previous,
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
    items: &[Item],
    findings: &[Finding],
    view: &View,
    texts: &mut Texts,
    display: &DisplayArgs,
) -> String {
    let mut out = String::new();
    for (item, f) in items.iter().zip(findings) {
        let h = &item.f;
        let old = h.previous.as_ref();
        let mut sources = Sources {
            old_label: old.map_or(String::new(), |o| old_label(item, o, view)),
            new_label: new_label(h, view.history(item.home), view.rev),
            old: HashMap::new(),
            new: HashMap::new(),
            old_is_dir: false,
            ..Sources::default()
        };
        if let (Some(o), Some(loc)) = (old, &f.previous) {
            if let Some(t) = texts.get(o.at.blob) {
                sources
                    .old
                    .insert(loc.path.clone(), SourceText::new(t.into()));
            }
        }
        if let (Some(t), Some(loc)) = (texts.get(h.at.blob), &f.location) {
            sources
                .new
                .insert(loc.path.clone(), SourceText::new(t.into()));
        }
        let mut ctx = report::Context::new("v2");
        ctx.sources = Some(&sources);
        ctx.style = display.style();
        ctx.new_prefix = view.prefix();
        ctx.old_prefix = view.prefix();
        let rendered = report::render(Format::Text, std::slice::from_ref(f), &ctx);
        out.push_str(without_summary(&rendered));
        out.push_str(&commits_note(item, view));
        if h.severity == Severity::Warning
            && protocompat::rules::find(f.rule).map(|r| r.severity) == Some(Severity::Error)
        {
            out.push_str("  (reported as a warning: the element was gone in between)\n\n");
        }
    }
    out.push_str(&summary(items, view));
    out
}

/// The old snippet's revision: its commit; for a conflict, the other ROOT's revision while
/// the use is live there.
fn old_label(item: &Item, old: &Side, view: &View) -> String {
    let history = view.history(item.other);
    if item.home != item.other && old.deleted_in.is_none() {
        return view.rev.to_string();
    }
    history::rules::cite(history.commit(old.at.commit))
}

/// The commits a finding cites, with author and subject (and the ROOT, with several).
fn commits_note(item: &Item, view: &View) -> String {
    let h = &item.f;
    let line = |what: &str, root: usize, c: u32| {
        let info = view.history(root).commit(c);
        let place = if view.multi() {
            format!(" in {}", view.label(root))
        } else {
            String::new()
        };
        format!(
            "  {what:>8}{place} {} by {}: {}\n",
            history::rules::cite(info),
            info.author,
            info.subject
        )
    };
    let conflict = h.rule == history::conflict::FIELD_NUMBER_CONFLICT;
    let mut out = String::new();
    if let Some(p) = &h.previous {
        out.push_str(&line("added", item.other, p.added_in));
        if let Some(d) = p.deleted_in {
            let what = if h.rule == "RESERVED_DROPPED" {
                "dropped"
            } else {
                "deleted"
            };
            out.push_str(&line(what, item.other, d));
        }
    }
    if let Some(c) = &h.current {
        let what = if conflict { "added" } else { "reused" };
        out.push_str(&line(what, item.home, c.added_in));
        if let Some(d) = c.deleted_in {
            out.push_str(&line("deleted", item.home, d));
        }
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

fn summary(items: &[Item], view: &View) -> String {
    let errors = items
        .iter()
        .filter(|i| i.f.severity == Severity::Error)
        .count();
    let warnings = items.len() - errors;
    let mut by_rule: std::collections::BTreeMap<&str, usize> = Default::default();
    for i in items {
        *by_rule.entry(i.f.rule).or_default() += 1;
    }
    let mut out = format!(
        "{} finding{} ({errors} error{}, {warnings} warning{}) ",
        items.len(),
        plural(items.len()),
        plural(errors),
        plural(warnings),
    );
    let walk = |a: &Audited| {
        let (h, s) = (&a.history, a.history.stats);
        format!(
            "{} commit{} ({} changed the schema; {} element{}); {} blob{} parsed, {} from the \
             cache, {} unreadable; {:.2} s",
            s.commits_walked,
            plural(s.commits_walked),
            s.commits_changed,
            h.ledger.elements.len(),
            plural(h.ledger.elements.len()),
            s.blobs_parsed,
            plural(s.blobs_parsed),
            s.blobs_cached,
            h.unreadable.len(),
            s.elapsed.as_secs_f64(),
        )
    };
    if let [only] = view.roots {
        out.push_str(&format!("in the history of {}.\n", walk(only)));
    } else {
        out.push_str(&format!(
            "in the histories of {} roots:\n",
            view.roots.len()
        ));
        for a in view.roots {
            out.push_str(&format!("  {}: {}.\n", a.root.display(), walk(a)));
        }
    }
    if !by_rule.is_empty() {
        let list: Vec<String> = by_rule.iter().map(|(r, n)| format!("{r} {n}")).collect();
        out.push_str(&format!("By rule: {}.\n", list.join(", ")));
    }
    out
}

/// The JSON document of `check` with each finding's history: `element`, `number` or `name`,
/// `previous` and `current` with their commits; severities and the summary as the audit
/// judged them. With several ROOTs each finding (and its `previous`) names its `root`, and
/// paths start with it.
fn json_doc(items: &[Item], findings: &[Finding], view: &View) -> String {
    let mut ctx = report::Context::new("v2");
    ctx.new_prefix = view.prefix();
    ctx.old_prefix = view.prefix();
    let rendered = report::render(Format::Json, findings, &ctx);
    let Ok(mut doc) = serde_json::from_str::<Value>(&rendered) else {
        return rendered;
    };
    if let Some(list) = doc["findings"].as_array_mut() {
        for (value, item) in list.iter_mut().zip(items) {
            extend(value, item, view);
        }
    }
    let errors = items
        .iter()
        .filter(|i| i.f.severity == Severity::Error)
        .count();
    doc["summary"]["errors"] = json!(errors);
    doc["summary"]["warnings"] = json!(items.len() - errors);
    let sum =
        |f: &dyn Fn(&History) -> usize| -> usize { view.roots.iter().map(|a| f(&a.history)).sum() };
    doc["summary"]["commits"] = json!(sum(&|h| h.stats.commits_walked));
    doc["summary"]["unreadable"] = json!(sum(&|h| h.unreadable.len()));
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

fn extend(value: &mut Value, item: &Item, view: &View) {
    let f = &item.f;
    value["severity"] = json!(f.severity.name());
    value["element"] = json!(f.element);
    if view.multi() {
        value["root"] = json!(view.label(item.home));
    }
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
        let mut side = side_json(view.history(item.other), p, &previous_span, true);
        // Keep the location keys every finding's `previous` has.
        for key in ["start_column", "end_line", "end_column"] {
            side[key] = previous_span.get(key).cloned().unwrap_or(Value::Null);
        }
        if view.multi() {
            side["root"] = json!(view.label(item.other));
        }
        value["previous"] = side;
    }
    let here = json!({"start_line": value["start_line"].clone()});
    value["current"] = f.current.as_ref().map_or(Value::Null, |c| {
        let deleted = item.home != item.other || c.deleted_in.is_some();
        side_json(view.history(item.home), c, &here, deleted)
    });
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
    super::leave_at_exit((rows, history));
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

/// How a history message names the new side of `check --history` ("... used again since
/// the staged changes"): the words `check`'s own messages use, not the source's label.
fn new_side_words(label: &str) -> String {
    match label {
        "index" => "the staged changes".to_string(),
        "working tree" => "the working tree".to_string(),
        revision => format!("`{revision}`"),
    }
}

/// `check --history`: the audit's verdict on the new side's additions, against the history
/// of the `--against` revision, added to the check's findings (located on the new side; the
/// old use is cited by commit in the message).
pub fn add_history_findings(
    opts: &AuditOptions,
    old_is_audited: bool,
    outcome: &mut protocompat::Outcome,
) -> Result<(), ExitCode> {
    // The check read the old side too: a file with the same blob (or text) there is
    // unchanged since the audited revision, unless that side is another revision
    // (`--merge-base`). A narrowed check did not read the files it left out: those are
    // listed by blob id alone, and read from the repository only if the audit needs them.
    let sources = &outcome.sources;
    let same_blob = |path: &str| {
        let new = sources.new_blobs.get(path);
        new.is_some() && new == sources.old_blobs.get(path)
    };
    let read = sources.new.iter().map(|(path, text)| history::NewFile {
        path: path.clone(),
        text: Some(text.text()),
        blob: sources.new_blobs.get(path).copied(),
        unchanged: old_is_audited
            && (same_blob(path)
                || sources
                    .old
                    .get(path)
                    .is_some_and(|old| old.text() == text.text())),
    });
    let unread = sources
        .new_blobs
        .iter()
        .filter(|(path, _)| !sources.new.contains_key(*path))
        .map(|(path, blob)| history::NewFile {
            path: path.clone(),
            text: None,
            blob: Some(*blob),
            unchanged: old_is_audited && same_blob(path),
        });
    let files: Vec<history::NewFile> = read.chain(unread).collect();
    let label = new_side_words(&outcome.sources.new_label);
    let (history, found) = reported(history::judge_new_side(opts, &files, &label))?;
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
        outcome.findings.push(as_finding(f, location, None));
    }
    // The process exits after the report: freeing the whole ledger one allocation at a time
    // would cost more CPU than judging the new side.
    std::mem::forget(history);
    outcome
        .findings
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Ok(())
}
