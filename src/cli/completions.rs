//! `protocompat completions SHELL`: a shell completion script.

use std::process::ExitCode;

use super::print;

pub fn run(shell: clap_complete::Shell, mut command: clap::Command) -> ExitCode {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "protocompat", &mut out);
    print(&String::from_utf8_lossy(&out));
    ExitCode::SUCCESS
}
