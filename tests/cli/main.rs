//! The CLI test binary: the built `protocompat` run end to end (real git repositories,
//! directories, every format, the rule catalog and cases, the CI integrations), one module per
//! concern, all linked once. The slow suites (`hostile`, `proptest_schemas`) and the buf/protox
//! comparisons (`frontend_*`) stay separate binaries.

#[path = "../support/mod.rs"]
mod support;

mod action;
mod audit;
mod buf_breaking;
mod config;
mod consistency;
mod direction;
mod errors;
mod fix;
mod formats;
mod git;
mod hazards;
mod ignore;
mod image_options;
mod images;
mod imports;
mod integrations;
mod machine_outputs;
mod narrow;
mod pre_commit;
mod review;
mod rule_cases;
mod rule_docs;
mod text_snapshots;
mod workspace;
