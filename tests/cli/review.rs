//! `protocompat review`: every change between two revisions of a real git repository,
//! classed major/minor/patch, in each format, with the verdict, the conventional-commit
//! type and the exit codes.

use serde_json::Value;

use std::path::Path;

use crate::support::{doc_snippet, run, Repo};

const ORDER_V1: &str = r#"syntax = "proto3";

package acme.v1;

// An order.
message Order {
  string id = 1;
  optional int32 discount_percent = 2;
  int64 stock_delta = 3;
  string note = 4;
  Status status = 5;
}

enum Status {
  STATUS_UNSPECIFIED = 0;
  STATUS_OPEN = 1;
}

service Orders {
  rpc Get(Order) returns (Order);
}
"#;

/// The zero-default trap (`optional` dropped), the sint64 story, a deletion with its
/// reservation, a deprecation, and additions of every member kind.
const ORDER_V2: &str = r#"syntax = "proto3";

package acme.v1;

// An order placed by a customer.
message Order {
  reserved 4;
  reserved "note";
  string id = 1;
  int32 discount_percent = 2;
  sint64 stock_delta = 3;
  Status status = 5 [deprecated = true];
  repeated string tags = 6;
}

enum Status {
  STATUS_UNSPECIFIED = 0;
  STATUS_OPEN = 1;
  STATUS_CLOSED = 2;
}

service Orders {
  rpc Get(Order) returns (Order);
  rpc List(Order) returns (Order);
}
"#;

const DRAFT_V1: &str = "syntax = \"proto3\";\n\npackage acme.v1beta1;\n\nmessage Draft {\n  string id = 1;\n  string title = 2;\n}\n";
const DRAFT_V2: &str =
    "syntax = \"proto3\";\n\npackage acme.v1beta1;\n\nmessage Draft {\n  string id = 1;\n}\n";

/// A repository whose HEAD has v1 of both files and whose working tree has v2.
fn orders_repo() -> Repo {
    let repo = Repo::new();
    repo.write("acme/v1/order.proto", ORDER_V1);
    repo.write("acme/v1beta1/draft.proto", DRAFT_V1);
    repo.commit("v1");
    repo.write("acme/v1/order.proto", ORDER_V2);
    repo.write("acme/v1beta1/draft.proto", DRAFT_V2);
    repo
}

fn review(repo: &Repo, args: &[&str]) -> (i32, String) {
    let mut all = vec!["review", "--against", "HEAD"];
    all.extend_from_slice(args);
    let out = run(repo.path(), &all);
    assert!(
        out.stderr.is_empty() || out.status.code() == Some(2),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("UTF-8"),
    )
}

fn json(repo: &Repo, args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout) = review(repo, &all);
    assert_eq!(code, 0, "{stdout}");
    serde_json::from_str(&stdout).expect("JSON")
}

/// `class kind element_kind element path:line: description [rules]` per change.
fn change_lines(doc: &Value) -> Vec<String> {
    doc["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            let rules: Vec<&str> = c["rules"]
                .as_array()
                .expect("rules")
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            format!(
                "{} {} {} {} {}:{}: {} [{}]",
                c["class"].as_str().unwrap(),
                c["kind"].as_str().unwrap(),
                c["element_kind"].as_str().unwrap(),
                c["element"].as_str().unwrap(),
                c["path"].as_str().unwrap(),
                c["start_line"],
                c["description"].as_str().unwrap(),
                rules.join(" ")
            )
        })
        .collect()
}

fn verdict(doc: &Value) -> (String, Value) {
    (
        doc["verdict"].as_str().unwrap().to_string(),
        doc["conventional_commit"].clone(),
    )
}

#[test]
fn every_class_in_json_with_the_findings_behind_them() {
    let repo = orders_repo();
    // The document as the issue gives it, keys in that order.
    let (_, stdout) = review(&repo, &["--format", "json"]);
    assert!(
        stdout.starts_with(
            "{\n  \"version\": 1,\n  \"verdict\": \"major\",\n  \"conventional_commit\": \"feat!\",\n  \"changes\": [\n    {\n      \"class\": \"patch\",\n      \"kind\": \"changed\",\n      \"element\": \"acme.v1.Order\",\n      \"element_kind\": \"comment\",\n      \"path\": \"acme/v1/order.proto\",\n      \"start_line\": 6,\n      \"description\": \"doc comment changed\",\n      \"rules\": []\n    },"
        ),
        "{stdout}"
    );
    let doc = json(&repo, &[]);
    assert_eq!(
        change_lines(&doc),
        [
            "patch changed comment acme.v1.Order acme/v1/order.proto:6: doc comment changed []",
            "patch changed reservation acme.v1.Order acme/v1/order.proto:7: reserved 4 added []",
            "patch changed reservation acme.v1.Order acme/v1/order.proto:8: reserved name `note` added []",
            "major changed field acme.v1.Order.discount_percent acme/v1/order.proto:10: label `optional` → `(none)` [FIELD_PRESENCE_CHANGED FIELD_SAME_CARDINALITY]",
            "major changed field acme.v1.Order.stock_delta acme/v1/order.proto:11: type `int64` → `sint64` [FIELD_SAME_TYPE FIELD_VARINT_ENCODING_CHANGED]",
            "minor changed option acme.v1.Order.status acme/v1/order.proto:12: option `deprecated` set to `true` []",
            "minor added field acme.v1.Order.tags acme/v1/order.proto:13: new field `tags` = 6 (repeated string) []",
            "minor added enum_value acme.v1.Status.STATUS_CLOSED acme/v1/order.proto:19: new value `STATUS_CLOSED` = 2 []",
            "minor added rpc acme.v1.Orders.List acme/v1/order.proto:24: new rpc `List(acme.v1.Order) returns (acme.v1.Order)` []",
            "major removed field acme.v1.Order.note acme/v1/order.proto:10: field `note` = 4 (string) deleted [FIELD_NO_DELETE]",
            "minor removed field acme.v1beta1.Draft.title acme/v1beta1/draft.proto:7: field `title` = 2 (string) deleted (breaking, allowed: the package is unstable) [FIELD_NO_DELETE]",
        ]
    );
}

#[test]
fn markdown_is_a_pull_request_description() {
    let repo = orders_repo();
    let (code, stdout) = review(&repo, &["--format", "markdown"]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "## Schema review: **major** · suggested commit type `feat!`

3 major, 5 minor, 3 patch changes against `HEAD` (working tree).

### `acme/v1/order.proto`

| Class | Change | Element | Line | Description | Rules |
| --- | --- | --- | ---: | --- | --- |
| patch | changed comment | `acme.v1.Order` | 6 | doc comment changed |  |
| patch | changed reservation | `acme.v1.Order` | 7 | reserved 4 added |  |
| patch | changed reservation | `acme.v1.Order` | 8 | reserved name `note` added |  |
| **major** | changed field | `acme.v1.Order.discount_percent` | 10 | label `optional` → `(none)` | `FIELD_PRESENCE_CHANGED` `FIELD_SAME_CARDINALITY` |
| **major** | changed field | `acme.v1.Order.stock_delta` | 11 | type `int64` → `sint64` | `FIELD_SAME_TYPE` `FIELD_VARINT_ENCODING_CHANGED` |
| minor | changed option | `acme.v1.Order.status` | 12 | option `deprecated` set to `true` |  |
| minor | added field | `acme.v1.Order.tags` | 13 | new field `tags` = 6 (repeated string) |  |
| minor | added enum value | `acme.v1.Status.STATUS_CLOSED` | 19 | new value `STATUS_CLOSED` = 2 |  |
| minor | added rpc | `acme.v1.Orders.List` | 24 | new rpc `List(acme.v1.Order) returns (acme.v1.Order)` |  |
| **major** | removed field | `acme.v1.Order.note` | old line 10 | field `note` = 4 (string) deleted | `FIELD_NO_DELETE` |

### `acme/v1beta1/draft.proto`

> Note: unstable package `acme.v1beta1`: `v1beta1` is an alpha, beta or test version (buf's ignore_unstable_packages; AIP-181/185 let such channels break); breaking changes there count as minor.

| Class | Change | Element | Line | Description | Rules |
| --- | --- | --- | ---: | --- | --- |
| minor | removed field | `acme.v1beta1.Draft.title` | old line 7 | field `title` = 2 (string) deleted (breaking, allowed: the package is unstable) | `FIELD_NO_DELETE` |
"
    );
}

#[test]
fn text_groups_by_file_and_element_with_the_findings() {
    let repo = Repo::new();
    repo.write("acme/v1beta1/draft.proto", DRAFT_V1);
    repo.commit("v1");
    repo.write("acme/v1beta1/draft.proto", DRAFT_V2);
    let (code, stdout) = review(&repo, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        r#"acme/v1beta1/draft.proto
  note: unstable package `acme.v1beta1`: `v1beta1` is an alpha, beta or test version (buf's ignore_unstable_packages; AIP-181/185 let such channels break); breaking changes there count as minor
  acme.v1beta1.Draft.title (field)
    minor removed old line 7: field `title` = 2 (string) deleted (breaking, allowed: the package is unstable)
        ☞ in `HEAD`:
         ╭─[acme/v1beta1/draft.proto @ HEAD:7:3]
       7 │ string title = 2;
         · ────────┬────────
         ·         ╰── removed
         ╰────
          error[FIELD_NO_DELETE] Previously present field "2" with name "title" on message "Draft" was deleted.
            help: restore the field, or if it is really gone reserve its number and name in message
                  `Draft` so they are never reused: `reserved 2; reserved "title";` (old readers would
                  decode a future field that reuses number 2 as `title`)
            note: who breaks: backward (new readers of old data); binary: new readers skip the field as
                  unknown; JSON: new readers reject the unknown name

Verdict minor: 1 minor change against HEAD (working tree), suggested commit type `feat`
"#
    );
}

const SHOP_V1: &str = r#"syntax = "proto2";

package shop.v1;

import "google/protobuf/descriptor.proto";

option java_package = "com.shop.v1";

extend google.protobuf.FieldOptions {
  optional string label = 50001;
}

message Item {
  optional string id = 1 [(label) = "id"];
  oneof price {
    int64 cents = 2;
    string text = 3;
  }
  extensions 100 to 199;
}

extend Item {
  optional int32 weight = 100;
}

message Gone {
  optional int32 x = 1;
}

enum Kind {
  KIND_UNKNOWN = 0;
  KIND_BOOK = 1;
}

enum Old {
  OLD_A = 0;
}

service Shop {
  rpc Buy(Item) returns (Item);
}
"#;

const SHOP_V2: &str = r#"syntax = "proto2";

package shop.v1;

import "google/protobuf/descriptor.proto";
import "shop/v1/extra.proto";

option java_package = "com.shop.api.v1";

extend google.protobuf.FieldOptions {
  optional string label = 50001;
}

message Item {
  optional string id = 1 [(label) = "identifier"];
  oneof price {
    int64 cents = 2;
    string text = 3;
  }
  oneof origin {
    string country = 4;
  }
  extensions 100 to 199;
}

extend Item {
  optional int32 weight = 100;
  optional int32 height = 101;
}

message Fresh {
  optional Extra extra = 1;
}

enum Kind {
  KIND_UNKNOWN = 0;
  KIND_BOOK = 1;
  reserved 2;
}

enum New {
  NEW_A = 0;
}

service Shop {
  rpc Buy(Item) returns (Item);
}

service Admin {
  rpc Reset(Item) returns (Item);
}
"#;

#[test]
fn every_element_kind() {
    let repo = Repo::new();
    repo.write("shop/v1/shop.proto", SHOP_V1);
    repo.write(
        "shop/v1/legacy.proto",
        "syntax = \"proto2\";\npackage shop.v1;\nmessage Legacy {}\n",
    );
    repo.commit("v1");
    repo.remove("shop/v1/legacy.proto");
    repo.write(
        "shop/v1/extra.proto",
        "syntax = \"proto2\";\npackage shop.v1;\nmessage Extra {\n  optional string note = 1;\n}\n",
    );
    repo.write("shop/v1/shop.proto", SHOP_V2);
    let doc = json(&repo, &[]);
    assert_eq!(verdict(&doc), ("major".into(), Value::from("feat!")));
    assert_eq!(
        change_lines(&doc),
        [
            "minor added file shop/v1/extra.proto shop/v1/extra.proto:1: new file (package `shop.v1`) []",
            "minor added message shop.v1.Extra shop/v1/extra.proto:3: new message (1 field) []",
            "major removed file shop/v1/legacy.proto shop/v1/legacy.proto:1: file deleted (package `shop.v1`) [FILE_NO_DELETE]",
            "major removed message shop.v1.Legacy shop/v1/legacy.proto:3: message deleted (0 fields) with its file []",
            "patch changed import shop/v1/shop.proto shop/v1/shop.proto:6: import `shop/v1/extra.proto` added []",
            "major changed option shop/v1/shop.proto shop/v1/shop.proto:8: option `java_package` `\"com.shop.v1\"` → `\"com.shop.api.v1\"` [FILE_SAME_JAVA_PACKAGE]",
            "patch changed option shop.v1.Item.id shop/v1/shop.proto:15: option `(label)` `\"id\"` → `\"identifier\"` []",
            "minor added oneof shop.v1.Item.origin shop/v1/shop.proto:20: new oneof []",
            "minor added field shop.v1.Item.country shop/v1/shop.proto:21: new field `country` = 4 (string) []",
            "minor added extension shop.v1.height shop/v1/shop.proto:28: new extension of `shop.v1.Item` `height` = 101 (optional int32) []",
            "minor added message shop.v1.Fresh shop/v1/shop.proto:31: new message (1 field) []",
            "patch changed reservation shop.v1.Kind shop/v1/shop.proto:38: reserved 2 added []",
            "minor added enum shop.v1.New shop/v1/shop.proto:41: new enum (1 value) []",
            "minor added service shop.v1.Admin shop/v1/shop.proto:49: new service (1 rpc) []",
            "major removed message shop.v1.Gone shop/v1/shop.proto:26: message deleted (1 field) [MESSAGE_NO_DELETE]",
            "major removed enum shop.v1.Old shop/v1/shop.proto:35: enum deleted (1 value) [ENUM_NO_DELETE]",
        ]
    );
}

#[test]
fn the_configured_categories_decide_what_is_major() {
    // Under WIRE a rename breaks nothing on the wire: a compatible change users see (minor).
    let repo = Repo::new();
    repo.write("buf.yaml", "version: v2\nbreaking:\n  use:\n    - WIRE\n");
    repo.write(
        "a/v1/a.proto",
        "syntax = \"proto3\";\npackage a.v1;\nmessage M {\n  int32 count = 1;\n}\n",
    );
    repo.commit("v1");
    repo.write(
        "a/v1/a.proto",
        "syntax = \"proto3\";\npackage a.v1;\nmessage M {\n  int32 total = 1;\n}\n",
    );
    let doc = json(&repo, &[]);
    assert_eq!(
        change_lines(&doc),
        // The default JSON name follows the field's name.
        ["minor renamed field a.v1.M.total a/v1/a.proto:4: name `count` → `total`; json_name `count` → `total` []"]
    );
    assert_eq!(verdict(&doc), ("minor".into(), Value::from("feat")));
}

#[test]
fn major_version_zero_is_unstable() {
    let repo = Repo::new();
    repo.write(
        "a/v0/a.proto",
        "syntax = \"proto3\";\npackage a.v0;\nmessage M {\n  int32 count = 1;\n}\n",
    );
    repo.commit("v1");
    repo.write(
        "a/v0/a.proto",
        "syntax = \"proto3\";\npackage a.v0;\nmessage M {\n  int64 count = 1;\n}\n",
    );
    let (_, stdout) = review(&repo, &["--format", "markdown"]);
    assert!(
        stdout.contains("> Note: unstable package `a.v0`: major version zero (`v0`) may change in any way (SemVer; AIP-185); breaking changes there count as minor."),
        "{stdout}"
    );
    assert_eq!(
        verdict(&json(&repo, &[])),
        ("minor".into(), Value::from("feat"))
    );
}

#[test]
fn a_docs_only_change_is_a_patch_of_type_docs() {
    let repo = Repo::new();
    let v1 = "syntax = \"proto3\";\npackage a.v1;\n// Counts.\nmessage M {\n  // How many.\n  int32 count = 1;\n}\n";
    repo.write("a/v1/a.proto", v1);
    repo.commit("v1");
    repo.write(
        "a/v1/a.proto",
        &v1.replace("How many.", "How many, at most 10."),
    );
    let doc = json(&repo, &[]);
    assert_eq!(
        change_lines(&doc),
        ["patch changed comment a.v1.M.count a/v1/a.proto:6: doc comment changed []"]
    );
    assert_eq!(verdict(&doc), ("patch".into(), Value::from("docs")));
}

#[test]
fn reservations_are_a_fix_and_layout_a_refactor() {
    let repo = Repo::new();
    let v1 = "syntax = \"proto3\";\npackage a.v1;\nmessage M {\n  int32 count = 1;\n}\n";
    repo.write("a/v1/a.proto", v1);
    repo.commit("v1");
    repo.write(
        "a/v1/a.proto",
        &v1.replace("  int32", "  reserved 2;\n  int32"),
    );
    assert_eq!(
        verdict(&json(&repo, &[])),
        ("patch".into(), Value::from("fix"))
    );
    repo.write(
        "a/v1/a.proto",
        &v1.replace("\n  int32 count = 1;\n", " int32 count = 1; "),
    );
    let doc = json(&repo, &[]);
    assert_eq!(
        change_lines(&doc),
        ["patch changed file a/v1/a.proto a/v1/a.proto:1: text changed, no element did (formatting or comments) []"]
    );
    assert_eq!(verdict(&doc), ("patch".into(), Value::from("refactor")));
}

#[test]
fn no_change_is_none_in_every_format() {
    let repo = Repo::new();
    repo.write(
        "a/v1/a.proto",
        "syntax = \"proto3\";\npackage a.v1;\nmessage M {}\n",
    );
    repo.commit("v1");
    let doc = json(&repo, &[]);
    assert_eq!(verdict(&doc), ("none".into(), Value::Null));
    assert_eq!(doc["changes"], Value::Array(vec![]));
    assert_eq!(
        review(&repo, &[]),
        (
            0,
            "Verdict none: no change against HEAD (working tree)\n".into()
        )
    );
    assert_eq!(
        review(&repo, &["--format", "markdown"]),
        (
            0,
            "## Schema review: **none**\n\nNo change against `HEAD` (working tree).\n".into()
        )
    );
}

#[test]
fn exit_codes() {
    let repo = orders_repo();
    assert_eq!(review(&repo, &["--format", "json"]).0, 0);
    assert_eq!(
        review(&repo, &["--format", "json", "--fail-on", "major"]).0,
        1
    );
    assert_eq!(
        review(&repo, &["--format", "json", "--fail-on", "patch"]).0,
        1
    );
    let out = run(repo.path(), &["review", "--against", "no-such-rev"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    // A minor verdict does not fail --fail-on major.
    let minor = Repo::new();
    minor.write(
        "a/v1/a.proto",
        "syntax = \"proto3\";\npackage a.v1;\nmessage M {}\n",
    );
    minor.commit("v1");
    minor.write(
        "a/v1/a.proto",
        "syntax = \"proto3\";\npackage a.v1;\nmessage M {}\nmessage N {}\n",
    );
    assert_eq!(review(&minor, &["--fail-on", "major"]).0, 0);
    assert_eq!(review(&minor, &["--fail-on", "minor"]).0, 1);
}

/// The README's walk-through (testdata/readme): what `check`, `check --direction` and
/// `review` print is pasted there as is.
#[test]
fn readme_walkthrough_is_real_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/readme");
    let stdout = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_protocompat"))
            .args(args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .output()
            .expect("binary runs");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let without_time = |text: &str| {
        let at = text.find(" checked in ").expect("the summary line");
        let end = text[at..].find(" ms.").expect("milliseconds") + at;
        format!("{}{}", &text[..at], &text[end..])
    };
    assert_eq!(
        without_time(&stdout(&["check", "new", "--against", "old"])),
        without_time(&doc_snippet("readme-check"))
    );
    assert_eq!(
        stdout(&["review", "new", "--against", "old"]),
        doc_snippet("readme-review")
    );
    assert_eq!(
        stdout(&["review", "new", "--against", "old", "--format", "markdown"]),
        doc_snippet("readme-review-markdown")
    );
    let json = stdout(&[
        "check",
        "new",
        "--against",
        "old",
        "--direction",
        "backward",
        "--format",
        "json",
    ]);
    let doc: Value = serde_json::from_str(&json).expect("JSON");
    let lines: Vec<String> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            format!(
                "{} {}",
                f["rule"].as_str().unwrap(),
                f["direction"].as_str().unwrap()
            )
        })
        .collect();
    let snippet = doc_snippet("readme-direction");
    let shown: Vec<&str> = snippet.lines().skip(1).collect();
    assert_eq!(lines, shown);
}
