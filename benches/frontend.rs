//! Lexer and parser throughput in MB/s on one core, over every `.proto` file under a
//! directory (default: the googleapis tree `scripts/bench.sh googleapis-dir` exports).
//!
//! `cargo bench --bench frontend [DIR]`, or `BENCH_PROTO_DIR=DIR cargo bench --bench frontend`.
//! For profilers and instruction counts, `BENCH_ONLY=lex` (or `parse`, or `read`: reading the
//! files only, the baseline to subtract) runs that one stage `BENCH_RUNS` times (default 5).
//! `BENCH_ONLY=memory` prints the heap bytes of all the files' syntax trees kept at once.
//!
//! Each figure is given twice: by wall time, and by the thread's CPU time (Linux's
//! `/proc/thread-self/schedstat`), which other processes on a loaded machine disturb less.
//!
//! `BENCH_GIT_DIR=GIT_DIR BENCH_REV=REV` adds the read stage of a check: every `.proto` blob of
//! REV read through `source::GitTree` on all cores, as a check reads one side (`BENCH_ONLY=git`
//! runs only that; `RAYON_NUM_THREADS=1` for instruction counts).
//! A plain `harness = false` target timed with `std::time`: criterion would add a dozen
//! crates to every `cargo clippy --all-targets` and CI build for two numbers.

use std::alloc::{GlobalAlloc, Layout};
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use protocompat::parse;
use protocompat::source::{GitTree, Repo, Tree};
use rayon::prelude::*;

/// The binary's allocator (`src/main.rs`), so these figures are the binary's: the parser's
/// cost is mostly allocating and freeing its tree. Counted only for `BENCH_ONLY=memory`.
#[global_allocator]
static ALLOCATOR: Counting = Counting(mimalloc::MiMalloc);

/// mimalloc, counting the bytes live when [`COUNTING`] is on (one relaxed load otherwise).
struct Counting(mimalloc::MiMalloc);

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        unsafe { self.0.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        }
        unsafe { self.0.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}

/// `BENCH_ONLY=memory`: the heap bytes the syntax trees of every file take, all kept at once
/// (as a check's collect phase keeps both sides' trees), beside the bytes of their text.
fn tree_memory(texts: &[String], bytes: usize) {
    COUNTING.store(true, Ordering::Relaxed);
    let trees: Vec<_> = texts.iter().map(|t| parse::parse(t)).collect();
    let live = LIVE.load(Ordering::Relaxed);
    COUNTING.store(false, Ordering::Relaxed);
    let comments: usize = trees.iter().map(|t| t.comments.capacity()).sum();
    println!(
        "syntax trees    {:8.1} MB live for {:.1} MB of text ({:.2} bytes per byte; comment spans {:.1} MB)",
        live as f64 / 1e6,
        bytes as f64 / 1e6,
        live as f64 / bytes as f64,
        (comments * std::mem::size_of::<protocompat::syntax::token::LexComment>()) as f64 / 1e6,
    );
    black_box(trees);
}

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .or_else(|| std::env::var("BENCH_PROTO_DIR").ok())
        .unwrap_or_else(|| "/tmp/protocompat-bench/googleapis/new".to_string());
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let git = std::env::var("BENCH_GIT_DIR")
        .ok()
        .zip(std::env::var("BENCH_REV").ok());
    if let Some((git_dir, rev)) = &git {
        let tree = git_tree(Path::new(git_dir), rev);
        if only == "git" {
            return (0..runs).for_each(|_| {
                black_box(read_all(&tree));
            });
        }
        let mut bytes = 0;
        let wall = best_of(runs, || bytes = read_all(&tree)).0;
        println!(
            "git reads       {:8.1} MB/s ({:?} best of {runs}, {:.1} MB of {rev:.10} in {git_dir})",
            bytes as f64 / 1e6 / wall.as_secs_f64(),
            wall,
            bytes as f64 / 1e6
        );
    }
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
        "memory" => return tree_memory(&texts, bytes),
        "lex" => return (0..runs).for_each(|_| lex_all()),
        "parse" => return (0..runs).for_each(|_| parse_all()),
        other => {
            eprintln!("BENCH_ONLY={other}: expected lex, parse, read, memory or git");
            std::process::exit(2);
        }
    }
    let rate = |d: Duration| bytes as f64 / 1e6 / d.as_secs_f64();
    for (stage, f) in [
        ("lexer", &lex_all as &dyn Fn()),
        ("lexer + parser", &parse_all),
    ] {
        let (wall, cpu) = best_of(runs, f);
        let cpu = cpu.map_or(String::new(), |cpu| {
            format!(", {:.1} MB/s on CPU time ({cpu:?})", rate(cpu))
        });
        println!(
            "{stage:<15} {:8.1} MB/s ({wall:?} best of {runs}{cpu})",
            rate(wall)
        );
    }
}

/// The fastest of `n` runs by wall time and by the thread's CPU time (each the minimum: on a
/// shared machine the least disturbed run).
fn best_of(n: usize, mut f: impl FnMut()) -> (Duration, Option<Duration>) {
    let mut wall = Duration::MAX;
    let mut cpu: Option<Duration> = None;
    for _ in 0..n {
        let (start, start_cpu) = (Instant::now(), thread_cpu_time());
        f();
        wall = wall.min(start.elapsed());
        if let (Some(before), Some(after)) = (start_cpu, thread_cpu_time()) {
            let run = after.saturating_sub(before);
            cpu = Some(cpu.map_or(run, |best| best.min(run)));
        }
    }
    (wall, cpu)
}

/// The CPU time this thread has run (the first field of Linux's schedstat, in nanoseconds);
/// `None` elsewhere.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// The whole tree of `rev` in the repository at `git_dir`.
fn git_tree(git_dir: &Path, rev: &str) -> GitTree {
    let repo = Repo::open(git_dir).unwrap_or_else(|e| panic!("{}: {e}", git_dir.display()));
    let root = repo.tree_of(rev).unwrap_or_else(|e| panic!("{rev}: {e}"));
    GitTree::new(&repo, root, "", rev)
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("{rev}: no tree"))
}

/// Reads every `.proto` file of `tree` on all cores, as a check reads a side: the bytes read.
fn read_all(tree: &GitTree) -> usize {
    let paths = tree.list_protos("").ok().flatten().expect("the tree lists");
    paths
        .par_iter()
        .map(|path| match tree.read(path) {
            Ok(Some(text)) => text.len(),
            _ => panic!("{path}: not read"),
        })
        .sum()
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
