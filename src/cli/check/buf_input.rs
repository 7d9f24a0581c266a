//! buf's input syntax for the old side, so a `buf breaking` line works unchanged:
//! `--against '.git#branch=main'`, `'.git#tag=v1.0.0'`, `'.git#ref=HEAD~1,subdir=proto'`.
//! Each maps to a revision of the repository holding ROOT; a directory stays a directory.

use std::path::Path;

/// What `--against` means once buf's syntax is read.
#[derive(Debug, PartialEq, Eq)]
pub struct Against {
    /// A revision or a directory, as protocompat reads `--against`.
    pub against: String,
    /// Said on stderr: options buf has that change nothing here.
    pub notes: Vec<String>,
}

/// `value` in buf's `PATH.git#KEY=VALUE,...` form mapped to a revision; anything else
/// unchanged. `root` is ROOT (a `subdir` must name it). Err: what cannot be mapped, and why.
pub fn parse(value: &str, root: &Path) -> Result<Against, String> {
    let is_git = |path: &str| path == ".git" || path.ends_with("/.git");
    let (path, options) = match value.split_once('#') {
        Some(split) => split,
        None if is_git(value) => (value, ""),
        None => {
            return Ok(Against {
                against: value.to_string(),
                notes: Vec::new(),
            })
        }
    };
    if !is_git(path) {
        return Err(format!(
            "`{value}`: of buf's inputs only a git repository (`.git#...`) or a directory is \
             supported here"
        ));
    }
    let mut revision: Option<String> = None;
    let mut notes = Vec::new();
    for option in options.split(',').filter(|o| !o.is_empty()) {
        let (key, val) = option
            .split_once('=')
            .ok_or_else(|| format!("`{value}`: `{option}` is not KEY=VALUE"))?;
        match key {
            "branch" | "ref" => set_once(&mut revision, val.to_string(), value)?,
            // A tag named like a branch must still name the tag.
            "tag" => set_once(&mut revision, format!("refs/tags/{val}"), value)?,
            "subdir" => same_directory(path, val, root, value)?,
            "depth" => notes.push(format!(
                "`depth={val}` is ignored: the revision is read from the local repository"
            )),
            "recurse_submodules" => notes.push(format!(
                "`recurse_submodules={val}` is ignored: files of submodules are never compared"
            )),
            other => {
                return Err(format!(
                    "`{value}`: buf's `{other}=` is not supported (branch, tag, ref, subdir, \
                     depth and recurse_submodules are)"
                ))
            }
        }
    }
    same_repository(path, root, value)?;
    let against = revision.unwrap_or_else(|| "HEAD".to_string());
    Ok(Against { against, notes })
}

fn set_once(revision: &mut Option<String>, new: String, value: &str) -> Result<(), String> {
    match revision {
        Some(_) => Err(format!(
            "`{value}`: give one of branch=, tag= and ref=, not several"
        )),
        None => {
            *revision = Some(new);
            Ok(())
        }
    }
}

/// The directory holding `git_path` (`.git` → the current directory).
fn top_of(git_path: &str) -> &Path {
    match Path::new(git_path).parent() {
        Some(top) if !top.as_os_str().is_empty() => top,
        _ => Path::new("."),
    }
}

/// Revisions are read from the repository holding ROOT: the `.git` must be that one's.
fn same_repository(git_path: &str, root: &Path, value: &str) -> Result<(), String> {
    let holding_root = git2::Repository::discover(root)
        .ok()
        .and_then(|r| r.workdir().and_then(|w| w.canonicalize().ok()));
    let named = top_of(git_path).canonicalize().ok();
    match (holding_root, named) {
        (Some(a), Some(b)) if a == b => Ok(()),
        _ => Err(format!(
            "`{value}`: {git_path} is not the repository holding ROOT ({}); protocompat reads the old side from that repository",
            root.display()
        )),
    }
}

/// protocompat reads the same path on both sides: a `subdir` must be ROOT.
fn same_directory(git_path: &str, subdir: &str, root: &Path, value: &str) -> Result<(), String> {
    let named = top_of(git_path).join(subdir).canonicalize();
    let root_dir = root.canonicalize();
    match (named, root_dir) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        _ => Err(format!(
            "`{value}`: subdir={subdir} is not ROOT ({}); protocompat compares the same \
             directory on both sides: run `protocompat check {subdir} --against REV`",
            root.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The mappings that succeed need a repository: tests/cli/consistency.rs runs them in one.

    fn error(value: &str, root: &str) -> String {
        parse(value, Path::new(root)).expect_err(value)
    }

    #[test]
    fn values_without_buf_syntax_pass_through() {
        for value in ["main", "../old", "HEAD~1"] {
            assert_eq!(
                parse(value, Path::new(".")).map(|a| a.against).as_deref(),
                Ok(value)
            );
        }
    }

    #[test]
    fn what_cannot_be_mapped_is_an_error_saying_why() {
        assert!(error(".git#branch=main,tag=v1", ".").contains("not several"));
        assert!(
            error(".git#strip_components=1", ".").contains("`strip_components=` is not supported")
        );
        assert!(error("archive.tar.gz#strip_components=1", ".").contains("only a git repository"));
        assert!(error(".git#branch", ".").contains("is not KEY=VALUE"));
        let subdir = error(".git#ref=HEAD~1,subdir=src", "/");
        assert!(subdir.contains("subdir=src is not ROOT"), "{subdir}");
    }
}
