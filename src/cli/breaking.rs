//! `protocompat breaking`: `buf breaking`'s command line, so a CI line switches by changing
//! one word. `breaking INPUT --against INPUT` with buf's flags; `--error-format` prints buf's
//! exact outputs and findings exit 100, as buf does. It runs `check` underneath: the inputs
//! are read the same way (a directory, or buf's `.git#branch=...` syntax for the old side).

use std::process::ExitCode;

use clap::{Args, FromArgMatches as _};
use protocompat::report::buf::BufFormat;

use super::check::{self, buf_input, CheckArgs};

#[derive(Args)]
pub struct BreakingArgs {
    /// The new side: a directory (default `.`), an image (`.binpb`, `.bin`, `.pb`, or buf's
    /// `.json`), or buf's `.git#branch=feature` / `#tag=` / `#ref=` (with `,subdir=DIR`), as
    /// buf's INPUT.
    #[arg(default_value = ".")]
    input: String,
    /// The old side: a directory, an image, a git revision, or buf's `.git#branch=main` /
    /// `#tag=v1.0.0` / `#ref=REV` (with `,subdir=INPUT`).
    #[arg(long, value_name = "AGAINST_INPUT")]
    against: String,
    /// buf's output format: text, json, msvs, junit, github-actions, gitlab-code-quality.
    #[arg(long, default_value = "text", value_name = "FORMAT", value_parser = check::parse_buf_format)]
    error_format: BufFormat,
    /// The buf.yaml (or protocompat.toml) to use instead of the one in INPUT.
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// A buf.yaml giving the layout of the --against side.
    #[arg(long, value_name = "FILE")]
    against_config: Option<String>,
    /// Only files under this path (relative to INPUT). Repeatable.
    #[arg(long, value_name = "PATH")]
    path: Vec<String>,
    /// Leave out files under this path (relative to INPUT). Repeatable.
    #[arg(long, value_name = "PATH")]
    exclude_path: Vec<String>,
    /// Accepted for buf's command lines: imported files are never compared.
    #[arg(long)]
    exclude_imports: bool,
    /// Compare only the files INPUT has: the --against side keeps just those, so a file that
    /// is gone is not reported (buf's meaning; it overrides --path on the against side).
    #[arg(long)]
    limit_to_input_files: bool,
    /// buf's registry comparison: not supported (protocompat never uses the network); an error.
    #[arg(long)]
    against_registry: bool,
    /// buf's flag to read no symlink: not supported; an error.
    #[arg(long)]
    disable_symlinks: bool,
    /// Compare even when an import cannot be found (protocompat's flag; buf has none).
    #[arg(long)]
    allow_missing_imports: bool,
}

/// buf's git INPUT (`.git#branch=feature,subdir=proto`) as (ROOT, its revision); any other
/// INPUT is ROOT itself, read from disk.
fn new_side(input: &str) -> Result<(String, Option<String>), String> {
    let Some((path, options)) = input.split_once('#') else {
        return Ok((input.to_string(), None));
    };
    if path != ".git" && !path.ends_with("/.git") {
        return Ok((input.to_string(), None));
    }
    let top = path.strip_suffix(".git").unwrap_or_default();
    let subdir = options
        .split(',')
        .find_map(|o| o.strip_prefix("subdir="))
        .unwrap_or(".");
    let root = format!("{}{subdir}", if top.is_empty() { "" } else { top });
    let mapped = buf_input::parse(input, std::path::Path::new(&root))?;
    for note in &mapped.notes {
        eprintln!("protocompat: note: {note}");
    }
    Ok((root, Some(mapped.against)))
}

/// The same request as `check`'s command line.
fn check_args(args: &BreakingArgs) -> Result<Vec<String>, String> {
    let (root, rev) = new_side(&args.input).map_err(|why| format!("INPUT {why}"))?;
    let mut argv: Vec<String> = vec!["check".into(), root];
    if let Some(rev) = rev {
        argv.extend(["--rev".to_string(), rev]);
    }
    argv.extend(["--against".to_string(), args.against.clone()]);
    let mut option = |name: &str, value: &Option<String>| {
        if let Some(v) = value {
            argv.extend([name.to_string(), v.clone()]);
        }
    };
    option("--config", &args.config);
    option("--against-config", &args.against_config);
    for p in &args.path {
        argv.extend(["--path".to_string(), p.clone()]);
    }
    for p in &args.exclude_path {
        argv.extend(["--exclude-path".to_string(), p.clone()]);
    }
    if args.allow_missing_imports {
        argv.push("--allow-missing-imports".into());
    }
    if args.limit_to_input_files {
        argv.push("--limit-to-input-files".into());
    }
    argv.extend(["--color".to_string(), "never".to_string()]);
    Ok(argv)
}

/// buf's exit code when the check could not be done (bad flags, an input that cannot be
/// read); a file that does not compile is 100, as buf reports it with the findings.
pub const FAILURE: u8 = 1;

/// Flags of buf's that protocompat cannot honour: an error rather than a silent no-op.
fn unsupported(args: &BreakingArgs) -> Option<&'static str> {
    if args.against_registry {
        return Some(
            "--against-registry is not supported: protocompat never reads the Buf Schema \
             Registry; pass the revision or directory to compare with as --against",
        );
    }
    if args.disable_symlinks {
        return Some(
            "--disable-symlinks is not supported: protocompat follows symlinks in directories; \
             compare git revisions (`--against '.git#branch=main'`), which store links as links",
        );
    }
    None
}

/// `protocompat breaking`.
pub fn run(args: BreakingArgs) -> ExitCode {
    let _ = args.exclude_imports;
    let failure = |why: &str| {
        eprintln!("{:?}", miette::miette!("{why}"));
        ExitCode::from(FAILURE)
    };
    if let Some(why) = unsupported(&args) {
        return failure(why);
    }
    let argv = match check_args(&args) {
        Ok(argv) => argv,
        Err(why) => return failure(&why),
    };
    let command = CheckArgs::augment_args(clap::Command::new("check"));
    let parsed = command
        .try_get_matches_from(argv)
        .and_then(|matches| CheckArgs::from_arg_matches(&matches));
    match parsed {
        Ok(check_args) => {
            let code = check::run_as(check_args, Some(args.error_format));
            // check's "could not be done" is buf's failure.
            match code == ExitCode::from(2) {
                true => ExitCode::from(FAILURE),
                false => code,
            }
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(FAILURE)
        }
    }
}
