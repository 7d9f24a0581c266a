//! `protocompat rules`: the rule table (id, categories, default, summary), optionally as a
//! configuration selects them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use protocompat::config::Config;
use protocompat::report;
use protocompat::rules::{RuleMeta, RULES};

use super::print;

#[derive(Args)]
pub struct RulesArgs {
    /// Show the rules as this configuration file selects them (version, categories, used).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Include deprecated rule ids.
    #[arg(long)]
    all: bool,
}

/// `protocompat rules`.
pub fn run(args: RulesArgs) -> ExitCode {
    let config = match &args.config {
        Some(path) => match Config::from_path(path) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("{e:?}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let version = config.as_ref().map_or("v2", |c| c.version.as_str());
    let used: Option<Vec<&str>> = match config.as_ref().map(Config::select) {
        Some(Ok(selection)) => Some(selection.rules.iter().map(|r| r.id).collect()),
        Some(Err(e)) => {
            eprintln!("{e:?}");
            return ExitCode::from(2);
        }
        None => None,
    };
    let shown: Vec<&RuleMeta> = RULES
        .iter()
        .filter(|r| r.versions.contains(&version) && (args.all || !r.deprecated))
        .collect();
    let mut out = String::new();
    let width = shown.iter().map(|r| r.id.len()).max().unwrap_or(2);
    let cat_width = shown
        .iter()
        .map(|r| report::categories(r.id, version).join(",").len())
        .max()
        .unwrap_or(0)
        .max("CATEGORIES".len());
    let header = match used {
        Some(_) => format!(
            "{:width$}  {:cat_width$}  {:7}  {:4}  SUMMARY\n",
            "ID", "CATEGORIES", "DEFAULT", "USED"
        ),
        None => format!(
            "{:width$}  {:cat_width$}  {:7}  SUMMARY\n",
            "ID", "CATEGORIES", "DEFAULT"
        ),
    };
    out.push_str(&header);
    for rule in shown {
        let categories = report::categories(rule.id, version).join(",");
        let default = if rule.default { "yes" } else { "no" };
        let summary = if rule.deprecated {
            format!("(deprecated) {}", rule.summary)
        } else {
            rule.summary.to_string()
        };
        match &used {
            Some(used) => {
                let on = if used.contains(&rule.id) { "yes" } else { "no" };
                out.push_str(&format!(
                    "{:width$}  {categories:cat_width$}  {default:7}  {on:4}  {summary}\n",
                    rule.id
                ));
            }
            None => out.push_str(&format!(
                "{:width$}  {categories:cat_width$}  {default:7}  {summary}\n",
                rule.id
            )),
        }
    }
    print(&out);
    ExitCode::SUCCESS
}
