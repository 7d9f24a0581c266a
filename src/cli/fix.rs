//! `check --fix [--dry-run]`: apply (or show) the `reserved` fixes of a check's findings.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::process::ExitCode;

use protocompat::passes::fix;
use protocompat::report::plural;
use protocompat::{CheckOptions, NewSide, Outcome};

/// `--fix` edits files on disk: the new side must be them (the working tree, or ROOT as a
/// plain directory). A git revision or the index cannot be edited.
pub fn refuse_unless_on_disk(options: &CheckOptions) -> Result<(), ExitCode> {
    let side = match &options.new_side {
        NewSide::Worktree => return Ok(()),
        NewSide::Rev(rev) => format!("git revision `{rev}` (--rev)"),
        NewSide::Staged => "the git index (--staged)".to_string(),
    };
    eprintln!(
        "error: --fix edits the files on disk, but the new side is {side}; \
         drop --rev/--staged to fix the working tree under {}",
        options.root.display()
    );
    Err(ExitCode::from(2))
}

/// What the CLI does after the fix step.
pub enum Then {
    /// Files changed: run the check again and report that.
    CheckAgain,
    /// Nothing changed: report this outcome.
    Report,
    /// `--dry-run` printed the diff: exit as this outcome's findings say.
    Exit,
}

/// Applies the fixes (or prints their diff with `dry_run`); paths in messages start with
/// `prefix` (ROOT as given, so they read from the working directory). Err: stop with this
/// exit code.
pub fn run(
    options: &CheckOptions,
    outcome: &Outcome,
    dry_run: bool,
    prefix: &str,
) -> Result<Then, ExitCode> {
    let fixes = match fix::plan_files(&options.root, &outcome.findings) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e:?}");
            return Err(ExitCode::from(2));
        }
    };
    let fixed: Vec<_> = outcome
        .findings
        .iter()
        .filter(|f| !f.edits.is_empty())
        .collect();
    if dry_run {
        let _ = std::io::stdout()
            .lock()
            .write_all(fix::unified_diff(&options.root, &fixes).as_bytes());
        eprintln!(
            "--fix --dry-run: would reserve what {} finding{} need{} in {} file{}; nothing was changed.",
            fixed.len(),
            plural(fixed.len()),
            if fixed.len() == 1 { "s" } else { "" },
            fixes.len(),
            plural(fixes.len())
        );
        return Ok(Then::Exit);
    }
    if let Err(e) = fix::write_files(&options.root, &fixes) {
        eprintln!("{e:?}");
        return Err(ExitCode::from(2));
    }
    for f in &fixed {
        if let Some(l) = &f.location {
            eprintln!(
                "fixed: {prefix}{}:{}:{}: {} {}",
                l.path, l.start_line, l.start_column, f.rule, f.message
            );
        }
    }
    let files: BTreeSet<&str> = fixes.iter().map(|f| f.path.as_str()).collect();
    if fixes.is_empty() {
        eprintln!("--fix: nothing to reserve.");
    } else {
        eprintln!(
            "--fix: reserved the deleted numbers and names of {} finding{} in {} file{}.",
            fixed.len(),
            plural(fixed.len()),
            files.len(),
            plural(files.len())
        );
    }
    // FIELD_NO_DELETE and ENUM_VALUE_NO_DELETE report a deletion even once it is reserved
    // (generated code lost the element); say so, or the re-run check looks like a failed fix.
    let still_reported = outcome
        .findings
        .iter()
        .any(|f| matches!(f.rule, "FIELD_NO_DELETE" | "ENUM_VALUE_NO_DELETE"));
    if still_reported {
        eprintln!(
            "note: FIELD_NO_DELETE and ENUM_VALUE_NO_DELETE (categories FILE, PACKAGE) report a \
             deleted field or value even when it is reserved, as buf does: generated code lost it. \
             The WIRE_JSON and WIRE rules accept a reserved deletion."
        );
    }
    Ok(if fixes.is_empty() {
        Then::Report
    } else {
        Then::CheckAgain
    })
}
