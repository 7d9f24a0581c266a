//! `check --transitive`: the new side against each of several revisions (every tag matching
//! `--tags GLOB`, or every commit that touched ROOT since `--since`), as schema registries'
//! BACKWARD_TRANSITIVE does; each finding is reported once, with the oldest revision it
//! breaks. A revision that cannot be checked stops it (exit 2), never a silent pass.

use std::collections::HashSet;
use std::process::ExitCode;

use protocompat::engine::FailOn;
use protocompat::finding::Finding;
use protocompat::history::walk::{self, Since, WalkOptions};
use protocompat::report::buf::BufFormat;
use protocompat::report::{self, Format};
use protocompat::rules::DirectionFilter;
use protocompat::{CheckOptions, Outcome};
use serde_json::{json, Value};

use super::formats::DirectionArg;
use crate::cli::print;

/// The revisions to check against, oldest first, as `(revision, label)`.
fn revisions(
    options: &CheckOptions,
    tags: Option<&str>,
    since: Option<&str>,
) -> Result<Vec<(String, String)>, miette::Report> {
    let start = if options.root.exists() {
        options.root.clone()
    } else {
        std::path::PathBuf::from(".")
    };
    let (repo, _) = walk::open(options.git_dir.as_deref(), &start)?;
    let list = match (tags, since) {
        (Some(glob), _) => tagged(&repo, glob)?,
        (None, Some(since)) => touched_since(&repo, options, &start, since)?,
        (None, None) => {
            return Err(miette::miette!(
                "--transitive needs --tags GLOB or --since REV|YYYY-MM-DD"
            ))
        }
    };
    if list.is_empty() {
        return Err(miette::miette!(
            help = "check --tags / --since; with nothing to compare with, nothing was checked",
            "--transitive: no revision to check against ({})",
            match (tags, since) {
                (Some(glob), _) => format!("no tag matches `{glob}`"),
                _ => "no commit touched ROOT in that range".to_string(),
            }
        ));
    }
    Ok(list)
}

/// Tags matching `glob`, oldest commit first.
fn tagged(repo: &git2::Repository, glob: &str) -> Result<Vec<(String, String)>, miette::Report> {
    let names = repo
        .tag_names(Some(glob))
        .map_err(|e| miette::miette!("--tags {glob}: {}", e.message()))?;
    let mut list = Vec::new();
    for name in names.iter().flatten() {
        let commit = repo
            .revparse_single(&format!("refs/tags/{name}"))
            .and_then(|o| o.peel_to_commit())
            .map_err(|e| miette::miette!("tag {name}: {}", e.message()))?;
        list.push((commit.time().seconds(), name.to_string()));
    }
    list.sort();
    Ok(list.into_iter().map(|(_, n)| (n.clone(), n)).collect())
}

/// The commits on the first-parent history of HEAD (or --rev) that changed a `.proto` file
/// under ROOT, from `since` on (that commit included), oldest first.
fn touched_since(
    repo: &git2::Repository,
    options: &CheckOptions,
    start: &std::path::Path,
    since: &str,
) -> Result<Vec<(String, String)>, miette::Report> {
    let since = match walk::parse_date(since) {
        Some(t) => Since::Time(t),
        None => Since::Commit(walk::commit_of(repo, since)?),
    };
    let source = match &options.git_dir {
        Some(dir) => protocompat::source::Repo::open(dir),
        None => protocompat::source::Repo::discover(start),
    }
    .map_err(|e| miette::miette!("{}: not a git repository: {}", start.display(), e.message()))?;
    let rev = match &options.new_side {
        protocompat::NewSide::Rev(rev) => rev.clone(),
        _ => "HEAD".to_string(),
    };
    let walked = walk::walk(
        repo,
        &WalkOptions {
            rev,
            since: Some(since),
            root: source.path_in_repo(&options.root)?,
            paths: options.paths.clone(),
            exclude_paths: options.exclude_paths.clone(),
            ..WalkOptions::default()
        },
    )?;
    Ok(walked
        .commits
        .iter()
        .map(|c| (c.oid.to_string(), c.short()))
        .collect())
}

/// What the flags of `check` say about reporting.
pub struct Reporting {
    pub format: Format,
    pub fail_on: FailOn,
    pub direction: DirectionArg,
    pub style: report::Style,
    pub prefix: String,
    /// `--error-format`: buf's output, and buf's formats leave the hazards out.
    pub buf_format: Option<BufFormat>,
}

/// Runs the check against every revision and reports each finding once.
pub fn run(
    options: &CheckOptions,
    (tags, since): (Option<&str>, Option<&str>),
    how: &Reporting,
) -> ExitCode {
    let revs = match revisions(options, tags, since) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e:?}");
            return ExitCode::from(2);
        }
    };
    let mut seen = HashSet::new();
    let mut warned = HashSet::new();
    let mut groups: Vec<(String, Outcome)> = Vec::new();
    // One loader for every revision: a blob the revisions share is read and parsed once.
    let loader = protocompat::engine::Loader::new();
    for (rev, label) in revs {
        let mut opts = options.clone();
        opts.against = rev;
        let mut outcome = match protocompat::check_with(&opts, &loader) {
            Ok(o) => o,
            Err(error) => {
                crate::cli::print_errors(error.diagnostics);
                eprintln!("error: --transitive: the check against `{label}` could not be done");
                return ExitCode::from(2);
            }
        };
        for warning in &outcome.warnings {
            if warned.insert(warning.to_string()) {
                eprintln!("{warning:?}");
            }
        }
        let direction = DirectionFilter::from(how.direction);
        outcome.findings.retain(|f| direction.keeps(f.direction));
        if how.buf_format.is_some() {
            outcome
                .findings
                .retain(|f| !protocompat::engine::is_hazard(f));
        }
        outcome.findings.retain(|f| seen.insert(key(f)));
        groups.push((label, outcome));
    }
    let all = || -> Vec<Finding> {
        groups
            .iter()
            .flat_map(|(_, o)| o.findings.iter().cloned())
            .collect()
    };
    let last = || context(&groups[groups.len() - 1], how);
    let out = match (how.buf_format, how.format) {
        (Some(buf), _) => report::buf::render(buf, &all(), &last()),
        (None, Format::Text) => text(&groups, how),
        (None, Format::Json) => json_doc(&groups, how),
        (None, format) => report::render(format, &all(), &last()),
    };
    print(&out);
    let failed = groups.iter().any(|(_, o)| how.fail_on.fails(&o.findings));
    let code = if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    crate::cli::leave_at_exit((groups, loader));
    code
}

/// Findings against different revisions are the same when they say the same thing at the
/// same place of the new side.
fn key(f: &Finding) -> (String, String, u32, u32, String) {
    let (path, line, column) = f.location.as_ref().map_or((String::new(), 0, 0), |l| {
        (l.path.clone(), l.start_line, l.start_column)
    });
    (f.rule.to_string(), path, line, column, f.message.clone())
}

fn context<'a>((label, outcome): &'a (String, Outcome), how: &'a Reporting) -> report::Context<'a> {
    report::Context {
        config_version: &outcome.config_version,
        sources: Some(&outcome.sources),
        groups: &outcome.groups,
        stats: Some(outcome.stats),
        style: how.style,
        against: label,
        new_prefix: &how.prefix,
        old_prefix: &how.prefix,
        link_base: None,
        ignored: &[],
        show_ignored: false,
        categories_run: Some(&outcome.categories_run),
        check_warnings: &[],
    }
}

/// One section per revision, oldest first, with the findings first seen there.
fn text(groups: &[(String, Outcome)], how: &Reporting) -> String {
    let mut out = String::new();
    let mut total = 0;
    for group in groups {
        let (label, outcome) = group;
        total += outcome.findings.len();
        out.push_str(&format!(
            "--transitive: against `{label}` ({} finding{} first seen there)\n\n",
            outcome.findings.len(),
            protocompat::report::plural(outcome.findings.len())
        ));
        if !outcome.findings.is_empty() {
            out.push_str(&report::render(
                Format::Text,
                &outcome.findings,
                &context(group, how),
            ));
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "--transitive: {total} finding{} against {} revision{}, each reported with the oldest \
         revision it breaks.\n",
        protocompat::report::plural(total),
        groups.len(),
        protocompat::report::plural(groups.len())
    ));
    out
}

/// One JSON document: each finding with `against`, the oldest revision it breaks.
fn json_doc(groups: &[(String, Outcome)], how: &Reporting) -> String {
    let mut findings = Vec::new();
    let (mut errors, mut warnings) = (0, 0);
    for group in groups {
        let rendered = report::render(Format::Json, &group.1.findings, &context(group, how));
        let Ok(doc) = serde_json::from_str::<Value>(&rendered) else {
            continue;
        };
        errors += doc["summary"]["errors"].as_u64().unwrap_or(0);
        warnings += doc["summary"]["warnings"].as_u64().unwrap_or(0);
        for mut f in doc["findings"].as_array().cloned().unwrap_or_default() {
            f["against"] = json!(group.0);
            findings.push(f);
        }
    }
    let doc = json!({
        "findings": findings,
        "against": groups.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(),
        "summary": {"errors": errors, "warnings": warnings},
    });
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}
