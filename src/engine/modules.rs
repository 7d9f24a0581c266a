//! Which module of the new side is compared with which of the old (buf v2 workspaces).

use miette::{miette, Report};

use crate::config::{Layout, Selection};

/// Whether two modules' selections run the same rules with the same ignores.
pub fn same_rules(a: &Selection, b: &Selection) -> bool {
    a.rules
        .iter()
        .map(|r| r.id)
        .eq(b.rules.iter().map(|r| r.id))
        && a.ignore == b.ignore
        && a.ignore_only == b.ignore_only
        && a.ignore_unstable_packages == b.ignore_unstable_packages
}

/// Which old module each new module is compared with, as buf pairs them: by position when
/// both sides have as many modules; when the new side has more and they all share one rule
/// set, new modules without an old counterpart (by module path) are left out.
pub fn pair_modules(
    new: &Layout,
    old: &Layout,
    uniform: bool,
    (new_label, old_label): (&str, &str),
) -> Result<Vec<(usize, usize)>, Report> {
    if new.modules.len() == old.modules.len() {
        return Ok((0..new.modules.len()).map(|i| (i, i)).collect());
    }
    let mismatch = || {
        miette!(
            help = "buf compares the modules of a workspace pairwise; give both sides the same modules",
            "ROOT has {} module(s) @ {} but {} @ {}",
            new.modules.len(),
            new_label,
            old.modules.len(),
            old_label
        )
    };
    if new.modules.len() < old.modules.len() || !uniform {
        return Err(mismatch());
    }
    let mut pairs = Vec::new();
    for (old_index, old_module) in old.modules.iter().enumerate() {
        let new_index = new
            .modules
            .iter()
            .position(|m| m.name == old_module.name)
            .ok_or_else(mismatch)?;
        pairs.push((new_index, old_index));
    }
    Ok(pairs)
}
