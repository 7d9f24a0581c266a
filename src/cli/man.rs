//! `protocompat man [SUBCOMMAND]`: the manual pages (roff), the overview or one per
//! subcommand (`protocompat-check(1)`, with every option).

use std::process::ExitCode;

use super::print;

pub fn run(command: clap::Command, subcommand: Option<&str>) -> ExitCode {
    let page = match subcommand {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => {
                // clap names are `&'static str` here; one page is rendered per process.
                let full: &'static str = format!("{}-{name}", command.get_name()).leak();
                sub.clone().name(full)
            }
            None => {
                let known: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                eprintln!(
                    "error: no subcommand `{name}` (there are: {})",
                    known.join(", ")
                );
                return ExitCode::from(2);
            }
        },
    };
    let mut out = Vec::new();
    match clap_mangen::Man::new(page).render(&mut out) {
        Ok(()) => {
            print(&String::from_utf8_lossy(&out));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: could not render the manual page: {e}");
            ExitCode::from(2)
        }
    }
}
