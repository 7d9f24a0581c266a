//! buf's `--exclude-imports`: the two builds are compared whole, imports included, and a
//! finding located in an import on either side is dropped. A file that left the compared
//! set but is still imported (a vendored copy replaced by a bundled well-known type, a file
//! moved to an `-I` root or into another module) is therefore not deleted.

use std::collections::HashSet;

use crate::finding::Finding;

/// Whether either of a finding's locations lies in a file that its side only imports.
pub fn located_in_imports(
    f: &Finding,
    old_imports: &HashSet<String>,
    new_imports: &HashSet<String>,
) -> bool {
    f.location
        .as_ref()
        .is_some_and(|l| new_imports.contains(&l.path))
        || f.previous
            .as_ref()
            .is_some_and(|l| old_imports.contains(&l.path))
}
