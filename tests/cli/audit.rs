//! The history audit on real git histories built in temporary directories: each test names
//! the commits and asserts the exact findings (rule, element, number or name, severity, and
//! the commits they cite).

use crate::support::{self, Repo};
use protocompat::history::{self, AuditOptions, History, HistoryFinding, Subject};

const P3: &str = "syntax = \"proto3\";\npackage acme.v1;\n\n";

fn options(repo: &Repo) -> AuditOptions {
    AuditOptions {
        root: repo.path().to_path_buf(),
        ..AuditOptions::default()
    }
}

fn build(opts: &AuditOptions) -> History {
    match history::build(opts) {
        Ok(h) => h,
        Err(e) => panic!(
            "audit failed: {}",
            e.diagnostics
                .iter()
                .map(|d| format!("{d:?}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// `RULE element subject severity previous-subjects -> current-subject`, with commits named
/// by their subjects.
fn brief(h: &History, findings: &[HistoryFinding]) -> Vec<String> {
    let subject = |c: u32| h.commit(c).subject.clone();
    findings
        .iter()
        .map(|f| {
            let what = match &f.subject {
                Subject::Number(n) => n.to_string(),
                Subject::Name(n) => format!("\"{n}\""),
                Subject::Reservation(r) => format!("{r:?}"),
            };
            let prev = f.previous.as_ref().map_or(String::new(), |p| {
                format!(
                    " [{} {}: {}..{}]",
                    p.name,
                    p.ty,
                    subject(p.added_in),
                    p.deleted_in.map(subject).unwrap_or_default()
                )
            });
            let cur = f.current.as_ref().map_or(String::new(), |c| {
                format!(" -> [{} {}: {}]", c.name, c.ty, subject(c.added_in))
            });
            format!(
                "{} {} {what} {}{prev}{cur}",
                f.rule,
                f.element,
                f.severity.name()
            )
        })
        .collect()
}

fn audit(repo: &Repo) -> Vec<String> {
    let h = build(&options(repo));
    brief(&h, &h.findings())
}

#[test]
fn a_number_deleted_and_reused_commits_later_is_found() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\n"),
    );
    repo.commit("add user");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n}}\n"),
    );
    repo.commit("drop email");
    repo.write(
        "b.proto",
        &format!("{P3}message Other {{\n  string x = 1;\n}}\n"),
    );
    repo.commit("unrelated");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  int64 created_at = 2;\n}}\n"),
    );
    repo.commit("add created_at");
    assert_eq!(
        audit(&repo),
        [
            "FIELD_NUMBER_REUSED acme.v1.User 2 error [email string: add user..drop email] -> [created_at int64: add created_at]"
        ]
    );
}

#[test]
fn a_rename_in_place_is_not_reuse_and_a_reserved_deletion_is_quiet() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\n"),
    );
    repo.commit("add user");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  int64 mail = 2;\n}}\n"),
    );
    repo.commit("rename in place");
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  reserved 2;\n  reserved \"mail\";\n  string id = 1;\n}}\n"
        ),
    );
    repo.commit("delete and reserve");
    assert_eq!(audit(&repo), Vec::<String>::new());
}

#[test]
fn reuse_is_followed_across_a_file_rename_and_a_move_to_another_file() {
    let repo = Repo::new();
    repo.write(
        "v1/a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\n"),
    );
    repo.commit("add user");
    repo.git(&["mv", "v1/a.proto", "v1/user.proto"]);
    repo.commit("rename file");
    repo.write(
        "v1/user.proto",
        &format!("{P3}message User {{\n  string id = 1;\n}}\n"),
    );
    repo.commit("drop email");
    repo.remove("v1/user.proto");
    repo.write(
        "v1/all.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  bytes avatar = 2;\n}}\n"),
    );
    repo.commit("move user into all.proto, add avatar");
    let h = build(&options(&repo));
    let findings = h.findings();
    assert_eq!(
        brief(&h, &findings),
        [
            "FIELD_NUMBER_REUSED acme.v1.User 2 error [email string: add user..drop email] -> [avatar bytes: move user into all.proto, add avatar]"
        ]
    );
    let f = &findings[0];
    assert_eq!(&*f.at.path, "v1/all.proto");
    assert_eq!(&*f.previous.as_ref().unwrap().at.path, "v1/user.proto");
}

#[test]
fn reuse_in_a_nested_message_and_in_an_enum() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message Order {{\n  message Item {{\n    string sku = 1;\n    int32 qty = 2;\n  }}\n  Item item = 1;\n}}\nenum State {{\n  STATE_UNSPECIFIED = 0;\n  STATE_OPEN = 1;\n}}\n"),
    );
    repo.commit("one");
    repo.write(
        "a.proto",
        &format!("{P3}message Order {{\n  message Item {{\n    string sku = 1;\n  }}\n  Item item = 1;\n}}\nenum State {{\n  STATE_UNSPECIFIED = 0;\n}}\n"),
    );
    repo.commit("two");
    repo.write(
        "a.proto",
        &format!("{P3}message Order {{\n  message Item {{\n    string sku = 1;\n    string note = 2;\n  }}\n  Item item = 1;\n}}\nenum State {{\n  STATE_UNSPECIFIED = 0;\n  STATE_CLOSED = 1;\n}}\n"),
    );
    repo.commit("three");
    assert_eq!(
        audit(&repo),
        [
            "FIELD_NUMBER_REUSED acme.v1.Order.Item 2 error [qty int32: one..two] -> [note string: three]",
            "ENUM_VALUE_NUMBER_REUSED acme.v1.State 1 error [STATE_OPEN : one..two] -> [STATE_CLOSED : three]",
        ]
    );
}

#[test]
fn reuse_of_an_extension_number() {
    let repo = Repo::new();
    let base =
        "syntax = \"proto2\";\npackage acme.v1;\nmessage Options {\n  extensions 100 to 199;\n}\n";
    repo.write("opts.proto", base);
    repo.write("ext.proto", "syntax = \"proto2\";\npackage acme.v1;\nimport \"opts.proto\";\nextend Options {\n  optional string owner = 100;\n}\n");
    repo.commit("owner");
    repo.remove("ext.proto");
    repo.commit("drop owner");
    repo.write("ext2.proto", "syntax = \"proto2\";\npackage acme.v1;\nimport \"opts.proto\";\nextend Options {\n  optional int32 priority = 100;\n}\n");
    repo.commit("priority");
    assert_eq!(
        audit(&repo),
        [
            "EXTENSION_NUMBER_REUSED acme.v1.Options 100 error [acme.v1.owner string: owner..drop owner] -> [acme.v1.priority int32: priority]"
        ]
    );
}

#[test]
fn a_name_reused_with_another_number() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string nickname = 2;\n}}\n"),
    );
    repo.commit("one");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  reserved 2;\n  string id = 1;\n}}\n"),
    );
    repo.commit("two");
    repo.write("a.proto", &format!("{P3}message User {{\n  reserved 2;\n  string id = 1;\n  repeated string nickname = 3;\n}}\n"));
    repo.commit("three");
    assert_eq!(
        audit(&repo),
        [
            "FIELD_NAME_REUSED acme.v1.User \"nickname\" error [nickname string: one..two] -> [nickname string: three]"
        ]
    );
}

/// A name that leaves its number by a rename in place and comes back on another number by a
/// rename in place: both sides of the finding are that name, with its own type, commits and
/// lines (not the first or last name its numbers had). Found in the public histories (e.g.
/// opentelemetry-proto's `Metric.gauge`, kvproto's `CmdGetRequest.key`).
fn renamed_name_history() -> Repo {
    let repo = Repo::new();
    let user = |fields: &str| format!("{P3}message User {{\n  string id = 1;\n{fields}}}\n");
    for (fields, subject) in [
        ("  string nick = 2;\n", "one"),
        ("  string nickname = 2;\n", "two"),
        ("  string handle = 2;\n", "three"),
        ("  string handle = 2;\n  int64 alias = 3;\n", "four"),
        ("  string handle = 2;\n\n  int64 nickname = 3;\n", "five"),
        ("  string handle = 2;\n\n\n  int64 nick_name = 3;\n", "six"),
    ] {
        repo.write("a.proto", &user(fields));
        repo.commit(subject);
    }
    repo
}

#[test]
fn a_name_reused_through_renames_in_place_shows_that_name_on_both_sides() {
    let repo = renamed_name_history();
    let found = audit(&repo);
    let reuses: Vec<&String> = found.iter().filter(|f| f.contains("_REUSED")).collect();
    assert_eq!(
        reuses,
        ["FIELD_NAME_REUSED acme.v1.User \"nickname\" error [nickname string: two..three] -> [nickname int64: five]"]
    );
    let out = support::run(repo.path(), &["audit", "--format", "json", "--no-cache"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let reuse = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["rule"] == "FIELD_NAME_REUSED")
        .expect("the name reuse");
    // `nickname = 2` is line 6 at "two"; `nickname = 3` is line 8 at "five" (HEAD has
    // `nick_name` on line 9: not the name reused).
    let line = |side: &serde_json::Value| (side["name"].clone(), side["start_line"].clone());
    assert_eq!(line(&reuse["previous"]), ("nickname".into(), 6.into()));
    assert_eq!(line(&reuse["current"]), ("nickname".into(), 8.into()));
    assert_eq!(reuse["previous"]["added_in"]["subject"], "two");
    assert_eq!(reuse["start_line"], 8);
    let text = support::run(repo.path(), &["audit", "--no-cache", "--color", "never"]);
    let text = String::from_utf8_lossy(&text.stdout);
    let at = |rev: &str| {
        let sha = repo.git(&["rev-parse", "--short=10", rev]);
        let date = repo.git(&["log", "-1", "--format=%ad", "--date=short", rev]);
        format!("a.proto @ {} ({})", sha.trim(), date.trim())
    };
    for label in [
        format!("{}:6:3", at("HEAD~4")),
        format!("{}:8:3", at("HEAD~1")),
    ] {
        assert!(text.contains(&label), "no `{label}` in:\n{text}");
    }
}

#[test]
fn a_dropped_reservation_and_an_unreserved_deletion() {
    let repo = Repo::new();
    repo.write("a.proto", &format!("{P3}message Account {{\n  reserved 2, 5 to 7;\n  string id = 1;\n  string owner = 3;\n}}\n"));
    repo.commit("one");
    // Splitting a range is no removal; dropping 2 and 6 is.
    repo.write("a.proto", &format!("{P3}message Account {{\n  reserved 5;\n  reserved 7;\n  string id = 1;\n  string owner = 3;\n}}\n"));
    repo.commit("two");
    repo.write(
        "a.proto",
        &format!("{P3}message Account {{\n  reserved 5;\n  reserved 7;\n  string id = 1;\n}}\n"),
    );
    repo.commit("three");
    assert_eq!(
        audit(&repo),
        [
            "FIELD_DELETED_NOT_RESERVED acme.v1.Account 3 warning [owner string: one..three]",
            "RESERVED_DROPPED acme.v1.Account Numbers(2, 2) error [number 2 : one..two]",
            "RESERVED_DROPPED acme.v1.Account Numbers(6, 6) error [number 6 : one..two]",
        ]
    );
}

#[test]
fn a_message_deleted_and_recreated_makes_reuse_a_warning() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\n"),
    );
    repo.commit("one");
    repo.remove("a.proto");
    repo.write(
        "b.proto",
        &format!("{P3}message Keep {{\n  string x = 1;\n}}\n"),
    );
    repo.commit("package deleted");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  int32 age = 2;\n}}\n"),
    );
    repo.commit("recreated");
    assert_eq!(
        audit(&repo),
        [
            "FIELD_NUMBER_REUSED acme.v1.User 2 warning [email string: one..package deleted] -> [age int32: recreated]"
        ]
    );
}

/// Builds: main c1 (email) - c2 - merge(branch) where the branch deleted `email` and
/// added `phone` under its number.
fn merged_history() -> Repo {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\n"),
    );
    repo.commit("c1");
    repo.git(&["checkout", "-q", "-b", "topic"]);
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n}}\n"),
    );
    repo.commit("b1 drop email");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  int64 phone = 2;\n}}\n"),
    );
    repo.commit("b2 add phone");
    repo.git(&["checkout", "-q", "main"]);
    repo.write(
        "other.proto",
        &format!("{P3}message Other {{\n  string x = 1;\n}}\n"),
    );
    repo.commit("c2");
    repo.git(&["merge", "-q", "--no-ff", "-m", "merge topic", "topic"]);
    repo
}

#[test]
fn a_merge_commit_first_parent_and_all_parents() {
    let repo = merged_history();
    // First parent: email becomes phone in the merge commit, a change in place.
    assert_eq!(audit(&repo), Vec::<String>::new());
    let mut opts = options(&repo);
    opts.all_parents = true;
    let h = build(&opts);
    assert_eq!(
        brief(&h, &h.findings()),
        [
            "FIELD_NUMBER_REUSED acme.v1.User 2 error [email string: c1..b1 drop email] -> [phone int64: b2 add phone]"
        ]
    );
}

#[test]
fn a_blob_that_does_not_parse_mid_history_is_carried_over_and_counted() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\n"),
    );
    repo.commit("one");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = ;\n}}\n"),
    );
    repo.commit("broken");
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n  string email = 2;\n  int32 n = 3;\n}}\n"
        ),
    );
    repo.commit("fixed");
    let h = build(&options(&repo));
    assert_eq!(brief(&h, &h.findings()), Vec::<String>::new());
    assert_eq!(h.unreadable.len(), 1);
    assert_eq!(h.commit(h.unreadable[0].commit).subject, "broken");
    assert_eq!(h.unreadable[0].path, "a.proto");
    assert_eq!(h.warnings.len(), 1);
    assert!(
        format!("{}", h.warnings[0]).contains("a.proto @ "),
        "{}",
        h.warnings[0]
    );

    let mut strict = options(&repo);
    strict.strict = true;
    let err = history::build(&strict).err().expect("--strict fails");
    assert_eq!(err.diagnostics.len(), 1);
    assert!(err.diagnostics[0].to_string().contains("cannot be read"));
}

#[test]
fn a_shallow_clone_is_refused_unless_allowed() {
    let repo = Repo::new();
    for i in 0..3 {
        repo.write(
            "a.proto",
            &format!("{P3}message M {{\n  string f{i} = 1;\n}}\n"),
        );
        repo.commit(&format!("c{i}"));
    }
    let clone = support::tempdir();
    let url = format!("file://{}", repo.path().display());
    support::git_in(clone.path(), &["clone", "-q", "--depth", "1", &url, "c"]);
    let dir = clone.path().join("c");
    let opts = AuditOptions {
        root: dir.clone(),
        ..AuditOptions::default()
    };
    let err = history::build(&opts).err().expect("shallow is refused");
    let text = format!("{:?}", err.diagnostics[0]);
    assert!(text.contains("shallow clone"), "{text}");
    assert!(
        text.contains("git fetch --unshallow") && text.contains("fetch-depth: 0"),
        "{text}"
    );
    let allowed = AuditOptions {
        allow_shallow: true,
        ..opts
    };
    let h = build(&allowed);
    assert_eq!(h.stats.commits_walked, 1);
    assert!(h.warnings[0]
        .to_string()
        .contains("shallow clone: the audit starts at commit"));
}

#[test]
fn the_cache_serves_a_second_run() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\n"),
    );
    repo.commit("one");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n}}\n"),
    );
    repo.commit("two");
    let mut opts = options(&repo);
    opts.cache = true;
    let cold = build(&opts);
    assert_eq!((cold.stats.blobs_parsed, cold.stats.blobs_cached), (2, 0));
    let warm = build(&opts);
    assert_eq!((warm.stats.blobs_parsed, warm.stats.blobs_cached), (0, 2));
    assert_eq!(
        brief(&warm, &warm.findings()),
        brief(&cold, &cold.findings())
    );
    // A damaged cache is rebuilt, not trusted. (The finished walk is stored on its own and
    // would serve the same revision without the summaries: remove it to reach them.)
    let file = repo.path().join(".git/protocompat/summaries.bin");
    std::fs::write(&file, b"garbage").unwrap();
    std::fs::remove_file(repo.path().join(".git/protocompat/ledger.bin")).unwrap();
    let rebuilt = build(&opts);
    assert_eq!(rebuilt.stats.blobs_parsed, 2);
}

/// Each history rule's doc example, committed block by block, makes the audit report it.
#[test]
fn every_history_doc_example_triggers_its_rule() {
    let mut failures = Vec::new();
    for id in history::rules::HISTORY_RULES {
        let rule = protocompat::rules::find(id).expect("registered");
        assert!(rule.categories.contains(&"HISTORY"), "{id}");
        let commits = commit_blocks(rule.doc);
        if commits.len() < 2 {
            failures.push(format!("{id}: fewer than two commits in its example"));
            continue;
        }
        let repo = Repo::new();
        for (i, text) in commits.iter().enumerate() {
            repo.write("example.proto", text);
            repo.commit(&format!("commit {}", i + 1));
        }
        let h = build(&options(&repo));
        let rules: Vec<&str> = h.findings().iter().map(|f| f.rule).collect();
        if !rules.contains(id) {
            failures.push(format!("{id}: got {rules:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn commit_blocks(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    for i in 1.. {
        let heading = format!("### Commit {i}\n");
        let Some(at) = doc.find(&heading) else { break };
        let rest = &doc[at + heading.len()..];
        let start = rest.find("```proto\n").expect("a proto block") + "```proto\n".len();
        let len = rest[start..].find("```").expect("closed");
        out.push(rest[start..start + len].to_string());
    }
    out
}

/// A history where `email` (2) was deleted and its number reused by `created_at`.
fn reused_history() -> Repo {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n  string email = 2;\n  string phone = 3;\n}}\n"
        ),
    );
    repo.commit("add user");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n}}\n"),
    );
    repo.commit("drop email and phone");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  int64 created_at = 2;\n}}\n"),
    );
    repo.commit("add created_at");
    repo
}

#[test]
fn audit_json_carries_the_history_of_each_finding_and_exits_1() {
    let repo = reused_history();
    let out = support::run(repo.path(), &["audit", "--format", "json", "--no-cache"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let findings = doc["findings"].as_array().expect("findings");
    let rules: Vec<&str> = findings
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["FIELD_DELETED_NOT_RESERVED", "FIELD_NUMBER_REUSED"]);
    let reuse = &findings[1];
    assert_eq!(reuse["element"], "acme.v1.User");
    assert_eq!(reuse["number"], 2);
    assert_eq!(reuse["severity"], "error");
    assert_eq!(
        (reuse["path"].as_str(), reuse["start_line"].as_u64()),
        (Some("a.proto"), Some(6))
    );
    let previous = &reuse["previous"];
    assert_eq!(
        (previous["name"].as_str(), previous["type"].as_str()),
        (Some("email"), Some("string"))
    );
    assert_eq!(previous["start_line"], 6);
    assert_eq!(previous["added_in"]["subject"], "add user");
    assert_eq!(previous["deleted_in"]["subject"], "drop email and phone");
    assert_eq!(previous["deleted_in"]["author"], "Test");
    assert_eq!(
        previous["deleted_in"]["commit"].as_str().map(str::len),
        Some(40)
    );
    let current = &reuse["current"];
    assert_eq!(
        (current["name"].as_str(), current["type"].as_str()),
        (Some("created_at"), Some("int64"))
    );
    assert_eq!(current["added_in"]["subject"], "add created_at");
    assert_eq!(doc["summary"]["errors"], 1);
    assert_eq!(doc["summary"]["warnings"], 1);
}

/// A reuse repaired later (the new field renumbered, the old number reserved, as
/// temporalio/api did for `PollWorkflowTaskQueueRequest.worker_heartbeat` in v1.62.1) is
/// still reported, since data was written in between, but as a use that ended: the message
/// says from when until when, the JSON `current` has `deleted_in`, the text names both commits.
#[test]
fn a_reuse_repaired_later_says_when_it_ended() {
    let repo = reused_history();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  reserved 2, 3;\n  reserved \"email\", \"phone\";\n  string id = 1;\n  int64 created_at = 4;\n}}\n"),
    );
    repo.commit("repair");
    let out = support::run(repo.path(), &["audit", "--format", "json", "--no-cache"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let findings = doc["findings"].as_array().expect("findings");
    let reuse = findings
        .iter()
        .find(|f| f["rule"] == "FIELD_NUMBER_REUSED")
        .expect("the reuse");
    let cite = |rev: &str| {
        let sha = repo.git(&["rev-parse", "--short=10", rev]);
        let date = repo.git(&["log", "-1", "--format=%ad", "--date=short", rev]);
        format!("{} ({})", sha.trim(), date.trim())
    };
    let said = format!(
        "was used again by \"created_at\" (int64) from {} until {};",
        cite("HEAD~1"),
        cite("HEAD")
    );
    let message = reuse["message"].as_str().unwrap_or_default();
    assert!(message.contains(&said), "{message}");
    assert_eq!(reuse["current"]["added_in"]["subject"], "add created_at");
    assert_eq!(reuse["current"]["deleted_in"]["subject"], "repair");
    let help = format!(
        "\"created_at\" left number 2 at {}: make sure no data written with it from {} until \
         then is still read by readers of \"email\", nor the other way round",
        cite("HEAD"),
        cite("HEAD~1")
    );
    assert_eq!(reuse["help"], help.as_str());
    assert_eq!(reuse["severity"], "error");
    let text = support::run(repo.path(), &["audit", "--no-cache", "--color", "never"]);
    let text = String::from_utf8_lossy(&text.stdout);
    let trailer = format!(
        "    reused {} by Test: add created_at\n   deleted {} by Test: repair\n",
        cite("HEAD~1"),
        cite("HEAD")
    );
    assert!(text.contains(&trailer), "no `{trailer}` in:\n{text}");
}

#[test]
fn audit_text_labels_the_old_snippet_with_its_commit() {
    let repo = reused_history();
    let out = support::run(repo.path(), &["audit", "--no-cache"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let deleted = repo.git(&["rev-parse", "--short=10", "HEAD~2"]);
    let date = repo.git(&["log", "-1", "--format=%ad", "--date=short", "HEAD~2"]);
    let label = format!("a.proto @ {} ({}):6:3", deleted.trim(), date.trim());
    assert!(text.contains(&label), "no `{label}` in:\n{text}");
    assert!(text.contains("a.proto @ HEAD:6:3"), "{text}");
    assert!(text.contains("by Test: drop email and phone"), "{text}");
    assert!(
        text.contains("2 findings (1 error, 1 warning) in the history of 3 commits"),
        "{text}"
    );
}

#[test]
fn log_shows_every_number_name_and_type_with_its_commits() {
    let repo = reused_history();
    let out = support::run(
        repo.path(),
        &["log", "acme.v1.User", "--format", "json", "--no-cache"],
    );
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows: Vec<String> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} {} {} +{} -{}",
                e["number"],
                e["name"].as_str().unwrap(),
                e["type"].as_str().unwrap(),
                e["added_in"]["subject"].as_str().unwrap(),
                e["deleted_in"]["subject"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "1 id string +add user -",
            "2 email string +add user -drop email and phone",
            "2 created_at int64 +add created_at -",
            "3 phone string +add user -drop email and phone",
        ]
    );
    let table = support::run(repo.path(), &["log", "acme.v1.User", "--no-cache"]);
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.starts_with("message acme.v1.User\nNUMBER  NAME"),
        "{table}"
    );
    let missing = support::run(repo.path(), &["log", "acme.v1.Nope", "--no-cache"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn check_history_stops_a_number_deleted_long_ago() {
    let repo = reused_history();
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n  int64 created_at = 2;\n  bool vip = 3;\n}}\n"
        ),
    );
    let (code, findings, _) = support::check_json(repo.path(), &["--against", "HEAD"]);
    // The new `bool vip = 3` is a FIELD_IMPLICIT_ZERO hint (info); no buf rule fires.
    let breaking = findings
        .iter()
        .filter(|f| !support::is_hazard(&f.rule))
        .count();
    assert_eq!((code, breaking), (0, 0));
    let (code, findings, doc) =
        support::check_json(repo.path(), &["--against", "HEAD", "--history"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        support::brief(&findings),
        ["FIELD_NUMBER_REUSED a.proto:7:3-7:16"]
    );
}

/// The message names the new side as `check`'s own messages do ("the staged changes", not
/// the source's label `index`).
#[test]
fn check_history_names_the_new_side_in_words() {
    let repo = reused_history();
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n  int64 created_at = 2;\n  bool vip = 3;\n}}\n"
        ),
    );
    let message = |args: &[&str]| {
        let (code, _, doc) = support::check_json(repo.path(), args);
        assert_eq!(code, 1, "{doc}");
        let reused = doc["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .find(|f| f["rule"] == "FIELD_NUMBER_REUSED")
            .unwrap_or_else(|| panic!("no FIELD_NUMBER_REUSED: {doc}"));
        reused["message"].as_str().expect("message").to_string()
    };
    let worktree = message(&["--against", "HEAD", "--history"]);
    assert!(worktree.contains("since the working tree;"), "{worktree}");
    repo.git(&["add", "a.proto"]);
    let staged = message(&["--staged", "--against", "HEAD", "--history"]);
    assert!(staged.contains("since the staged changes;"), "{staged}");
    assert!(!staged.contains("`index`"), "{staged}");
}

/// The same history in each `DIR/x.proto` (package `acme.DIR`): fields 2 and 3 deleted
/// unreserved, then 2 reused; one commit per step for all the directories.
fn reuse_in(repo: &Repo, dirs: &[&str]) {
    let file = |dir: &str, body: &str| {
        let pkg = dir.replace('/', ".");
        format!("syntax = \"proto3\";\npackage acme.{pkg};\n\nmessage M {{\n{body}}}\n")
    };
    for (subject, body) in [
        (
            "add",
            "  string id = 1;\n  string email = 2;\n  string phone = 3;\n",
        ),
        ("drop", "  string id = 1;\n"),
        ("reuse", "  string id = 1;\n  int64 created_at = 2;\n"),
    ] {
        for dir in dirs {
            repo.write(&format!("{dir}/x.proto"), &file(dir, body));
        }
        repo.commit(subject);
    }
}

/// `(rule, path)` of each finding of `protocompat audit --format json ARGS` and the exit code.
fn audit_json(cwd: &std::path::Path, args: &[&str]) -> (i32, Vec<String>) {
    let mut all = vec!["audit", "--format", "json", "--no-cache"];
    all.extend_from_slice(args);
    let out = support::run(cwd, &all);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let found = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            format!(
                "{} {}",
                f["rule"].as_str().unwrap(),
                f["path"].as_str().unwrap()
            )
        })
        .collect();
    (out.status.code().unwrap_or(-1), found)
}

#[test]
fn audit_reads_the_buf_yaml_at_root_excludes_except_and_ignores() {
    let repo = Repo::new();
    repo.write(
        "buf.yaml",
        "version: v1\nbuild:\n  excludes: [gen]\nbreaking:\n  except: [FIELD_DELETED_NOT_RESERVED]\n  ignore: [vendor]\n  ignore_only:\n    FIELD_NUMBER_REUSED: [legacy]\n",
    );
    reuse_in(&repo, &["api", "gen", "vendor", "legacy"]);
    let (code, found) = audit_json(repo.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(found, ["FIELD_NUMBER_REUSED api/x.proto"]);
    // --path and --exclude-path narrow it further.
    let (code, found) = audit_json(repo.path(), &["--exclude-path", "api"]);
    assert_eq!((code, found), (0, Vec::<String>::new()));
}

#[test]
fn audit_config_flag_replaces_the_configuration_at_root() {
    let repo = Repo::new();
    repo.write("buf.yaml", "version: v1\nbreaking:\n  except: [HISTORY]\n");
    reuse_in(&repo, &["api"]);
    // HISTORY excepted at ROOT: nothing runs.
    assert_eq!(audit_json(repo.path(), &[]), (0, Vec::new()));
    let dir = support::tempdir();
    let toml = dir.path().join("protocompat.toml");
    std::fs::write(&toml, "[breaking]\nexcept = [\"FIELD_NUMBER_REUSED\"]\n").unwrap();
    let (code, found) = audit_json(repo.path(), &["--config", toml.to_str().unwrap()]);
    assert_eq!(
        (code, found),
        (
            0,
            vec!["FIELD_DELETED_NOT_RESERVED api/x.proto".to_string()]
        )
    );
    // An unknown id is the configuration error `check` gives, exit 2.
    std::fs::write(&toml, "[breaking]\nexcept = [\"NOT_A_RULE\"]\n").unwrap();
    let out = support::run(
        repo.path(),
        &["audit", "--no-cache", "--config", toml.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("NOT_A_RULE"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn audit_checks_include_roots_and_reads_a_bare_repository() {
    let repo = Repo::new();
    reuse_in(&repo, &["api"]);
    let out = support::run(repo.path(), &["audit", "--no-cache", "-I", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("nowhere @ HEAD: include root does not exist"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // An include root the revision has changes no finding.
    assert_eq!(
        audit_json(repo.path(), &["-I", "api"]).1,
        [
            "FIELD_DELETED_NOT_RESERVED api/x.proto",
            "FIELD_NUMBER_REUSED api/x.proto"
        ]
    );
    let bare = support::tempdir();
    let bare_dir = bare.path().join("repo.git");
    support::git_in(
        bare.path(),
        &[
            "clone",
            "--bare",
            "-q",
            repo.path().to_str().unwrap(),
            "repo.git",
        ],
    );
    let (code, found) = audit_json(
        bare.path(),
        &["--git-dir", bare_dir.to_str().unwrap(), "api"],
    );
    assert_eq!(
        (code, found),
        (
            1,
            // Paths name ROOT as given, as in `check`'s JSON.
            vec![
                "FIELD_DELETED_NOT_RESERVED api/x.proto".to_string(),
                "FIELD_NUMBER_REUSED api/x.proto".to_string()
            ]
        )
    );
}

/// A message and an enum that lost members without reserving them: field 2 reused since,
/// field 3 (`phone`) and value 2 (`BLUE`) open.
fn unreserved_history() -> Repo {
    let repo = Repo::new();
    let text = |fields: &str, values: &str| {
        format!("{P3}message User {{\n  string id = 1;\n{fields}}}\n\nenum Color {{\n  COLOR_UNSPECIFIED = 0;\n  RED = 1;\n{values}}}\n")
    };
    repo.write(
        "a.proto",
        &text(
            "  string email = 2;\n  string phone = 3;\n",
            "  BLUE = 2;\n",
        ),
    );
    repo.commit("add");
    repo.write("a.proto", &text("", ""));
    repo.commit("drop");
    repo.write("a.proto", &text("  int64 created_at = 2;\n", ""));
    repo.commit("reuse 2");
    repo
}

#[test]
fn audit_fix_reserves_every_open_deletion_once() {
    let repo = unreserved_history();
    let before = std::fs::read_to_string(repo.path().join("a.proto")).unwrap();
    let dry = support::run(repo.path(), &["audit", "--no-cache", "--fix", "--dry-run"]);
    let diff = String::from_utf8_lossy(&dry.stdout);
    assert!(diff.contains("+++ b/a.proto"), "{diff}");
    assert_eq!(
        std::fs::read_to_string(repo.path().join("a.proto")).unwrap(),
        before
    );
    let out = support::run(repo.path(), &["audit", "--no-cache", "--fix"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The reuse of 2 is an error no reservation mends.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("fixed: a.proto"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(repo.path().join("a.proto")).unwrap(),
        format!("{P3}message User {{\n  reserved 3;\n  reserved \"phone\";\n  string id = 1;\n  int64 created_at = 2;\n}}\n\nenum Color {{\n  reserved 2;\n  reserved \"BLUE\";\n  COLOR_UNSPECIFIED = 0;\n  RED = 1;\n}}\n")
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("By rule: FIELD_NUMBER_REUSED 1."),
        "{report}"
    );
    // Idempotent: a second run finds everything reserved.
    let fixed = std::fs::read_to_string(repo.path().join("a.proto")).unwrap();
    let again = support::run(repo.path(), &["audit", "--no-cache", "--fix"]);
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("audit --fix: nothing to reserve."),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(repo.path().join("a.proto")).unwrap(),
        fixed
    );
    // Once committed, the history has nothing open.
    repo.commit("reserve");
    let (code, found) = audit_json(repo.path(), &[]);
    assert_eq!(
        (code, found),
        (1, vec!["FIELD_NUMBER_REUSED a.proto".to_string()])
    );
}

#[test]
fn audit_fix_refuses_what_check_fix_refuses() {
    let repo = unreserved_history();
    let out = support::run(
        repo.path(),
        &["audit", "--no-cache", "--fix", "--rev", "HEAD~1"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("drop --rev to fix the working tree"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bare = support::tempdir();
    support::git_in(
        bare.path(),
        &[
            "clone",
            "--bare",
            "-q",
            repo.path().to_str().unwrap(),
            "repo.git",
        ],
    );
    let git_dir = bare.path().join("repo.git");
    let out = support::run(
        bare.path(),
        &[
            "audit",
            "--no-cache",
            "--fix",
            "--git-dir",
            git_dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is bare"));
    // A working tree that does not build is never edited.
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1\n}}\n"),
    );
    let out = support::run(repo.path(), &["audit", "--no-cache", "--fix"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--fix refused, nothing was changed"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(repo.path().join("a.proto")).unwrap(),
        format!("{P3}message User {{\n  string id = 1\n}}\n")
    );
}

/// Builds one repository per directory of a `testdata/history/<CASE>/` case: each of its
/// numbered subdirectories is one commit's tree, oldest first.
fn repos_of_case(case: &str) -> (tempfile::TempDir, Vec<String>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/history")
        .join(case);
    let top = support::tempdir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names {
        let repo = top.path().join(name);
        std::fs::create_dir(&repo).unwrap();
        support::git_in(&repo, &["init", "-q"]);
        let mut commits: Vec<u32> = std::fs::read_dir(dir.join(name))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
            .collect();
        commits.sort();
        for c in commits {
            let tree = dir.join(name).join(c.to_string());
            support::git_in(&repo, &["rm", "-rq", "--ignore-unmatch", "."]);
            for file in std::fs::read_dir(&tree).unwrap().filter_map(Result::ok) {
                std::fs::copy(file.path(), repo.join(file.file_name())).unwrap();
            }
            support::git_in(&repo, &["add", "-A"]);
            support::git_in(
                &repo,
                &[
                    "-c",
                    "user.name=Test",
                    "-c",
                    "user.email=t@example.com",
                    "commit",
                    "-qm",
                    &format!("commit {c}"),
                ],
            );
        }
    }
    (top, names)
}

/// `RULE root path:line number` of each finding of `audit ARGS --format json` run in `cwd`.
fn audit_roots(cwd: &std::path::Path, args: &[&str]) -> (i32, Vec<String>, serde_json::Value) {
    let mut all = vec!["audit", "--format", "json", "--no-cache"];
    all.extend_from_slice(args);
    let out = support::run(cwd, &all);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let found = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {}:{} {}",
                f["rule"].as_str().unwrap(),
                f["root"].as_str().unwrap_or("-"),
                f["path"].as_str().unwrap(),
                f["start_line"],
                f["number"]
            )
        })
        .collect();
    (out.status.code().unwrap_or(-1), found, doc)
}

#[test]
fn two_repositories_with_a_conflicting_copy() {
    let (top, names) = repos_of_case("FIELD_NUMBER_CONFLICT");
    assert_eq!(names, ["a", "b"]);
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testdata/history/FIELD_NUMBER_CONFLICT/expected.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let lines = |key: &str| -> Vec<String> {
        expected[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let (code, found, doc) = audit_roots(top.path(), &["a", "b"]);
    assert_eq!((code, found), (1, lines("default")));
    let conflict = &doc["findings"][1];
    assert_eq!(conflict["previous"]["root"], "a");
    assert_eq!(conflict["previous"]["name"], "email");
    assert_eq!(conflict["current"]["name"], "created_at");
    assert_eq!(conflict["current"]["added_in"]["subject"], "commit 1");
    let (code, found, _) = audit_roots(top.path(), &["a", "b", "--all"]);
    assert_eq!((code, found), (1, lines("all")));
    // One ROOT alone has nothing to conflict with.
    let (_, found, _) = audit_roots(top.path(), &["b"]);
    assert_eq!(found, Vec::<String>::new());
    // The text report cites each side's repository.
    let out = support::run(top.path(), &["audit", "--no-cache", "a", "b"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("b/x.proto @ HEAD:6:3"), "{text}");
    assert!(text.contains("a/x.proto @ HEAD:6:3"), "{text}");
    assert!(text.contains("added in a "), "{text}");
    assert!(text.contains("in the histories of 2 roots:"), "{text}");
}

#[test]
fn the_conflict_doc_example_triggers_its_rule() {
    let rule = protocompat::rules::find("FIELD_NUMBER_CONFLICT").expect("registered");
    assert!(rule.categories.contains(&"HISTORY"));
    let top = support::tempdir();
    let mut roots = Vec::new();
    for i in 1..=2 {
        let heading = format!("### Repository {i}\n");
        let at = rule.doc.find(&heading).expect("two repository blocks");
        let rest = &rule.doc[at + heading.len()..];
        let start = rest.find("```proto\n").expect("a proto block") + "```proto\n".len();
        let len = rest[start..].find("```").expect("closed");
        let dir = top.path().join(format!("r{i}"));
        std::fs::create_dir(&dir).unwrap();
        support::git_in(&dir, &["init", "-q"]);
        std::fs::write(dir.join("x.proto"), &rest[start..start + len]).unwrap();
        support::git_in(&dir, &["add", "-A"]);
        support::git_in(
            &dir,
            &[
                "-c",
                "user.name=T",
                "-c",
                "user.email=t@example.com",
                "commit",
                "-qm",
                "copy",
            ],
        );
        roots.push(format!("r{i}"));
    }
    let (code, found, _) = audit_roots(top.path(), &[&roots[0], &roots[1]]);
    assert_eq!(
        (code, found),
        (
            1,
            vec!["FIELD_NUMBER_CONFLICT r2 r2/x.proto:6 2".to_string()]
        )
    );
}

/// Tags v1 and v2 and a working tree that breaks both (status retyped) and only v2
/// (`comment`, added in v2, deleted).
fn tagged_history() -> Repo {
    let repo = Repo::new();
    let order = |fields: &str| format!("{P3}message Order {{\n  int64 id = 1;\n{fields}}}\n");
    repo.write("a.proto", &order("  int32 status = 2;\n"));
    repo.commit("v1");
    repo.git(&["tag", "v1"]);
    repo.write(
        "a.proto",
        &order("  int32 status = 2;\n  string comment = 3;\n"),
    );
    repo.commit("v2");
    repo.git(&["tag", "v2"]);
    repo.git(&["tag", "other"]);
    repo.write(
        "a.proto",
        &order("  string status = 2;\n  reserved 3;\n  reserved \"comment\";\n"),
    );
    repo
}

#[test]
fn check_transitive_reports_each_finding_once_with_the_oldest_revision_it_breaks() {
    let repo = tagged_history();
    let out = support::run(
        repo.path(),
        &["check", "--transitive", "--tags", "v*", "--format", "json"],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let found: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !support::is_hazard(f["rule"].as_str().unwrap()))
        .map(|f| {
            format!(
                "{} {}",
                f["rule"].as_str().unwrap(),
                f["against"].as_str().unwrap()
            )
        })
        .collect();
    // The retype breaks v1 and v2 alike: reported once, against v1.
    assert_eq!(found, ["FIELD_SAME_TYPE v1", "FIELD_NO_DELETE v2"]);
    assert_eq!(doc["against"], serde_json::json!(["v1", "v2"]));
    // --since: every commit that touched ROOT from v1 on, the same verdicts.
    let out = support::run(
        repo.path(),
        &["check", "--transitive", "--since", "v1", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let short = |rev: &str| {
        repo.git(&["rev-parse", "--short=10", rev])
            .trim()
            .to_string()
    };
    assert_eq!(
        doc["against"],
        serde_json::json!([short("v1"), short("v2")])
    );
    // Nothing to compare with is an error, never a pass.
    let out = support::run(
        repo.path(),
        &["check", "--transitive", "--tags", "release-*"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no tag matches `release-*`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = support::run(repo.path(), &["check", "--transitive", "--tags", "v*"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("--transitive: against `v1`"), "{text}");
    assert!(
        text.contains("each reported with the oldest revision it breaks"),
        "{text}"
    );
}

/// A second run of the same revision reads the finished ledger; a new commit, or a damaged
/// ledger file, makes it walk again, with the same findings as without any cache.
#[test]
fn the_ledger_cache_serves_the_same_revision_only() {
    let repo = reused_history();
    let mut opts = options(&repo);
    opts.cache = true;
    let uncached = brief(&build(&options(&repo)), &build(&options(&repo)).findings());
    let cold = build(&opts);
    assert!(!cold.stats.ledger_cached);
    let warm = build(&opts);
    assert!(warm.stats.ledger_cached);
    assert_eq!(warm.stats.commits_walked, 3);
    assert_eq!(brief(&warm, &warm.findings()), uncached);
    let file = repo.path().join(".git/protocompat/ledger.bin");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let rebuilt = build(&opts);
    assert!(!rebuilt.stats.ledger_cached);
    assert_eq!(brief(&rebuilt, &rebuilt.findings()), uncached);
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n  int64 created_at = 2;\n  bool vip = 3;\n}}\n"
        ),
    );
    repo.commit("add vip");
    let moved = build(&opts);
    assert!(!moved.stats.ledger_cached);
    assert_eq!(moved.stats.commits_walked, 4);
    assert_eq!(
        brief(&moved, &moved.findings()),
        brief(&build(&options(&repo)), &build(&options(&repo)).findings())
    );
}

/// Every finding in full (places, blobs, spans, commits), with the commits it cites.
fn exact(h: &History) -> Vec<String> {
    let findings = h.findings();
    let mut out = brief(h, &findings);
    out.extend(findings.iter().map(|f| format!("{f:?}")));
    out.extend(h.commits.iter().map(|c| format!("{} {}", c.oid, c.subject)));
    out
}

/// A new commit on top of a cached walk reads only that commit and extends the stored
/// ledger, which then equals a walk from scratch in every detail.
#[test]
fn a_new_commit_extends_the_cached_ledger() {
    let repo = reused_history();
    // The cached tip changes another file only, so the stored ledger's places for `User`
    // were moved to that tip when the walk was finished: extending must undo that.
    repo.write(
        "b.proto",
        &format!("{P3}message Order {{\n  string id = 1;\n}}\n"),
    );
    repo.commit("add order");
    let mut opts = options(&repo);
    opts.cache = true;
    let cold = build(&opts);
    assert!(!cold.stats.ledger_cached && !cold.stats.ledger_extended);
    assert_eq!(cold.stats.commits_read, 4);
    // A commit that leaves the schema alone, then one that reuses 3 and deletes 2.
    repo.write("README.md", "docs\n");
    repo.commit("docs");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  bool vip = 3;\n}}\n"),
    );
    repo.commit("add vip, drop created_at");
    let extended = build(&opts);
    assert!(extended.stats.ledger_extended && !extended.stats.ledger_cached);
    assert_eq!(extended.stats.commits_read, 2);
    assert_eq!(extended.stats.commits_walked, 6);
    let scratch = build(&options(&repo));
    assert_eq!(exact(&extended), exact(&scratch));
    assert_eq!(
        brief(&extended, &extended.findings()),
        [
            "FIELD_DELETED_NOT_RESERVED acme.v1.User 2 warning [created_at int64: add created_at..add vip, drop created_at]",
            "FIELD_NUMBER_REUSED acme.v1.User 2 error [email string: add user..drop email and phone] -> [created_at int64: add created_at]",
            "FIELD_NUMBER_REUSED acme.v1.User 3 error [phone string: add user..drop email and phone] -> [vip bool: add vip, drop created_at]",
        ]
    );
    // The extended walk is stored in turn: the same revision again walks nothing.
    let warm = build(&opts);
    assert!(warm.stats.ledger_cached);
    assert_eq!(warm.stats.commits_read, 0);
    assert_eq!(exact(&warm), exact(&scratch));
}

/// A rewritten history (the cached tip is no longer an ancestor: a force push, an amend) is
/// walked again from scratch, and so is a damaged ledger file.
#[test]
fn a_rewritten_history_or_a_damaged_ledger_is_walked_again() {
    let repo = reused_history();
    let mut opts = options(&repo);
    opts.cache = true;
    build(&opts);
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  bool vip = 2;\n}}\n"),
    );
    repo.commit("add vip instead");
    let rewritten = build(&opts);
    assert!(!rewritten.stats.ledger_cached && !rewritten.stats.ledger_extended);
    assert_eq!(rewritten.stats.commits_read, 3);
    assert_eq!(exact(&rewritten), exact(&build(&options(&repo))));
    assert!(brief(&rewritten, &rewritten.findings())
        .iter()
        .all(|f| !f.contains("created_at")));

    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n}}\n"),
    );
    repo.commit("drop vip");
    let file = repo.path().join(".git/protocompat/ledger.bin");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let rebuilt = build(&opts);
    assert!(!rebuilt.stats.ledger_cached && !rebuilt.stats.ledger_extended);
    assert_eq!(rebuilt.stats.commits_read, 4);
    assert_eq!(exact(&rebuilt), exact(&build(&options(&repo))));
}

/// A number reused in a message that was itself gone in between (deleted, then recreated)
/// is a warning in the audit; `check --history` reports it with that severity, not its
/// rule's, in every format.
#[test]
fn check_history_keeps_each_findings_own_severity() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\nmessage Keep {{}}\n"
        ),
    );
    repo.commit("add user");
    repo.write("a.proto", &format!("{P3}message Keep {{}}\n"));
    repo.commit("drop user");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  bool vip = 2;\n}}\nmessage Keep {{}}\n"),
    );
    let (code, _, doc) = support::check_json(repo.path(), &["--against", "HEAD", "--history"]);
    let reused: Vec<&serde_json::Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "FIELD_NUMBER_REUSED")
        .collect();
    assert_eq!(reused.len(), 1, "{doc}");
    assert_eq!(reused[0]["severity"], "warning");
    // A warning does not fail the default `--fail-on error`.
    assert_eq!(code, 0, "{doc}");
    let out = support::run(
        repo.path(),
        &[
            "check",
            "--against",
            "HEAD",
            "--history",
            "--format",
            "sarif",
        ],
    );
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    let result = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "FIELD_NUMBER_REUSED")
        .cloned()
        .expect("FIELD_NUMBER_REUSED result");
    assert_eq!(result["level"], "warning");
}

/// `git commit` with an author date, so that `--since DATE` leaves commits out.
fn commit_dated(repo: &Repo, message: &str, date: &str) {
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--date", date, "-m", message]);
}

/// A cached walk under `--since DATE` whose tip was authored before the date (a rebased or
/// backdated commit: the walk leaves it out), extended with a new commit, equals a walk
/// from scratch in every finding: the extension diffs from the last commit the ledger
/// applied, not from the stored tip.
#[test]
fn a_cached_walk_since_a_date_extended_with_new_commits_equals_a_cold_one() {
    let repo = Repo::new();
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\n"),
    );
    commit_dated(&repo, "add user", "2021-01-01T00:00:00Z");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n}}\n"),
    );
    commit_dated(&repo, "drop email (backdated)", "2019-06-01T00:00:00Z");
    let mut opts = options(&repo);
    opts.since = Some("2020-01-01".to_string());
    opts.cache = true;
    let cached = build(&opts);
    assert_eq!(cached.stats.commits_read, 1);
    assert!(cached.findings().is_empty());
    repo.write(
        "b.proto",
        &format!("{P3}message Order {{\n  string id = 1;\n}}\n"),
    );
    commit_dated(&repo, "add order", "2021-02-01T00:00:00Z");
    repo.write(
        "a.proto",
        &format!("{P3}message User {{\n  string id = 1;\n  bool vip = 3;\n}}\n"),
    );
    commit_dated(&repo, "add vip", "2021-03-01T00:00:00Z");
    let extended = build(&opts);
    assert!(extended.stats.ledger_extended && !extended.stats.ledger_cached);
    assert_eq!(extended.stats.commits_read, 2);
    let mut cold_opts = opts.clone();
    cold_opts.cache = false;
    let cold = build(&cold_opts);
    assert_eq!(exact(&extended), exact(&cold));
    assert_eq!(
        brief(&extended, &extended.findings()),
        ["FIELD_DELETED_NOT_RESERVED acme.v1.User 2 warning [email string: add user..add order]"]
    );
}

/// `check --history` from a stored walk reads only the part of `ledger.bin` the new side
/// touches; its findings equal those of the run that walked the history and stored it:
/// a field number reused, an extension number reused (the extendee declared in another
/// file), a reservation dropped, beside a deleted file and files left alone.
#[test]
fn check_history_from_the_stored_walk_equals_the_walk() {
    let repo = Repo::new();
    let p2 = "syntax = \"proto2\";\npackage acme.v1;\n\n";
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n  string email = 2;\n}}\nenum Color {{\n  RED = 0;\n  reserved 2;\n}}\n"
        ),
    );
    repo.write(
        "b.proto",
        &format!("{P3}message Order {{\n  string id = 1;\n}}\n"),
    );
    repo.write(
        "base.proto",
        &format!("{p2}message Base {{\n  extensions 100 to 200;\n}}\n"),
    );
    let ext =
        |field: &str| format!("{p2}import \"base.proto\";\n\nextend Base {{\n  {field}\n}}\n");
    repo.write("c.proto", &ext("optional int32 e = 100;"));
    repo.write(
        "d.proto",
        &format!("{P3}message Left {{\n  string id = 1;\n}}\n"),
    );
    repo.commit("one");
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n}}\nenum Color {{\n  RED = 0;\n  reserved 2;\n}}\n"
        ),
    );
    repo.write("c.proto", &ext("optional int32 other = 101;"));
    repo.commit("drop email and e");
    repo.write(
        "a.proto",
        &format!(
            "{P3}message User {{\n  string id = 1;\n  bool flag = 2;\n}}\nenum Color {{\n  RED = 0;\n}}\n"
        ),
    );
    repo.write(
        "c.proto",
        &ext("optional int32 other = 101;\n  optional string f = 100;"),
    );
    repo.remove("b.proto");
    let ledger = repo.path().join(".git/protocompat/ledger.bin");
    let args = ["--against", "HEAD", "--history"];
    let (code, walked, first) = support::check_json(repo.path(), &args);
    assert_eq!(code, 1, "{first}");
    let stored = std::fs::read(&ledger).expect("the walk is stored");
    let (code, read, second) = support::check_json(repo.path(), &args);
    assert_eq!(code, 1, "{second}");
    assert_eq!(std::fs::read(&ledger).expect("still stored"), stored);
    assert_eq!(first["findings"], second["findings"]);
    assert_eq!(support::brief(&walked), support::brief(&read));
    let history: Vec<String> = support::brief(&read)
        .into_iter()
        .filter(|f| f.contains("REUSED") || f.contains("RESERVED_DROPPED"))
        .collect();
    assert_eq!(
        history,
        [
            "EXTENSION_NUMBER_REUSED c.proto:8:3-8:27",
            "FIELD_NUMBER_REUSED a.proto:6:3-6:17",
            "RESERVED_DROPPED a.proto:8:6-8:11",
        ]
    );
}

/// `check --transitive` checks through one `engine::Loader`: a blob shared by every
/// revision (here `shared.proto`, the same at v1, v2, v3 and HEAD) is read and parsed once,
/// and the findings against each revision are those of a check of its own.
#[test]
fn checks_against_many_revisions_read_a_shared_blob_once() {
    let repo = Repo::new();
    repo.write(
        "shared.proto",
        &format!("{P3}message Shared {{\n  string id = 1;\n}}\n"),
    );
    for (tag, ty) in [
        ("v1", "int32"),
        ("v2", "int64"),
        ("v3", "uint64"),
        ("", "string"),
    ] {
        repo.write("a.proto", &format!("{P3}message A {{\n  {ty} n = 1;\n}}\n"));
        repo.commit(if tag.is_empty() { "head" } else { tag });
        if !tag.is_empty() {
            repo.git(&["tag", tag]);
        }
    }
    let options = |against: &str| protocompat::CheckOptions {
        root: repo.path().to_path_buf(),
        new_side: protocompat::NewSide::Rev("HEAD".to_string()),
        against: against.to_string(),
        ..protocompat::CheckOptions::default()
    };
    let findings = |o: &protocompat::Outcome| -> Vec<String> {
        o.findings.iter().map(|f| format!("{f:?}")).collect()
    };
    let loader = protocompat::engine::Loader::new();
    for tag in ["v1", "v2", "v3"] {
        let shared = protocompat::check_with(&options(tag), &loader).expect("check");
        let alone = protocompat::check(&options(tag)).expect("check");
        assert_eq!(findings(&shared), findings(&alone), "against {tag}");
        assert!(
            shared.findings.iter().any(|f| f.rule == "FIELD_SAME_TYPE"),
            "against {tag}: {:?}",
            findings(&shared)
        );
    }
    // Five distinct blobs (shared.proto, a.proto at v1, v2, v3 and HEAD), each read once;
    // the other seven files of the six loads came from the cache.
    let stats = loader.stats();
    assert_eq!((stats.misses, stats.hits), (5, 7));
}
