//! `protocompat man`: the manual page (roff).

use std::process::ExitCode;

use super::print;

pub fn run(command: clap::Command) -> ExitCode {
    let mut out = Vec::new();
    match clap_mangen::Man::new(command).render(&mut out) {
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
