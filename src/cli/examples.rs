//! The EXAMPLES sections of `--help` (clap `after_help`), one per subcommand.

pub const REVIEW: &str = "\
Examples:
  # Every change of the working tree against main, classed major/minor/patch
  protocompat review --against main

  # A pull-request description: the verdict, then a table per file
  protocompat review --rev HEAD --against origin/main --merge-base --format markdown

  # For release tooling: the verdict and the commit type
  protocompat review --against v1.4.0 --format json | jq -r .verdict

  # Fail CI when a change needs a major release
  protocompat review --against origin/main --fail-on major

Exit codes: 0 (whatever the review lists, unless --fail-on), 1 the verdict is at least the
--fail-on class, 2 the review could not be done (bad input, a file that does not build).";
pub const BREAKING: &str = "\
Examples:
  # As `buf breaking`: the directory proto against the main branch
  protocompat breaking proto --against '.git#branch=main'

  # Two directories, buf's JSON lines
  protocompat breaking new --against old --error-format json

  # GitHub annotations exactly as buf prints them
  protocompat breaking --against '.git#ref=HEAD~1' --error-format github-actions

Exit codes (buf's): 0 no breaking change, 100 breaking changes found, 2 the check could not
be done (buf says 1).";

pub const CHECK: &str = "\
Examples:
  # The working tree against the main branch
  protocompat check --against main

  # Only the schema under proto/, against the last release tag
  protocompat check proto --against v1.4.0

  # What is staged, against HEAD (what the pre-commit hook runs)
  protocompat check --staged --against HEAD

  # A pull request: its head against the merge base with the target branch
  protocompat check --rev HEAD --against origin/main --merge-base

  # Two directories, as `buf breaking new --against old`
  protocompat check new --against old

  # CI outputs: annotations, SARIF for code scanning, a Markdown job summary
  protocompat check --against origin/main --format github
  protocompat check --against origin/main --format sarif > protocompat.sarif
  protocompat check --against origin/main --format markdown >> \"$GITHUB_STEP_SUMMARY\"

  # Report but never fail the build
  protocompat check --against main --fail-on never

Exit codes: 0 no breaking change (or none at the --fail-on level), 1 breaking changes found,
2 the check could not be done.";

pub const RULES: &str = "\
Examples:
  # Every rule with its categories and whether it is on by default
  protocompat rules

  # Which rules a buf.yaml turns on
  protocompat rules --config buf.yaml

  # Deprecated ids too
  protocompat rules --all";

pub const EXPLAIN: &str = "\
Examples:
  protocompat explain FIELD_NO_DELETE
  protocompat explain FIELD_SAME_TYPE --color never | less";

pub const COMPLETIONS: &str = "\
Examples:
  # bash (current shell, then permanently)
  source <(protocompat completions bash)
  protocompat completions bash > ~/.local/share/bash-completion/completions/protocompat

  # zsh: a directory on $fpath
  protocompat completions zsh > ~/.zfunc/_protocompat

  # fish
  protocompat completions fish > ~/.config/fish/completions/protocompat.fish

  # PowerShell
  protocompat completions powershell | Out-String | Invoke-Expression";

pub const MAN: &str = "\
Examples:
  protocompat man > protocompat.1 && man ./protocompat.1
  protocompat man > /usr/local/share/man/man1/protocompat.1
  protocompat man check > /usr/local/share/man/man1/protocompat-check.1";
