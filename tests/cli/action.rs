//! The GitHub Action (action.yml + action/run.sh), run locally: the composite action's check
//! step is simulated with a GITHUB_* environment, an event payload and a temporary
//! repository, with the inputs taken from the workflow documented in
//! README.md and the defaults and env mapping from action.yml itself.

use crate::support;
use support::doc_snippet;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use support::Repo;
use yaml_serde::Value as Yaml;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(manifest_dir().join(path)).expect(path)
}

fn action() -> Yaml {
    yaml_serde::from_str(&read("action.yml")).expect("action.yml is YAML")
}

fn steps(action: &Yaml) -> Vec<Yaml> {
    action["runs"]["steps"]
        .as_sequence()
        .expect("runs.steps")
        .clone()
}

fn text(y: &Yaml) -> String {
    match y {
        Yaml::String(s) => s.clone(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

#[test]
fn no_expression_inside_any_run_script() {
    let action = action();
    for step in steps(&action) {
        if let Some(run) = step["run"].as_str() {
            assert!(
                !run.contains("${{"),
                "an expression inside run: is a script injection risk: {run}"
            );
        }
    }
}

#[test]
fn every_input_reaches_the_script_through_env() {
    let action = action();
    let check = steps(&action)
        .into_iter()
        .find(|s| s["id"].as_str() == Some("check"))
        .expect("check step");
    let env: Vec<String> = check["env"]
        .as_mapping()
        .expect("env")
        .values()
        .map(text)
        .collect();
    for name in action["inputs"].as_mapping().expect("inputs").keys() {
        let expr = format!("${{{{ inputs.{} }}}}", text(name));
        assert!(env.contains(&expr), "input {name:?} is not passed via env");
    }
}

#[test]
fn the_documented_workflow_fetches_history_and_uses_real_inputs() {
    let workflow: Yaml = yaml_serde::from_str(&doc_snippet("github-workflow")).expect("YAML");
    let steps = workflow["jobs"]["breaking"]["steps"]
        .as_sequence()
        .expect("steps")
        .clone();
    let checkout = steps
        .iter()
        .find(|s| text(&s["uses"]).starts_with("actions/checkout@"))
        .expect("checkout step");
    assert_eq!(text(&checkout["with"]["fetch-depth"]), "0");
    let ours = documented_inputs();
    let inputs = action()["inputs"].clone();
    for key in ours.keys() {
        assert!(
            inputs.get(key.as_str()).is_some(),
            "the workflow passes unknown input {key}"
        );
    }
    let upload = steps
        .iter()
        .find(|s| text(&s["uses"]).starts_with("github/codeql-action/upload-sarif@"))
        .expect("upload-sarif step");
    assert_eq!(
        text(&upload["with"]["sarif_file"]),
        ours["sarif"],
        "the SARIF upload reads the file the action writes"
    );
}

/// The `with:` of the documented workflow's protocompat step.
fn documented_inputs() -> BTreeMap<String, String> {
    let workflow: Yaml = yaml_serde::from_str(&doc_snippet("github-workflow")).expect("YAML");
    let step = workflow["jobs"]["breaking"]["steps"]
        .as_sequence()
        .expect("steps")
        .iter()
        .find(|s| text(&s["uses"]).contains("/protocompat@"))
        .expect("protocompat step")
        .clone();
    step["with"]
        .as_mapping()
        .expect("with")
        .iter()
        .map(|(k, v)| (text(k), text(v)))
        .collect()
}

/// The check step's environment as the runner would build it: action.yml's `env:` with
/// `${{ inputs.X }}` replaced by the given input or the input's default.
fn step_env(with: &BTreeMap<String, String>) -> Vec<(String, String)> {
    let action = action();
    let check = steps(&action)
        .into_iter()
        .find(|s| s["id"].as_str() == Some("check"))
        .expect("check step");
    check["env"]
        .as_mapping()
        .expect("env")
        .iter()
        .map(|(k, v)| {
            let expr = text(v);
            let input = expr
                .trim_start_matches("${{ inputs.")
                .trim_end_matches(" }}")
                .to_string();
            let value = with
                .get(&input)
                .cloned()
                .unwrap_or_else(|| text(&action["inputs"][input.as_str()]["default"]));
            (text(k), value)
        })
        .collect()
}

const OLD_ORDER: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  int64 id = 1;\n  int32 status = 2;\n  string note = 3;\n}\n";
const NEW_ORDER: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  int64 id = 1;\n  string status = 2;\n}\n";
const CLEAN_ORDER: &str = "syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {\n  int64 id = 1;\n  int32 status = 2;\n  string note = 3;\n  string comment = 4;\n}\n";

struct Run {
    code: i32,
    stdout: String,
    summary: String,
    output: String,
    sarif: Option<Value>,
}

/// A repository whose base commit has OLD_ORDER and whose head has `head`, and the action's
/// script run there as for a pull request event.
fn run_action(head: &str, with: &BTreeMap<String, String>) -> Run {
    let repo = Repo::new();
    repo.write("proto/acme/v1/order.proto", OLD_ORDER);
    repo.write(
        "proto/acme/v1/legacy.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nmessage Legacy {}\n",
    );
    let base = repo.commit("base");
    repo.write("proto/acme/v1/order.proto", head);
    if head != CLEAN_ORDER {
        repo.remove("proto/acme/v1/legacy.proto");
    }
    let head_sha = repo.commit("head");
    let event = serde_json::json!({ "pull_request": { "base": { "sha": base } } });
    run_script(&repo, with, "pull_request", &event, &head_sha)
}

fn run_script(
    repo: &Repo,
    with: &BTreeMap<String, String>,
    event_name: &str,
    event: &Value,
    sha: &str,
) -> Run {
    run_event(repo, with, event_name, Some(event), sha, &[])
}

/// The check step for event `event_name` with `event` as its payload (None: no
/// GITHUB_EVENT_PATH) and `extra` environment variables.
fn run_event(
    repo: &Repo,
    with: &BTreeMap<String, String>,
    event_name: &str,
    event: Option<&Value>,
    sha: &str,
    extra: &[(&str, &str)],
) -> Run {
    let runner = tempfile::tempdir().expect("runner temp");
    let event_path = runner.path().join("event.json");
    if let Some(event) = event {
        std::fs::write(&event_path, event.to_string()).expect("event");
    }
    let summary_path = runner.path().join("summary.md");
    let output_path = runner.path().join("output");
    let mut command = Command::new("bash");
    command
        .arg(manifest_dir().join("action/run.sh"))
        .current_dir(runner.path())
        .envs(step_env(with))
        .env("PROTOCOMPAT", env!("CARGO_BIN_EXE_protocompat"))
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", repo.path())
        .env("GITHUB_EVENT_NAME", event_name)
        .env("GITHUB_STEP_SUMMARY", &summary_path)
        .env("GITHUB_OUTPUT", &output_path)
        .env("GITHUB_SERVER_URL", "https://github.com")
        .env("GITHUB_REPOSITORY", "acme/api")
        .env("GITHUB_SHA", sha)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_BASE_REF")
        .envs(extra.iter().copied());
    match event {
        Some(_) => command.env("GITHUB_EVENT_PATH", &event_path),
        None => command.env_remove("GITHUB_EVENT_PATH"),
    };
    let out = command.output().expect("bash runs");
    let read_opt = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    let sarif = with
        .get("sarif")
        .and_then(|p| std::fs::read_to_string(repo.path().join(p)).ok())
        .map(|text| serde_json::from_str(&text).expect("SARIF is JSON"));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        summary: read_opt(summary_path),
        output: read_opt(output_path),
        sarif,
    }
    .tap_stderr(&out.stderr)
}

impl Run {
    fn tap_stderr(self, stderr: &[u8]) -> Run {
        eprintln!("run.sh stderr:\n{}", String::from_utf8_lossy(stderr));
        eprintln!("run.sh stdout:\n{}", self.stdout);
        self
    }
}

#[test]
fn a_breaking_pull_request_is_annotated_summarised_and_fails() {
    let with = documented_inputs();
    let run = run_action(NEW_ORDER, &with);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains(
            "::error file=proto/acme/v1/order.proto,line=7,col=3,endLine=7,endColumn=9,title=FIELD_SAME_TYPE::"
        ),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("title=FIELD_NO_DELETE::"));
    assert!(run.stdout.contains("::error title=FILE_NO_DELETE::"));
    assert!(
        run.summary
            .starts_with("## protocompat: 3 breaking changes"),
        "{}",
        run.summary
    );
    assert!(run.summary.contains("(https://github.com/acme/api/blob/"));
    assert!(run.output.contains("findings=3\n"), "{}", run.output);
    assert!(
        run.output.contains("sarif=protocompat.sarif\n"),
        "{}",
        run.output
    );
    let sarif = run
        .sarif
        .expect("sarif input is set in the documented workflow");
    assert_sarif_valid(&sarif);
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(3)
    );
}

#[test]
fn a_clean_pull_request_passes_with_a_summary() {
    let run = run_action(CLEAN_ORDER, &documented_inputs());
    assert_eq!(run.code, 0);
    assert!(!run.stdout.contains("::error"), "{}", run.stdout);
    assert!(run
        .summary
        .starts_with("## protocompat: no breaking changes"));
    assert!(run.output.contains("findings=0\n"));
    let sarif = run.sarif.expect("SARIF");
    assert_sarif_valid(&sarif);
}

#[test]
fn fail_on_never_annotates_but_passes_and_summary_false_writes_none() {
    let mut with = documented_inputs();
    with.insert("fail-on".into(), "never".into());
    with.insert("summary".into(), "false".into());
    let run = run_action(NEW_ORDER, &with);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("title=FIELD_SAME_TYPE::"));
    assert!(run.summary.is_empty());
}

#[test]
fn an_unknown_revision_fails_with_exit_2() {
    let mut with = documented_inputs();
    with.insert("against".into(), "no-such-branch".into());
    let run = run_action(NEW_ORDER, &with);
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("::error title=protocompat::"));
}

#[test]
fn a_push_that_creates_the_default_branch_has_nothing_to_compare() {
    let repo = Repo::new();
    repo.write("proto/a.proto", "syntax = \"proto3\";\n");
    let sha = repo.commit("first");
    // The first push of a repository: the default branch itself is created.
    let event = serde_json::json!({
        "before": ZERO,
        "ref": "refs/heads/main",
        "created": true,
        "repository": { "default_branch": "main" },
    });
    let run = run_script(&repo, &documented_inputs(), "push", &event, &sha);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("::notice"));
}

#[test]
fn a_push_compares_with_the_commit_before_it() {
    let repo = Repo::new();
    repo.write("proto/acme/v1/order.proto", OLD_ORDER);
    let before = repo.commit("before");
    repo.write("proto/acme/v1/order.proto", NEW_ORDER);
    let sha = repo.commit("after");
    let event = serde_json::json!({ "before": before });
    let run = run_script(&repo, &documented_inputs(), "push", &event, &sha);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("title=FIELD_SAME_TYPE::"));
}

const ZERO: &str = "0000000000000000000000000000000000000000";

/// A repository whose `main` has a base commit (OLD_ORDER, also `origin/main`, as a full
/// checkout has it) and a breaking head commit on top: (repo, base, head).
fn base_and_breaking_head() -> (Repo, String, String) {
    let repo = Repo::new();
    repo.write("proto/acme/v1/order.proto", OLD_ORDER);
    let base = repo.commit("base");
    repo.git(&["update-ref", "refs/remotes/origin/main", &base]);
    repo.write("proto/acme/v1/order.proto", NEW_ORDER);
    let head = repo.commit("head");
    (repo, base, head)
}

fn assert_breaking_found(run: &Run, what: &str) {
    assert_eq!(run.code, 1, "{what}: {}", run.stdout);
    assert!(
        run.stdout.contains("title=FIELD_SAME_TYPE::"),
        "{what}: {}",
        run.stdout
    );
}

/// The step fails with exit 2 and an error annotation containing each of `parts`.
fn assert_fails_saying(run: &Run, what: &str, parts: &[&str]) {
    assert_eq!(run.code, 2, "{what}: {}", run.stdout);
    let error = run
        .stdout
        .lines()
        .find(|l| l.starts_with("::error title=protocompat::"))
        .unwrap_or_else(|| panic!("{what}: no error annotation:\n{}", run.stdout));
    for part in parts {
        assert!(error.contains(part), "{what}: {error:?} lacks {part:?}");
    }
    assert!(!run.output.contains("findings="), "{what}: {}", run.output);
}

/// A merge queue's group is compared with the base it will land on.
#[test]
fn a_merge_group_compares_with_its_base() {
    let (repo, base, head) = base_and_breaking_head();
    let event = serde_json::json!({ "merge_group": { "base_sha": base, "head_sha": head } });
    let run = run_script(&repo, &documented_inputs(), "merge_group", &event, &head);
    assert_breaking_found(&run, "merge_group");
}

/// Without `pull_request.base.sha` the base branch's name (GITHUB_BASE_REF) is enough.
#[test]
fn a_pull_request_without_a_base_sha_uses_github_base_ref() {
    let (repo, _, head) = base_and_breaking_head();
    let event = serde_json::json!({ "pull_request": { "number": 1 } });
    let with = documented_inputs();
    let run = run_event(
        &repo,
        &with,
        "pull_request",
        Some(&event),
        &head,
        &[("GITHUB_BASE_REF", "main")],
    );
    assert_breaking_found(&run, "GITHUB_BASE_REF");
    let run = run_script(&repo, &with, "pull_request", &event, &head);
    assert_fails_saying(&run, "no base at all", &["base.sha", "`against`"]);
}

/// pull_request_target runs in the base branch's context: with the pull request's head
/// checked out it is compared as a pull request; with the default checkout (the base
/// branch) the step fails instead of comparing the base with itself.
#[test]
fn pull_request_target_needs_the_head_checked_out() {
    let (repo, base, head) = base_and_breaking_head();
    let event = serde_json::json!({
        "pull_request": { "base": { "sha": base }, "head": { "sha": head } }
    });
    let with = documented_inputs();
    let run = run_script(&repo, &with, "pull_request_target", &event, &head);
    assert_breaking_found(&run, "head checked out");

    repo.git(&["checkout", "-q", "--detach", &base]);
    let run = run_script(&repo, &with, "pull_request_target", &event, &base);
    assert_fails_saying(
        &run,
        "base checked out",
        &[&head, "github.event.pull_request.head.sha"],
    );
}

/// A push that creates a branch is compared with the default branch at their merge base.
#[test]
fn a_push_that_creates_a_branch_compares_with_the_default_branch() {
    let (repo, base, _) = base_and_breaking_head();
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.git(&["branch", "-q", "-f", "main", &base]);
    repo.write("proto/acme/v1/extra.proto", "syntax = \"proto3\";\n");
    let sha = repo.commit("feature work");
    let event = serde_json::json!({
        "before": ZERO,
        "ref": "refs/heads/feature",
        "created": true,
        "repository": { "default_branch": "main" },
    });
    let run = run_script(&repo, &documented_inputs(), "push", &event, &sha);
    assert_breaking_found(&run, "new branch");
    assert!(
        run.stdout
            .contains("::notice title=protocompat::This push creates feature: comparing with the default branch (origin/main)"),
        "{}",
        run.stdout
    );
    // Without the default branch in the checkout (fetch-depth: 1 fetches one ref).
    repo.git(&["update-ref", "-d", "refs/remotes/origin/main"]);
    let run = run_script(&repo, &documented_inputs(), "push", &event, &sha);
    assert_fails_saying(&run, "no origin/main", &["origin/main", "`fetch-depth: 0`"]);
}

/// Events that name no base, and a payload that is missing, fail the step with the fix (set
/// `against`); an explicit `against` makes any event work.
#[test]
fn events_without_a_base_fail_unless_against_is_set() {
    let (repo, _, head) = base_and_breaking_head();
    let with = documented_inputs();
    let dispatch = serde_json::json!({ "inputs": {} });
    let run = run_script(&repo, &with, "workflow_dispatch", &dispatch, &head);
    assert_fails_saying(
        &run,
        "workflow_dispatch",
        &["workflow_dispatch", "`against`"],
    );
    let run = run_event(&repo, &with, "pull_request", None, &head, &[]);
    assert_fails_saying(&run, "no payload", &["GITHUB_EVENT_PATH", "`against`"]);
    let push = serde_json::json!({ "ref": "refs/heads/main" });
    let run = run_script(&repo, &with, "push", &push, &head);
    assert_fails_saying(&run, "push without before", &["before", "`against`"]);

    let mut with = with;
    with.insert("against".into(), "HEAD~1".into());
    let run = run_script(&repo, &with, "workflow_dispatch", &dispatch, &head);
    assert_breaking_found(&run, "workflow_dispatch with against");
    let run = run_event(&repo, &with, "schedule", None, &head, &[]);
    assert_breaking_found(&run, "no payload with against");
}

/// The commit before a force push may be gone from the checkout: an error, not a pass.
#[test]
fn a_push_whose_before_commit_is_missing_fails() {
    let (repo, _, head) = base_and_breaking_head();
    let gone = "1234567890123456789012345678901234567890";
    let event = serde_json::json!({ "before": gone });
    let run = run_script(&repo, &documented_inputs(), "push", &event, &head);
    assert_fails_saying(&run, "force push", &[gone, "`against`"]);
}

/// actions/checkout's default fetch-depth: 1 gives a clone without the base: the error names
/// `fetch-depth: 0`, for an event's base and for an explicit `against`.
#[test]
fn a_shallow_checkout_fails_naming_fetch_depth_0() {
    let (origin, base, head) = base_and_breaking_head();
    let clone = Repo::new();
    std::fs::remove_dir_all(clone.path().join(".git")).expect("empty dir");
    let url = format!("file://{}", origin.path().display());
    support::git_in(clone.path(), &["clone", "-q", "--depth", "1", &url, "."]);
    let with = documented_inputs();
    let event = serde_json::json!({ "pull_request": { "base": { "sha": base } } });
    let run = run_script(&clone, &with, "pull_request", &event, &head);
    assert_fails_saying(
        &run,
        "pull_request",
        &[&base, "shallow", "`fetch-depth: 0`"],
    );
    let event = serde_json::json!({ "merge_group": { "base_sha": base } });
    let run = run_script(&clone, &with, "merge_group", &event, &head);
    assert_fails_saying(&run, "merge_group", &[&base, "`fetch-depth: 0`"]);
    let event = serde_json::json!({ "before": base });
    let run = run_script(&clone, &with, "push", &event, &head);
    assert_fails_saying(&run, "push", &[&base, "`fetch-depth: 0`"]);
    let mut with = with;
    with.insert("against".into(), "HEAD~1".into());
    let run = run_script(&clone, &with, "pull_request", &event, &head);
    assert_fails_saying(&run, "against HEAD~1", &["HEAD~1", "`fetch-depth: 0`"]);
}

/// GitHub displays 10 error annotations per step and drops the rest silently: with 25
/// breaking changes the step prints 9 and a tenth saying 16 more (listing them); the job
/// summary and the `findings` output count all 25.
#[test]
fn more_breaking_changes_than_github_displays_are_said_and_summarised() {
    let schema = |ty: &str| {
        let mut text = String::from("syntax = \"proto3\";\npackage acme.v1;\n");
        for i in 1..=25 {
            text.push_str(&format!("message M{i:02} {{\n  {ty} value = 1;\n}}\n"));
        }
        text
    };
    let repo = Repo::new();
    repo.write("proto/acme/v1/many.proto", &schema("int32"));
    let base = repo.commit("base");
    repo.write("proto/acme/v1/many.proto", &schema("string"));
    let head = repo.commit("head");
    let event = serde_json::json!({ "pull_request": { "base": { "sha": base } } });
    let run = run_script(&repo, &documented_inputs(), "pull_request", &event, &head);
    assert_eq!(run.code, 1);
    let errors: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error "))
        .collect();
    assert_eq!(errors.len(), 10, "{}", run.stdout);
    assert!(errors[..9]
        .iter()
        .all(|l| l.contains(",title=FIELD_SAME_TYPE::")));
    let last = errors[9];
    assert!(
        last.starts_with(
            "::error title=protocompat%3A 16 more::16 more errors (16 findings) not shown as annotations"
        ),
        "{last}"
    );
    for i in 10..=25 {
        let listed = format!(
            "%0Aproto/acme/v1/many.proto:{}: FIELD_SAME_TYPE: ",
            4 + (i - 1) * 3
        );
        assert!(last.contains(&listed), "M{i} is not listed: {last}");
    }
    assert!(run.output.contains("findings=25\n"), "{}", run.output);
    assert!(
        run.summary
            .starts_with("## protocompat: 25 breaking changes"),
        "{}",
        run.summary
    );
    for i in 1..=25 {
        assert!(
            run.summary.contains(&format!("\"M{i:02}\"")),
            "M{i:02}: {}",
            run.summary
        );
    }
}

fn assert_sarif_valid(log: &Value) {
    let schema: Value =
        serde_json::from_str(&read("testdata/sarif/sarif-schema-2.1.0.json")).expect("schema");
    let validator = jsonschema::draft4::new(&schema).expect("draft-04 schema");
    let errors: Vec<String> = validator.iter_errors(log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// A pull request whose schema imports a dependency kept outside git (a git-ignored `buf
/// export`): without `include` the import is missing and the step fails with exit 2; with
/// it, the check runs; `allow-missing-imports` also lets it run, with a warning.
#[test]
fn include_roots_and_missing_imports_reach_the_check() {
    let repo = Repo::new();
    let order = |ty: &str| {
        format!(
            "syntax = \"proto3\";\npackage acme.v1;\nimport \"dep/money.proto\";\n\
             message Order {{\n  dep.Money total = 1;\n  {ty} note = 2;\n}}\n"
        )
    };
    repo.write(".gitignore", "deps/\n");
    repo.write(
        "deps/dep/money.proto",
        "syntax = \"proto3\";\npackage dep;\nmessage Money {}\n",
    );
    repo.write("proto/acme/v1/order.proto", &order("string"));
    let base = repo.commit("base");
    repo.write("proto/acme/v1/order.proto", &order("bytes"));
    let head = repo.commit("head");
    let event = serde_json::json!({ "pull_request": { "base": { "sha": base } } });
    let with = BTreeMap::from([("root".to_string(), "proto".to_string())]);
    let run = run_script(&repo, &with, "pull_request", &event, &head);
    assert_eq!(run.code, 2);
    for (input, value) in [
        ("include", "  deps  \n\n"),
        ("allow-missing-imports", "true"),
    ] {
        let mut with = with.clone();
        with.insert(input.into(), value.into());
        let run = run_script(&repo, &with, "pull_request", &event, &head);
        assert_eq!(run.code, 1, "{input}");
        assert!(
            run.stdout.contains("title=FIELD_SAME_TYPE::"),
            "{input}: {}",
            run.stdout
        );
    }
}
