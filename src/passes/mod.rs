//! What runs after the rules, over their findings and the same [`Diff`](crate::diff::Diff):
//! findings located in imports, the config's ignore lists and `// protocompat:ignore`
//! directives drop findings, grouping
//! labels the findings one edit caused, and `--fix` attaches the `reserved` edits.

mod config_ignores;
pub mod fix;
pub mod group;
pub mod ignore;
mod imports;

pub use config_ignores::ignored_by_config;
pub use group::Group;
pub use ignore::Ignored;
pub use imports::located_in_imports;
