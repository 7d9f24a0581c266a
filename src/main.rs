//! The `protocompat` command line.

// Denied, not forbidden: the one exception is the allocator glue below (the library itself
// forbids `unsafe`).
#![deny(unsafe_code)]

use std::process::ExitCode;

use clap::{CommandFactory as _, Parser, Subcommand};

/// `eprintln!` that ignores a stderr nobody reads any more (`protocompat ... 2>&1 | head`, a
/// full disk): the exit code must stay the check's verdict, not a panic's 101.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;

/// mimalloc rather than the system allocator: a check allocates millions of small strings
/// and vectors (the model of every file), and glibc's malloc and free were a fifth of its CPU.
/// (Not with the `system-alloc` feature, which heap profilers need: build that one with
/// `--no-default-features`, so that C code's malloc is glibc's as well.)
#[cfg(not(feature = "system-alloc"))]
#[global_allocator]
static ALLOCATOR: allocator::Mimalloc = allocator::Mimalloc;

/// mimalloc's plain entry points for what needs no more than 16 bytes' alignment (nearly
/// every allocation: strings, vectors, hash tables). `mimalloc::MiMalloc` passes every
/// allocation to `mi_malloc_aligned`, which in mimalloc 3 finds a free block of the size
/// class only while that class's current page has one; once it is full, each allocation of a
/// size that is no power of two takes the generic path and is over-allocated from a larger
/// class, its page marked as holding interior pointers (slower frees). On googleapis that was
/// 1.15 million of 12.4 million allocations, and allocation, reallocation and free cost 61,
/// 227 and 37 instructions each.
#[cfg(not(feature = "system-alloc"))]
#[allow(unsafe_code)]
mod allocator {
    use std::alloc::{GlobalAlloc, Layout};
    use std::ffi::c_void;

    use libmimalloc_sys as mi;

    pub struct Mimalloc;

    /// The alignment every mimalloc block has (`MI_INTPTR_SIZE`): `mi_realloc_aligned` itself
    /// calls `mi_realloc` up to it.
    const WORD: usize = std::mem::size_of::<usize>();

    /// Up to this alignment (`MI_MAX_ALIGN_SIZE`; hash tables ask for it), a plain block is
    /// tried first: its address is checked, so nothing rests on how mimalloc lays out its
    /// size classes.
    const PLAIN: usize = 16;

    fn aligned(p: *mut c_void, align: usize) -> bool {
        (p as usize) & (align - 1) == 0
    }

    /// A layout aligned past a word: a plain block if it happens to be aligned enough, else
    /// an aligned one. Kept out of line so that the word-aligned path stays a plain jump
    /// into mimalloc (inlined, its frame cost every allocation more than this path saves).
    #[inline(never)]
    unsafe fn over_word(
        layout: Layout,
        plain: unsafe extern "C" fn(usize) -> *mut c_void,
        with_alignment: unsafe extern "C" fn(usize, usize) -> *mut c_void,
    ) -> *mut u8 {
        if layout.align() <= PLAIN {
            let p = plain(layout.size());
            if aligned(p, layout.align()) {
                return p.cast();
            }
            mi::mi_free(p);
        }
        with_alignment(layout.size(), layout.align()).cast()
    }

    // SAFETY: each call passes mimalloc a size and an alignment it accepts, a block is
    // returned only at the layout's alignment (or null on failure), and blocks from any of
    // the entry points are freed by `mi_free`.
    unsafe impl GlobalAlloc for Mimalloc {
        #[inline]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if layout.align() <= WORD {
                return mi::mi_malloc(layout.size()).cast();
            }
            over_word(layout, mi::mi_malloc, mi::mi_malloc_aligned)
        }

        #[inline]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            if layout.align() <= WORD {
                return mi::mi_zalloc(layout.size()).cast();
            }
            over_word(layout, mi::mi_zalloc, mi::mi_zalloc_aligned)
        }

        #[inline]
        unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
            mi::mi_free(ptr.cast::<c_void>());
        }

        #[inline]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            if layout.align() <= WORD {
                mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

/// Finds breaking changes in Protocol Buffers schemas between git revisions or directories.
#[derive(Parser)]
#[command(name = "protocompat", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compare ROOT (the working tree, or --rev / --staged) against a revision or directory.
    #[command(after_help = cli::examples::CHECK)]
    // Boxed: the check's many options would make every other command as large.
    Check(Box<cli::check::CheckArgs>),
    /// List every change against a revision or directory, breaking or not, each classed
    /// major/minor/patch, with the SemVer verdict and a conventional-commit type.
    #[command(after_help = cli::examples::REVIEW)]
    Review(Box<cli::review::ReviewArgs>),
    /// `buf breaking`'s command line: `breaking INPUT --against INPUT`, buf's flags, buf's
    /// exact `--error-format` outputs and exit code 100 on breaking changes.
    #[command(after_help = cli::examples::BREAKING)]
    Breaking(Box<cli::breaking::BreakingArgs>),
    /// Audit the git history: numbers and names reused after a deletion, deletions never
    /// reserved, reservations dropped (the HISTORY rules).
    Audit(Box<cli::audit::AuditArgs>),
    /// The ledger of one message or enum: every number, name and type it has had, with the
    /// commits that added, changed, deleted and reserved them.
    Log(Box<cli::audit::LogArgs>),
    /// List the rules: id, categories, default, summary.
    #[command(after_help = cli::examples::RULES)]
    Rules(cli::rules::RulesArgs),
    /// Show a rule's documentation: what it detects, why it breaks, an example, the fix.
    #[command(after_help = cli::examples::EXPLAIN)]
    Explain(cli::explain::ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = cli::examples::COMPLETIONS)]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) for man(1): the overview, or one subcommand's page with
    /// all its options (`protocompat man check`).
    #[command(after_help = cli::examples::MAN)]
    Man {
        /// A subcommand (check, rules, explain, completions).
        subcommand: Option<String>,
    },
}

fn main() -> ExitCode {
    protocompat::engine::timing::start();
    // Long paths and messages stay on one line so they can be searched and copied.
    miette::set_hook(Box::new(|_| {
        // SafeHandler: a label past column 65,535 would make miette panic.
        Box::new(protocompat::report::SafeHandler(
            miette::MietteHandlerOpts::new()
                .wrap_lines(false)
                .width(200)
                .build(),
        ))
    }))
    .ok();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return command_line_error(&e),
    };
    match cli.command {
        Command::Check(args) => cli::check::run(*args),
        Command::Review(args) => cli::review::run(*args),
        Command::Breaking(args) => cli::breaking::run(*args),
        Command::Audit(args) => cli::audit::run_audit(*args),
        Command::Log(args) => cli::audit::run_log(*args),
        Command::Rules(args) => cli::rules::run(args),
        Command::Explain(args) => cli::explain::run(args),
        Command::Completions { shell } => cli::completions::run(shell, Cli::command()),
        Command::Man { subcommand } => cli::man::run(Cli::command(), subcommand.as_deref()),
    }
}

/// clap's report of a bad command line. `breaking` exits as `buf breaking` does (1); every
/// other command with 2 (0 for --help and --version).
fn command_line_error(e: &clap::Error) -> ExitCode {
    let _ = e.print();
    if !e.use_stderr() {
        return ExitCode::SUCCESS;
    }
    let breaking = std::env::args().nth(1).is_some_and(|a| a == "breaking");
    ExitCode::from(if breaking { cli::breaking::FAILURE } else { 2 })
}
