//! `PROTOCOMPAT_TIMINGS=1`: one line on stderr per phase of a command, to find the phases
//! that leave a core idle. Each line gives the phase's wall time, the CPU time of all the
//! process's threads, the CPU time of its busiest thread, and the least wall time two idle
//! cores would need for that work (the busiest thread's time, or half the CPU time if that
//! is more). CPU times are the threads' own (`/proc/self/task/*/schedstat`), so the bound
//! holds on a loaded machine, where the wall times do not. Each line ends with the resident
//! set now and its peak so far (`/proc/self/status`), to find the phase that sets the peak.
//!
//! Off (the variable unset), [`phase`] costs one atomic load.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What the previous mark saw.
struct Mark {
    at: Instant,
    /// Thread id -> nanoseconds it has run.
    threads: HashMap<String, u64>,
    /// Sum of the two-core bounds of the phases so far.
    bound: Duration,
    started: Instant,
}

fn state() -> Option<&'static Mutex<Mark>> {
    static STATE: OnceLock<Option<Mutex<Mark>>> = OnceLock::new();
    STATE
        .get_or_init(|| {
            std::env::var_os("PROTOCOMPAT_TIMINGS").map(|_| {
                let now = Instant::now();
                Mutex::new(Mark {
                    at: now,
                    threads: thread_times(),
                    bound: Duration::ZERO,
                    started: now,
                })
            })
        })
        .as_ref()
}

/// Starts the clock (when timings are on): the first [`phase`] counts from here.
pub fn start() {
    let _ = state();
}

/// Ends the phase `name` (it began at the previous mark, or at [`start`]).
pub fn phase(name: &str) {
    let Some(state) = state() else {
        return;
    };
    let mut mark = state.lock().unwrap_or_else(|e| e.into_inner());
    let now = Instant::now();
    let threads = thread_times();
    let ran = |tid: &String, ns: &u64| ns.saturating_sub(*mark.threads.get(tid).unwrap_or(&0));
    let deltas: Vec<u64> = threads.iter().map(|(tid, ns)| ran(tid, ns)).collect();
    let cpu = Duration::from_nanos(deltas.iter().sum());
    let busiest = Duration::from_nanos(deltas.iter().copied().max().unwrap_or(0));
    let bound = busiest.max(cpu / 2);
    mark.bound += bound;
    eprintln!(
        "timing {name:<12} wall {:>7.3} s  cpu {:>7.3} s  busiest thread {:>7.3} s  \
         2-core bound {:>7.3} s  rss {} MiB ({} MiB of files), peak {} MiB  \
         (total: wall {:.3} s, bound {:.3} s)",
        (now - mark.at).as_secs_f64(),
        cpu.as_secs_f64(),
        busiest.as_secs_f64(),
        bound.as_secs_f64(),
        memory_mib("VmRSS:"),
        memory_mib("RssFile:"),
        memory_mib("VmHWM:"),
        (now - mark.started).as_secs_f64(),
        mark.bound.as_secs_f64(),
    );
    mark.at = now;
    mark.threads = threads;
}

/// One `/proc/self/status` figure (`VmRSS:` now, `RssFile:` the part of it that maps files,
/// `VmHWM:` the peak so far) in MiB, or `?`.
fn memory_mib(key: &str) -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(key))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or_else(|| "?".to_string(), |kb| (kb / 1024).to_string())
}

/// Each thread's time on a CPU so far, in nanoseconds (empty where /proc is not Linux's).
fn thread_times() -> HashMap<String, u64> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return HashMap::new();
    };
    tasks
        .flatten()
        .filter_map(|task| {
            let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            let ns = stat.split_whitespace().next()?.parse().ok()?;
            Some((task.file_name().to_string_lossy().into_owned(), ns))
        })
        .collect()
}
