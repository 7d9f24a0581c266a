//! Snapshots of the rich text output (colour off, Unicode, 100 columns, no timing), one per
//! scenario: every element kind, deletions, type changes, renames, moves and grouped causes.
//! Each snapshot was read before it was accepted: does it show both revisions, the exact
//! place, and a fix a user can apply?

use std::path::Path;

use protocompat::report::{self, Context, Format, Style};
use protocompat::{check, CheckOptions};

/// Writes `files` (path, text) under `dir`.
fn write_tree(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let full = dir.join(path);
        std::fs::create_dir_all(full.parent().expect("file has a parent")).expect("mkdir");
        std::fs::write(full, text).expect("write");
    }
}

/// Checks `new` against `old` (directories) and renders `format` as a user on a
/// working tree compared with `main` would see it.
fn render_with(old: &[(&str, &str)], new: &[(&str, &str)], format: Format, style: Style) -> String {
    render_full(old, new, format, style, false)
}

/// [`render_with`], listing findings silenced by ignore comments when `show_ignored`.
fn render_full(
    old: &[(&str, &str)],
    new: &[(&str, &str)],
    format: Format,
    style: Style,
    show_ignored: bool,
) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let (old_dir, new_dir) = (dir.path().join("old"), dir.path().join("new"));
    std::fs::create_dir_all(&old_dir).expect("mkdir");
    std::fs::create_dir_all(&new_dir).expect("mkdir");
    write_tree(&old_dir, old);
    write_tree(&new_dir, new);
    let options = CheckOptions {
        root: new_dir,
        against: old_dir.to_string_lossy().into_owned(),
        ..CheckOptions::default()
    };
    let mut outcome = match check(&options) {
        Ok(o) => o,
        Err(e) => panic!("check failed: {:?}", e.diagnostics),
    };
    // The old side is a temporary directory; show it as the branch a user compares with.
    outcome.sources.old_label = "main".to_string();
    outcome.sources.new_label = "working tree".to_string();
    outcome.sources.old_is_dir = false;
    let ctx = Context {
        config_version: &outcome.config_version,
        sources: Some(&outcome.sources),
        groups: &outcome.groups,
        stats: None,
        style,
        ignored: &outcome.ignored,
        show_ignored,
        ..Context::new(&outcome.config_version)
    };
    report::render(format, &outcome.findings, &ctx)
}

fn render(old: &[(&str, &str)], new: &[(&str, &str)]) -> String {
    render_with(old, new, Format::Text, Style::default())
}

/// One file `acme/v1/order.proto` per side.
fn one(old: &str, new: &str) -> String {
    render(&[(ORDER, old)], &[(ORDER, new)])
}

const ORDER: &str = "acme/v1/order.proto";

const BASE: &str = r#"syntax = "proto3";

package acme.v1;

message Order {
  string id = 1;
  int32 status = 2;
  int64 discount = 5;
  optional int32 promo = 7;
  repeated string tags = 8;
}
"#;

#[test]
fn field_type_changed() {
    insta::assert_snapshot!(one(BASE, &BASE.replace("int32 status", "string status")));
}

#[test]
fn field_deleted() {
    insta::assert_snapshot!(one(BASE, &BASE.replace("  int64 discount = 5;\n", "")));
}

#[test]
fn field_renamed_is_one_diagnostic() {
    insta::assert_snapshot!(one(BASE, &BASE.replace("discount", "rebate")));
}

#[test]
fn proto3_optional_field_renamed_is_one_diagnostic() {
    insta::assert_snapshot!(one(BASE, &BASE.replace("promo", "promotion")));
}

#[test]
fn field_json_name_changed() {
    insta::assert_snapshot!(one(
        BASE,
        &BASE.replace("discount = 5;", "discount = 5 [json_name = \"rebate\"];")
    ));
}

#[test]
fn field_cardinality_changed() {
    insta::assert_snapshot!(one(
        BASE,
        &BASE.replace("repeated string tags", "string tags")
    ));
}

#[test]
fn field_moved_into_a_oneof() {
    insta::assert_snapshot!(one(
        BASE,
        &BASE.replace(
            "  int64 discount = 5;\n",
            "  oneof pricing {\n    int64 discount = 5;\n  }\n"
        )
    ));
}

#[test]
fn oneof_deleted() {
    let old = BASE.replace(
        "  int64 discount = 5;\n",
        "  oneof pricing {\n    int64 discount = 5;\n  }\n",
    );
    insta::assert_snapshot!(one(&old, BASE));
}

const MESSAGES: &str = r#"syntax = "proto3";

package acme.v1;

message Order {
  string id = 1;
  Customer customer = 2;
}

message Customer {
  string name = 1;
  Address address = 2;

  message Address {
    string city = 1;
  }
}
"#;

#[test]
fn message_deleted_with_its_nested_message() {
    let new = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  string id = 1;\n}\n";
    insta::assert_snapshot!(one(MESSAGES, new));
}

#[test]
fn message_renamed_is_one_diagnostic() {
    insta::assert_snapshot!(one(MESSAGES, &MESSAGES.replace("Customer", "Client")));
}

#[test]
fn message_moved_to_another_file_is_one_diagnostic() {
    let (order, customer) = MESSAGES.split_at(MESSAGES.find("message Customer").expect("split"));
    let header = "syntax = \"proto3\";\n\npackage acme.v1;\n\n";
    let order = order.replacen(
        header,
        &format!("{header}import \"acme/v1/customer.proto\";\n\n"),
        1,
    );
    insta::assert_snapshot!(render(
        &[(ORDER, MESSAGES)],
        &[
            (ORDER, order.as_str()),
            ("acme/v1/customer.proto", &format!("{header}{customer}")),
        ],
    ));
}

#[test]
fn message_moved_but_a_nested_message_deleted_stays_apart() {
    let (order, customer) = MESSAGES.split_at(MESSAGES.find("message Customer").expect("split"));
    let header = "syntax = \"proto3\";\n\npackage acme.v1;\n\n";
    let order = order.replacen(
        header,
        &format!("{header}import \"acme/v1/customer.proto\";\n\n"),
        1,
    );
    let customer = customer
        .replace("  Address address = 2;\n", "")
        .replace("\n  message Address {\n    string city = 1;\n  }\n", "");
    insta::assert_snapshot!(render(
        &[(ORDER, MESSAGES)],
        &[
            (ORDER, order.as_str()),
            ("acme/v1/customer.proto", &format!("{header}{customer}")),
        ],
    ));
}

#[test]
fn file_deleted_with_everything_in_it() {
    let other =
        "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Other {\n  string id = 1;\n}\n";
    // FILE and PACKAGE: the package rules report each message the file held.
    let config = "version: v1\nbreaking:\n  use: [FILE, PACKAGE]\n";
    insta::assert_snapshot!(render(
        &[
            (ORDER, MESSAGES),
            ("acme/v1/other.proto", other),
            ("buf.yaml", config)
        ],
        &[("acme/v1/other.proto", other), ("buf.yaml", config)],
    ));
}

#[test]
fn file_renamed_its_types_live_elsewhere() {
    insta::assert_snapshot!(render(
        &[(ORDER, MESSAGES)],
        &[("acme/v1/orders.proto", MESSAGES)],
    ));
}

#[test]
fn package_changed() {
    insta::assert_snapshot!(one(
        MESSAGES,
        &MESSAGES.replace("package acme.v1;", "package acme.v2;")
    ));
}

#[test]
fn syntax_changed() {
    let proto2 = "syntax = \"proto2\";\n\npackage acme.v1;\n\nmessage Order {\n  optional string id = 1;\n}\n";
    let proto3 = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  optional string id = 1;\n}\n";
    insta::assert_snapshot!(one(proto2, proto3));
}

#[test]
fn file_option_changed() {
    let with = |pkg: &str| {
        MESSAGES.replace(
            "package acme.v1;\n",
            &format!("package acme.v1;\n\noption go_package = \"{pkg}\";\n"),
        )
    };
    insta::assert_snapshot!(one(
        &with("example.com/acme/v1;acmev1"),
        &with("example.com/acme/api/v1;acmev1")
    ));
}

const ENUMS: &str = r#"syntax = "proto3";

package acme.v1;

enum Status {
  STATUS_UNSPECIFIED = 0;
  STATUS_OPEN = 1;
  STATUS_CLOSED = 2;
}

message Order {
  Status status = 1;
}
"#;

#[test]
fn enum_deleted() {
    let new =
        "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  int32 status = 1;\n}\n";
    insta::assert_snapshot!(one(ENUMS, new));
}

#[test]
fn enum_renamed_is_one_diagnostic() {
    insta::assert_snapshot!(one(
        ENUMS,
        &ENUMS
            .replace("enum Status", "enum State")
            .replace("  Status status", "  State status")
    ));
}

#[test]
fn enum_value_deleted() {
    insta::assert_snapshot!(one(ENUMS, &ENUMS.replace("  STATUS_CLOSED = 2;\n", "")));
}

#[test]
fn enum_value_renamed() {
    insta::assert_snapshot!(one(ENUMS, &ENUMS.replace("STATUS_CLOSED", "STATUS_DONE")));
}

#[test]
fn reserved_enum_range_deleted() {
    let old = ENUMS.replace(
        "  STATUS_CLOSED = 2;\n",
        "  STATUS_CLOSED = 2;\n  reserved 3 to 5;\n",
    );
    insta::assert_snapshot!(one(&old, ENUMS));
}

#[test]
fn reserved_field_name_deleted() {
    let old = BASE.replace(
        "  string id = 1;\n",
        "  reserved \"legacy\";\n  string id = 1;\n",
    );
    insta::assert_snapshot!(one(&old, BASE));
}

const SERVICES: &str = r#"syntax = "proto3";

package acme.v1;

message GetOrderRequest {
  string id = 1;
}

message Order {
  string id = 1;
}

service OrderService {
  rpc GetOrder(GetOrderRequest) returns (Order);
  rpc WatchOrder(GetOrderRequest) returns (stream Order);
}

service AdminService {
  rpc Purge(GetOrderRequest) returns (Order);
}
"#;

#[test]
fn service_deleted() {
    let start = SERVICES.find("service AdminService").expect("admin");
    insta::assert_snapshot!(one(SERVICES, &SERVICES[..start]));
}

#[test]
fn rpc_deleted() {
    insta::assert_snapshot!(one(
        SERVICES,
        &SERVICES.replace(
            "  rpc WatchOrder(GetOrderRequest) returns (stream Order);\n",
            ""
        )
    ));
}

#[test]
fn rpc_request_type_changed() {
    insta::assert_snapshot!(one(
        SERVICES,
        &SERVICES.replace("rpc GetOrder(GetOrderRequest)", "rpc GetOrder(Order)")
    ));
}

#[test]
fn rpc_streaming_changed() {
    insta::assert_snapshot!(one(
        SERVICES,
        &SERVICES.replace("returns (stream Order)", "returns (Order)")
    ));
}

const EXTENSIONS: &str = r#"syntax = "proto2";

package acme.v1;

message Order {
  optional string id = 1;
  extensions 100 to 199;
}

extend Order {
  optional string channel = 100;
}
"#;

#[test]
fn extension_deleted() {
    // EXTENSION_NO_DELETE exists in buf's v2 configuration.
    let start = EXTENSIONS.find("extend Order").expect("extend");
    let config = ("buf.yaml", "version: v2\nbreaking:\n  use: [FILE]\n");
    insta::assert_snapshot!(render(
        &[(ORDER, EXTENSIONS), config],
        &[(ORDER, &EXTENSIONS[..start]), config],
    ));
}

#[test]
fn extension_type_changed() {
    insta::assert_snapshot!(one(
        EXTENSIONS,
        &EXTENSIONS.replace("optional string channel", "optional int32 channel")
    ));
}

#[test]
fn no_breaking_change() {
    insta::assert_snapshot!(one(
        BASE,
        &BASE.replace(
            "  repeated string tags = 8;\n",
            "  repeated string tags = 8;\n  string note = 9;\n"
        )
    ));
}

#[test]
fn ascii_drawing() {
    let style = Style {
        unicode: false,
        ..Style::default()
    };
    insta::assert_snapshot!(render_with(
        &[(ORDER, BASE)],
        &[(ORDER, &BASE.replace("int32 status", "string status"))],
        Format::Text,
        style,
    ));
}

#[test]
fn narrow_terminal_wraps_help() {
    let style = Style {
        width: 60,
        ..Style::default()
    };
    insta::assert_snapshot!(render_with(
        &[(ORDER, BASE)],
        &[(ORDER, &BASE.replace("  int64 discount = 5;\n", ""))],
        Format::Text,
        style,
    ));
}

#[test]
fn short_format_lists_every_finding_of_a_group() {
    insta::assert_snapshot!(render_with(
        &[(ORDER, BASE)],
        &[(ORDER, &BASE.replace("discount", "rebate"))],
        Format::Short,
        Style::default(),
    ));
}

#[test]
fn json_keeps_every_finding_and_adds_the_group_key() {
    let out = render_with(
        &[(ORDER, BASE)],
        &[(
            ORDER,
            &BASE
                .replace("discount", "rebate")
                .replace("int32 status", "string status"),
        )],
        Format::Json,
        Style::default(),
    );
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    let groups: Vec<(String, serde_json::Value)> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap_or("").to_string(),
                f["group"].clone(),
            )
        })
        .collect();
    insta::assert_json_snapshot!(groups);
}

#[test]
fn explain_renders_a_rule_doc() {
    // Asserted by shape, not snapshotted: the doc's words belong to the catalog and change.
    let rule = report::explain::lookup("field_no_delete").expect("known rule");
    let out = report::explain::render(rule, Style::default());
    assert!(
        out.starts_with("FIELD_NO_DELETE (error, on by default; categories: FILE, PACKAGE, CSR)\n"),
        "{out}"
    );
    assert!(out.contains("\nWhy it breaks\n─────────────\n"), "{out}");
    assert!(
        out.contains("\n    message Order {\n"),
        "code blocks are indented: {out}"
    );
    assert!(!out.contains("```") && !out.contains("\n---\n"), "{out}");
    assert!(!out.contains("**"), "{out}");
}

#[test]
fn explain_suggests_close_ids() {
    assert_eq!(
        report::explain::suggestions("FIELD_NO_DELET").first(),
        Some(&"FIELD_NO_DELETE")
    );
    let out = assert_cmd::Command::cargo_bin("protocompat")
        .expect("binary")
        .args(["explain", "FILED_SAME_TYPE"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown rule id `FILED_SAME_TYPE`"),
        "{stderr}"
    );
    assert!(stderr.contains("FIELD_SAME_TYPE"), "{stderr}");
}

#[test]
fn every_rule_has_help_in_the_text_output() {
    // Every rendered diagnostic closes with a help line: a handler's own or the pointer to
    // `explain`.
    let out = one(BASE, &BASE.replace("int32 status", "string status"));
    assert!(out.contains("  help: "), "{out}");
}

/// `protocompat check` on a temporary pair of directories with extra arguments.
fn cli(extra: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    write_tree(&dir.path().join("old"), &[(ORDER, BASE)]);
    write_tree(
        &dir.path().join("new"),
        &[(ORDER, &BASE.replace("int32 status", "string status"))],
    );
    let out = assert_cmd::Command::cargo_bin("protocompat")
        .expect("binary")
        .current_dir(dir.path().join("new"))
        .args(["check", ".", "--against", "../old"])
        .args(extra)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn colour_follows_the_color_flag() {
    let always = cli(&["--color", "always"]);
    assert!(always.contains("\u{1b}["), "{always}");
    let never = cli(&["--color", "never"]);
    assert!(!never.contains('\u{1b}'), "{never}");
    // Piped output has no colour by default.
    let auto = cli(&[]);
    assert!(!auto.contains('\u{1b}'), "{auto}");
    // The old side is named by what --against named: a directory's file as a path from the
    // working directory, so `path:line:col` opens it (was `acme/v1/order.proto @ ../old:7:3`).
    assert!(auto.contains("../old/acme/v1/order.proto:7:3"), "{auto}");
    assert!(auto.contains("1 file checked in "), "{auto}");
}

#[test]
fn ascii_flag_draws_without_box_characters() {
    let out = cli(&["--ascii"]);
    assert!(out.is_ascii(), "{out}");
}

#[test]
fn without_sources_the_text_names_each_place() {
    // A library caller with no source texts still gets every finding, located.
    let dir = tempfile::tempdir().expect("tempdir");
    write_tree(&dir.path().join("old"), &[(ORDER, BASE)]);
    write_tree(
        &dir.path().join("new"),
        &[(ORDER, &BASE.replace("int32 status", "string status"))],
    );
    let outcome = check(&CheckOptions {
        root: dir.path().join("new"),
        against: dir.path().join("old").to_string_lossy().into_owned(),
        ..CheckOptions::default()
    })
    .expect("check");
    let ctx = Context::new(&outcome.config_version);
    let out = report::render(Format::Text, &outcome.findings, &ctx);
    assert!(out.contains("FIELD_SAME_TYPE"), "{out}");
    assert!(out.contains("(acme/v1/order.proto:7:3)"), "{out}");
}

const IGNORED: &str = "  // protocompat:ignore FIELD_SAME_TYPE -- every client reads status as a string since v3.2\n  string status = 2;\n";

#[test]
fn ignore_comment_silences_a_finding_and_the_summary_counts_it() {
    let new = BASE
        .replace("  int32 status = 2;\n", IGNORED)
        .replace("  int64 discount = 5;\n", "");
    insta::assert_snapshot!(one(BASE, &new));
}

#[test]
fn show_ignored_lists_what_ignore_comments_silenced() {
    let new = BASE.replace("  int32 status = 2;\n", IGNORED);
    insta::assert_snapshot!(render_full(
        &[(ORDER, BASE)],
        &[(ORDER, &new)],
        Format::Text,
        Style::default(),
        true,
    ));
}

#[test]
fn fix_dry_run_shows_the_reserved_statements_then_fix_makes_the_check_pass() {
    let dir = tempfile::tempdir().expect("tempdir");
    let new = BASE.replace("  int64 discount = 5;\n", "");
    write_tree(&dir.path().join("old"), &[(ORDER, BASE)]);
    write_tree(&dir.path().join("new"), &[(ORDER, &new)]);
    // WIRE_JSON: a deletion is fine once its number and name are reserved.
    std::fs::write(
        dir.path().join("buf.yaml"),
        "version: v1\nbreaking:\n  use: [WIRE_JSON]\n",
    )
    .expect("write");
    let run = |extra: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("protocompat")
            .expect("binary")
            .current_dir(dir.path())
            .args(["check", "new", "--against", "old", "--config", "buf.yaml"])
            .args(extra)
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The time taken varies: keep the summary's shape without it.
        let timing = |s: &str| match s.split_once(" checked in ") {
            Some((head, tail)) => {
                let end = tail
                    .find(" ms")
                    .map(|i| i + 3)
                    .or_else(|| tail.find(" s").map(|i| i + 2))
                    .unwrap_or(0);
                let rest = &tail[end..];
                format!("{head} checked in <time>{rest}")
            }
            None => s.to_string(),
        };
        format!(
            "$ protocompat check new --against old {}\nexit: {:?}\n--- stdout\n{}\n--- stderr\n{}",
            extra.join(" "),
            out.status.code(),
            timing(&stdout),
            stderr
        )
    };
    let transcript = [
        run(&[]),
        run(&["--fix", "--dry-run"]),
        run(&["--fix"]),
        run(&[]),
    ];
    insta::assert_snapshot!(transcript.join("\n"));
}
