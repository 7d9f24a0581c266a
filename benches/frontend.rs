//! Lexer and parser throughput in MB/s on one core, over every `.proto` file under a
//! directory (default: the googleapis tree `scripts/bench.sh googleapis-dir` exports).
//!
//! `cargo bench --bench frontend [DIR]`, or `BENCH_PROTO_DIR=DIR cargo bench --bench frontend`.
//! For profilers and instruction counts, `BENCH_ONLY=lex` (or `parse`, or `read`: reading the
//! files only, the baseline to subtract) runs that one stage `BENCH_RUNS` times (default 5).
//! A plain `harness = false` target timed with `std::time`: criterion would add a dozen
//! crates to every `cargo clippy --all-targets` and CI build for two numbers.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use protocompat::parse;

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .or_else(|| std::env::var("BENCH_PROTO_DIR").ok())
        .unwrap_or_else(|| "/tmp/protocompat-bench/googleapis/new".to_string());
    let texts = read_protos(Path::new(&dir));
    if texts.is_empty() {
        eprintln!("no .proto files under {dir} (run scripts/bench.sh googleapis-dir first)");
        return;
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    println!(
        "{} files, {:.1} MB under {dir}",
        texts.len(),
        bytes as f64 / 1e6
    );
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let lex_all = || {
        for t in &texts {
            black_box(parse::lexer::lex(t));
        }
    };
    let parse_all = || {
        for t in &texts {
            black_box(parse::parse(t));
        }
    };
    match only.as_str() {
        "" => {}
        "read" => return,
        "lex" => return (0..runs).for_each(|_| lex_all()),
        "parse" => return (0..runs).for_each(|_| parse_all()),
        other => {
            eprintln!("BENCH_ONLY={other}: expected lex, parse or read");
            std::process::exit(2);
        }
    }
    let lex = best_of(runs, lex_all);
    let parse = best_of(runs, parse_all);
    let rate = |d: Duration| bytes as f64 / 1e6 / d.as_secs_f64();
    println!(
        "lexer           {:8.1} MB/s ({:?} best of {runs})",
        rate(lex),
        lex
    );
    println!(
        "lexer + parser  {:8.1} MB/s ({:?} best of {runs})",
        rate(parse),
        parse
    );
}

/// The fastest of `n` runs: on a shared machine the minimum is the least disturbed.
fn best_of(n: usize, f: impl Fn()) -> Duration {
    (0..n)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn read_protos(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "proto") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    out.push(text);
                }
            }
        }
    }
    out
}
