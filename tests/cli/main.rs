//! The one integration-test binary: the built `protocompat` run end to end (real git
//! repositories, directories, every format, the rule catalog and cases, the CI integrations),
//! the hostile inputs and fuzz regressions, the property tests, the front-end comparisons with
//! buf, protoc and protox, and the import layering — one module per concern, all linked once
//! (each separate test binary cost CI a release link against every dependency).

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
mod frontend_conformance;
mod frontend_corpus;
mod frontend_protox_crosscheck;
mod git;
mod hazards;
mod hostile;
mod ignore;
mod image_options;
mod images;
mod imports;
mod integrations;
mod layers;
mod machine_outputs;
mod narrow;
mod pre_commit;
mod proptest_schemas;
mod review;
mod rule_cases;
mod rule_docs;
mod text_snapshots;
mod workspace;
