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
    // The base commit is named as git abbreviates it, not by its 40 hex digits.
    let base = run
        .summary
        .split("Compared against `")
        .nth(1)
        .expect("base named");
    let base = base.split('`').next().unwrap();
    assert_eq!(base.len(), 10, "{}", run.summary);
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

/// A head that does not compile: the error is an annotation on its line, and the job
/// summary and the SARIF file say that the check could not be done (before, the summary and
/// the SARIF file were not written and the error was in the log only).
#[test]
fn a_head_that_does_not_compile_is_annotated_summarised_and_fails() {
    let broken = NEW_ORDER.replace("string status", "strin status");
    let run = run_action(&broken, &documented_inputs());
    assert_eq!(run.code, 2);
    assert!(
        run.stdout.contains(
            "::error file=proto/acme/v1/order.proto,line=7,col=3,endLine=7,endColumn=8,title=protocompat%3A COMPILE::cannot resolve type `strin`"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.summary
            .starts_with("## protocompat: the check could not be done"),
        "{}",
        run.summary
    );
    assert!(
        run.summary.contains("`proto/acme/v1/order.proto:7:3`"),
        "{}",
        run.summary
    );
    let sarif = run.sarif.expect("the SARIF file is written");
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
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
        // The missing import is one warning annotation, not only a line in the log.
        let warnings = run.stdout.matches("::warning title=protocompat::").count();
        let expected = usize::from(input == "allow-missing-imports");
        assert_eq!(warnings, expected, "{input}: {}", run.stdout);
    }
}

// ---- the install step: the release binary of the action's version ---------------------------

const TARGETS: [(&str, &str, &str); 5] = [
    ("Linux", "X64", "x86_64-unknown-linux-gnu"),
    ("Linux", "ARM64", "aarch64-unknown-linux-gnu"),
    ("macOS", "X64", "x86_64-apple-darwin"),
    ("macOS", "ARM64", "aarch64-apple-darwin"),
    ("Windows", "X64", "x86_64-pc-windows-msvc"),
];

/// A simulated runner for action/install.sh: the action checked out where the runner keeps
/// it (`_actions/acme/protocompat/REF`, with this crate's Cargo.toml) and a release served
/// from `file://` under the layout of GitHub's release downloads.
struct Install {
    dir: tempfile::TempDir,
    action_path: PathBuf,
    tag: String,
}

struct Installed {
    code: i32,
    stdout: String,
    output: String,
    path: String,
}

impl Install {
    fn new(action_ref: &str) -> Install {
        let dir = tempfile::tempdir().expect("runner");
        let action_path = dir
            .path()
            .join("_actions/acme/protocompat")
            .join(action_ref);
        std::fs::create_dir_all(&action_path).expect("action dir");
        std::fs::copy(
            manifest_dir().join("Cargo.toml"),
            action_path.join("Cargo.toml"),
        )
        .expect("Cargo.toml");
        Install {
            dir,
            action_path,
            tag: format!("v{}", env!("CARGO_PKG_VERSION")),
        }
    }

    fn release_dir(&self) -> PathBuf {
        self.dir
            .path()
            .join("server/acme/protocompat/releases/download")
            .join(&self.tag)
    }

    /// Publishes the Linux x86-64 archive (a stand-in binary printing `released`) and a
    /// SHA256SUMS line for it, `tamper` making the line wrong.
    fn publish(&self, tamper: bool) {
        use sha2::Digest as _;
        let stage = self.dir.path().join("stage");
        std::fs::create_dir_all(&stage).expect("stage");
        std::fs::write(stage.join("protocompat"), "#!/bin/sh\necho released\n").expect("bin");
        let release = self.release_dir();
        std::fs::create_dir_all(&release).expect("release dir");
        let archive = format!("protocompat-{}-x86_64-unknown-linux-gnu.tar.gz", self.tag);
        let tar = Command::new("tar")
            .arg("-czf")
            .arg(release.join(&archive))
            .arg("-C")
            .arg(&stage)
            .arg("protocompat")
            .status()
            .expect("tar runs");
        assert!(tar.success());
        let bytes = std::fs::read(release.join(&archive)).expect("archive");
        let mut digest = format!("{:x}", sha2::Sha256::digest(&bytes));
        if tamper {
            digest = digest.replace(&digest[..1], if &digest[..1] == "0" { "1" } else { "0" });
        }
        std::fs::write(
            release.join("SHA256SUMS"),
            format!(
                "{}  protocompat-{}-other.tar.gz\n{digest}  {archive}\n",
                "0".repeat(64),
                self.tag
            ),
        )
        .expect("sums");
    }

    fn run(&self, env: &[(&str, &str)]) -> Installed {
        let output_path = self.dir.path().join("output");
        let path_file = self.dir.path().join("path");
        let _ = std::fs::remove_file(&output_path);
        let _ = std::fs::remove_file(&path_file);
        let out = Command::new("bash")
            .arg(manifest_dir().join("action/install.sh"))
            .env("GITHUB_ACTION_PATH", &self.action_path)
            .env(
                "GITHUB_SERVER_URL",
                format!("file://{}", self.dir.path().join("server").display()),
            )
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TEMP", self.dir.path().join("temp"))
            .env("GITHUB_OUTPUT", &output_path)
            .env("GITHUB_PATH", &path_file)
            .env_remove("ACTION_REF")
            .env_remove("ACTION_REPOSITORY")
            .envs(env.iter().copied())
            .output()
            .expect("bash runs");
        eprintln!(
            "install.sh stderr:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
        Installed {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            output: read(&output_path),
            path: read(&path_file),
        }
    }
}

#[test]
fn the_release_binary_of_the_actions_version_is_installed_checksum_verified() {
    let install = Install::new(&format!("v{}", env!("CARGO_PKG_VERSION")));
    install.publish(false);
    // The ref and repository read from where the runner keeps the action.
    let run = install.run(&[]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.output, "installed=true\n");
    let bin_dir = PathBuf::from(run.path.trim_end());
    let ran = Command::new(bin_dir.join("protocompat"))
        .output()
        .expect("the installed binary runs");
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "released\n");
    // The same from github.action_ref / action_repository.
    let tag = install.tag.clone();
    let run = install.run(&[
        ("ACTION_REF", &tag),
        ("ACTION_REPOSITORY", "acme/protocompat"),
    ]);
    assert_eq!(run.output, "installed=true\n");
}

#[test]
fn a_release_archive_that_fails_its_checksum_stops_the_step() {
    let install = Install::new(&format!("v{}", env!("CARGO_PKG_VERSION")));
    install.publish(true);
    let run = install.run(&[]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.starts_with("::error title=protocompat::")
            && run.stdout.contains("does not match its checksum"),
        "{}",
        run.stdout
    );
    assert!(run.output.is_empty() && run.path.is_empty());
}

/// No release asset, a ref that is not the version's tag (a branch or a commit may be source
/// no release was built from), or an unknown platform: the action builds from source.
#[test]
fn without_a_matching_release_the_action_builds_from_source() {
    let install = Install::new(&format!("v{}", env!("CARGO_PKG_VERSION")));
    let run = install.run(&[]);
    assert_eq!((run.code, run.output.as_str()), (0, "installed=false\n"));
    assert!(run.stdout.contains("no release asset"), "{}", run.stdout);

    install.publish(false);
    let run = install.run(&[("RUNNER_OS", "FreeBSD")]);
    assert_eq!((run.code, run.output.as_str()), (0, "installed=false\n"));
    let main = Install::new("main");
    let run = main.run(&[]);
    assert_eq!((run.code, run.output.as_str()), (0, "installed=false\n"));
    assert!(
        run.stdout.contains("`main`, not at its version's tag"),
        "{}",
        run.stdout
    );
    assert!(run.path.is_empty());
}

/// The release workflow builds an archive for every platform the install step asks for, under
/// the same name, and publishes SHA256SUMS.
#[test]
fn the_release_workflow_builds_what_the_action_downloads() {
    let workflow: Yaml =
        yaml_serde::from_str(&read(".github/workflows/release.yml")).expect("release.yml is YAML");
    let built: Vec<String> = workflow["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_sequence()
        .expect("matrix")
        .iter()
        .map(|m| text(&m["target"]))
        .collect();
    let install = read("action/install.sh");
    for (os, arch, target) in TARGETS {
        assert!(built.iter().any(|b| b == target), "{target} is not built");
        assert!(
            install.contains(&format!("{os}/{arch}) echo {target} ;;")),
            "install.sh does not map {os}/{arch} to {target}"
        );
    }
    assert_eq!(built.len(), TARGETS.len());
    let release = read(".github/workflows/release.yml");
    assert!(release.contains("archive=\"protocompat-${TAG}-${TARGET}.tar.gz\""));
    assert!(install.contains("archive=\"protocompat-$tag-$target.tar.gz\""));
    assert!(release.contains("sha256sum protocompat-*.tar.gz > SHA256SUMS"));
    assert_eq!(text(&workflow["on"]["push"]["tags"][0]), "v*");
}

/// `email` (2) deleted two commits before the base; the head reuses 2 for `created_at`,
/// which the base no longer has: only `history: true` sees it.
fn reused_number_history() -> (Repo, String, String) {
    let repo = Repo::new();
    let order = |fields: &str| {
        format!("syntax = \"proto3\";\n\npackage acme.v1;\n\nmessage Order {{\n  int64 id = 1;\n{fields}}}\n")
    };
    repo.write("proto/acme/v1/order.proto", &order("  string email = 2;\n"));
    repo.commit("add email");
    repo.write("proto/acme/v1/order.proto", &order("  reserved 2;\n"));
    repo.commit("drop email");
    repo.write("proto/acme/v1/order.proto", &order(""));
    let base = repo.commit("base: drop the reservation");
    repo.write(
        "proto/acme/v1/order.proto",
        &order("  int64 created_at = 2;\n"),
    );
    let head = repo.commit("head: reuse 2");
    (repo, base, head)
}

#[test]
fn history_true_stops_a_number_deleted_before_the_base() {
    let (repo, base, head) = reused_number_history();
    let event = serde_json::json!({ "pull_request": { "base": { "sha": base } } });
    let mut with = documented_inputs();
    with.insert("history".into(), "false".into());
    let run = run_script(&repo, &with, "pull_request", &event, &head);
    assert_eq!(run.code, 0, "{}", run.stdout);
    with.insert("history".into(), "true".into());
    let run = run_script(&repo, &with, "pull_request", &event, &head);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("title=FIELD_NUMBER_REUSED::"),
        "{}",
        run.stdout
    );
}

/// `history: true` on a shallow checkout would audit a stub of the history: an error naming
/// `fetch-depth: 0`, even when the compared revision itself is there.
#[test]
fn history_true_on_a_shallow_checkout_fails_naming_fetch_depth_0() {
    let (origin, _, head) = reused_number_history();
    let clone = Repo::new();
    std::fs::remove_dir_all(clone.path().join(".git")).expect("empty dir");
    let url = format!("file://{}", origin.path().display());
    support::git_in(clone.path(), &["clone", "-q", "--depth", "2", &url, "."]);
    let mut with = documented_inputs();
    with.insert("against".into(), "HEAD~1".into());
    with.insert("history".into(), "true".into());
    let event = serde_json::json!({});
    let run = run_script(&clone, &with, "workflow_dispatch", &event, &head);
    assert_fails_saying(
        &run,
        "shallow history",
        &["`history: true`", "shallow", "`fetch-depth: 0`"],
    );
}
