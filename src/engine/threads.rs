//! Which threads a check runs on: rayon's global pool (a worker per core), or, for a
//! tiny check in a process that allows it, the calling thread alone.
//!
//! On a pre-commit hook of a few files the work is a few milliseconds: starting the workers,
//! their spinning while they wait for jobs and the wake-ups cost more than the second core
//! gives back (precommit10: 6.1 ms of CPU and 5.1 ms wall on the pool, 4.3 ms and 4.4 ms
//! on one thread; from about 50 files on, the pool is faster). The output does not depend
//! on the number of threads: every parallel step collects in order. On one thread a job
//! given to `rayon::spawn` runs only when the thread next waits inside rayon, or never:
//! the only such job frees a symbol table (`link::build`), which the exit frees anyway.

use std::sync::atomic::{AtomicBool, Ordering};

/// A check of at most this many `.proto` files (known before anything is read) runs on
/// the calling thread when [`allow_one_thread`] was called.
pub const SMALL_CHECK: usize = 32;

static ONE_THREAD_ALLOWED: AtomicBool = AtomicBool::new(false);

/// Lets a small check ([`SMALL_CHECK`]) run on the calling thread alone. For a command-line
/// process whose main thread runs the check before anything else uses rayon: the thread
/// then becomes the global pool's only worker for the rest of the process, so a process
/// in which other threads use rayon too (tests, a server) must not call this.
pub fn allow_one_thread() {
    ONE_THREAD_ALLOWED.store(true, Ordering::Relaxed);
}

/// Before a check's first parallel step: with [`allow_one_thread`], a check of at most
/// [`SMALL_CHECK`] files (`files`: the new side's count, when known without listing) makes
/// the calling thread rayon's only worker. A pool already started stays as it is.
pub(crate) fn choose(files: Option<usize>) {
    let small = files.is_some_and(|n| n <= SMALL_CHECK);
    if !small || !ONE_THREAD_ALLOWED.load(Ordering::Relaxed) {
        return;
    }
    // An error only means the global pool already runs: the check uses it.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build_global();
}
