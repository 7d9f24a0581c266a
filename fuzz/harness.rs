//! The fuzz harnesses, one function per target. The cargo-fuzz targets in `fuzz_targets/`
//! call them, and the test `fuzz_regressions` (`tests/cli/hostile.rs`) replays every input kept
//! under `testdata/fuzz-regressions/<target>/` through the same functions in a normal
//! `cargo test`.
//!
//! Each harness drives the library the way the CLI does and checks what must always hold:
//! no panic, and every span it reports lies inside its file on character boundaries (a span
//! that does not would make the diagnostic renderer panic or point at the wrong text).

// Each fuzz target uses one harness; the test uses them all.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Arc;

use protocompat::config::Config;
use protocompat::diff::Diff;
use protocompat::finding::{Edit, Finding, Location};
use protocompat::link::{self, ImportResolver, SourceFile};
use protocompat::model::{Schema, Span};
use protocompat::{engine, parse, passes, report, rules, source};

/// Inputs larger than this are skipped: libFuzzer's default cap is 4 KiB and the large-input
/// behaviour is covered by the hostile tests; this keeps a replayed input from timing out.
const MAX_INPUT: usize = 1 << 20;

/// Diagnostics rendered per input: rendering is slow and the first ones cover the code path.
const RENDERED: usize = 4;

/// Target `parse`: arbitrary bytes through the source layer's UTF-8 decoding, the lexer and
/// the parser; every error is a valid span and renders.
pub fn parse_bytes(data: &[u8]) {
    if data.len() > MAX_INPUT {
        return;
    }
    let Ok(text) = source::decode(data, "fuzz", "input.proto") else {
        return;
    };
    let parsed = parse::parse(&text);
    for (span, message) in &parsed.errors {
        assert_span(&text, *span, message);
    }
    for (span, message) in parsed.errors.iter().take(RENDERED) {
        let diagnostic = parse::diagnostic(
            "input.proto",
            &text,
            *span,
            message.clone(),
            parse::label_for(message),
        );
        render(&miette::Report::new(diagnostic));
    }
}

/// Target `model`: the input split into several files (see [`split`]); the compared files
/// and an include root go through the model builder, and every diagnostic renders.
pub fn build_files(data: &[u8]) {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let sections = split(&text);
    let (compared, includes) = side(&sections, Side::New);
    if let Some(schema) = build(compared, &includes) {
        assert_schema_spans(&schema);
    }
}

/// Target `compare`: the input split into an old and a new set of files; when both build,
/// every rule runs over the pair, the findings render in every format, and the `--fix`
/// edits apply cleanly and leave files that still parse.
pub fn compare_schemas(data: &[u8]) {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let sections = split(&text);
    let (old_files, old_includes) = side(&sections, Side::Old);
    let (new_files, new_includes) = side(&sections, Side::New);
    let (Some(old), Some(new)) = (
        build(old_files, &old_includes),
        build(new_files, &new_includes),
    ) else {
        return;
    };
    let all: Vec<&'static rules::RuleMeta> = rules::RULES.iter().collect();
    let diff = Diff::new(&old, &new);
    let mut findings = engine::run_rules(&diff, &all);
    for finding in &findings {
        assert_finding(finding, &old, &new);
    }
    check_fix(&diff, &mut findings);
    let groups = passes::group::assign(&mut findings, &diff);
    let texts = |schema: &Schema| -> HashMap<String, source::SourceText> {
        schema
            .files
            .iter()
            .map(|(path, file)| (path.clone(), source::SourceText::new(file.text.clone())))
            .collect()
    };
    let sources = report::Sources {
        old_label: "old".into(),
        new_label: "new".into(),
        old_is_dir: true,
        old: texts(&old),
        new: texts(&new),
        ..Default::default()
    };
    for version in ["v1beta1", "v1", "v2"] {
        let mut ctx = report::Context::new(version);
        ctx.sources = Some(&sources);
        ctx.groups = &groups;
        for format in FORMATS {
            let rendered = report::render(format, &findings, &ctx);
            if format == report::Format::Json {
                let parsed: Result<serde_json::Value, _> = serde_json::from_str(&rendered);
                assert!(parsed.is_ok(), "JSON report does not parse: {rendered}");
            }
        }
    }
}

/// What `--fix` would write: each file's edits apply (no overlap, inside the file, on
/// character boundaries) and the fixed text parses without a syntax error.
fn check_fix(diff: &Diff, findings: &mut [Finding]) {
    passes::fix::attach_edits(diff, findings, &str::to_string);
    let new = diff.new;
    let mut by_path: HashMap<&str, Vec<&Edit>> = HashMap::new();
    for edit in findings.iter().flat_map(|f| f.edits.iter()) {
        by_path.entry(edit.path.as_str()).or_default().push(edit);
    }
    for (path, edits) in by_path {
        let file = new.files.get(path).expect("edits name a compared file");
        let fixed = passes::fix::apply_edits(&file.text, &edits)
            .unwrap_or_else(|why| panic!("--fix edits do not apply to {path}: {why}"));
        let errors = parse::parse(&fixed).errors;
        assert!(
            errors.is_empty(),
            "--fix leaves {path} unparsable: {errors:?}\n{fixed}"
        );
    }
}

/// Every report format (the renderers must not panic on any finding).
const FORMATS: [report::Format; 9] = [
    report::Format::Text,
    report::Format::Short,
    report::Format::Json,
    report::Format::Github,
    report::Format::Sarif,
    report::Format::Junit,
    report::Format::Gitlab,
    report::Format::Msvs,
    report::Format::Markdown,
];

/// Target `config`: the input read as a `buf.work.yaml`, a `buf.yaml` and a
/// `protocompat.toml`; whatever loads must also resolve its rule selection (or refuse it with
/// a diagnostic).
pub fn load_config(data: &[u8]) {
    if data.len() > MAX_INPUT {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = protocompat::config::parse_workspace(text, "buf.work.yaml") {
        render(&e);
    }
    for loaded in [
        Config::from_buf_yaml(text, "buf.yaml"),
        Config::from_toml(text, "protocompat.toml"),
    ] {
        match loaded {
            Ok(config) => {
                if let Err(e) = config.select() {
                    render(&e);
                }
            }
            Err(e) => render(&e),
        }
    }
}

// ---- input format ----------------------------------------------------------------------

/// Which side of a comparison a section belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    Old,
    New,
}

/// One file of a multi-file input.
#[derive(Debug)]
pub struct Section {
    /// `None`: both sides.
    pub side: Option<Side>,
    /// Found only through imports (an include root), not compared.
    pub include: bool,
    pub path: String,
    pub text: String,
}

/// Splits a multi-file input. A line `//@ [old|new] [inc] PATH` starts a file; text before
/// the first such line is `a.proto` on both sides. The seed corpora are written in this form
/// by `scripts/fuzz.sh`.
pub fn split(text: &str) -> Vec<Section> {
    let mut sections = vec![Section {
        side: None,
        include: false,
        path: "a.proto".into(),
        text: String::new(),
    }];
    for line in text.split_inclusive('\n') {
        match line.strip_prefix("//@ ") {
            Some(header) => sections.push(header_section(header.trim_end())),
            None => {
                if let Some(last) = sections.last_mut() {
                    last.text.push_str(line);
                }
            }
        }
    }
    sections
}

fn header_section(header: &str) -> Section {
    let mut section = Section {
        side: None,
        include: false,
        path: String::new(),
        text: String::new(),
    };
    for word in header.split(' ') {
        match word {
            "old" => section.side = Some(Side::Old),
            "new" => section.side = Some(Side::New),
            "inc" => section.include = true,
            path => section.path = path.to_string(),
        }
    }
    section
}

/// The compared files and the include files of one side (the first file of a path wins,
/// as a tree holds one file per path).
fn side(sections: &[Section], which: Side) -> (Vec<SourceFile>, HashMap<String, SourceFile>) {
    let mut compared: Vec<SourceFile> = Vec::new();
    let mut includes = HashMap::new();
    for s in sections {
        if s.side.is_some_and(|side| side != which) || s.path.is_empty() {
            continue;
        }
        let file = SourceFile {
            path: s.path.clone(),
            display_name: format!("{} @ fuzz", s.path),
            text: Arc::from(s.text.as_str()),
        };
        if s.include {
            includes.entry(s.path.clone()).or_insert(file);
        } else if !compared.iter().any(|f| f.path == s.path) && !s.text.is_empty() {
            compared.push(file);
        }
    }
    (compared, includes)
}

struct MapResolver<'a>(&'a HashMap<String, SourceFile>);

impl ImportResolver for MapResolver<'_> {
    fn open(&self, import_path: &str) -> Result<Option<SourceFile>, miette::Report> {
        Ok(self.0.get(import_path).cloned())
    }
}

/// Builds one side; renders its diagnostics (a few) when it does not build.
fn build(files: Vec<SourceFile>, includes: &HashMap<String, SourceFile>) -> Option<Schema> {
    let texts: HashMap<String, Arc<str>> = files
        .iter()
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();
    match link::build_schema(files, &MapResolver(includes)) {
        Ok(out) => {
            for warning in out.unresolved_imports.into_iter().take(RENDERED) {
                render(&miette::Report::new(warning));
            }
            for path in out.schema.files.keys() {
                assert!(
                    texts.contains_key(path),
                    "schema holds a file not compared: {path}"
                );
            }
            Some(out.schema)
        }
        Err(error) => {
            assert!(!error.diagnostics.is_empty(), "a failed build must say why");
            for diagnostic in error.diagnostics.iter().take(RENDERED) {
                render(diagnostic);
            }
            None
        }
    }
}

// ---- invariants ------------------------------------------------------------------------

fn render(report: &miette::Report) {
    let mut out = String::new();
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::none()).with_width(200);
    // A formatting error is not a crash; a panic inside the renderer is.
    let _ = handler.render_report(&mut out, report.as_ref());
}

fn assert_span(text: &str, span: Span, what: &str) {
    let (start, end) = (span.start as usize, span.end as usize);
    assert!(
        start <= end && end <= text.len(),
        "span {start}..{end} outside the text ({} bytes): {what}",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "span {start}..{end} cuts a character: {what}"
    );
}

/// Every span the model keeps must point into its file: findings are reported from them.
fn assert_schema_spans(schema: &Schema) {
    for file in schema.files.values() {
        let text = &file.text;
        for message in file.all_messages() {
            assert_span(text, message.span, &message.full_name);
            for field in &message.fields {
                assert_span(text, field.span, &field.name);
            }
        }
        for e in file.all_enums() {
            assert_span(text, e.span, &e.full_name);
            for value in &e.values {
                assert_span(text, value.span, &value.name);
            }
        }
    }
}

fn assert_finding(finding: &Finding, old: &Schema, new: &Schema) {
    assert!(
        !finding.message.is_empty(),
        "{} has no message",
        finding.rule
    );
    assert!(
        rules::find(finding.rule).is_some(),
        "unknown rule {}",
        finding.rule
    );
    for (location, schema) in [(&finding.location, new), (&finding.previous, old)] {
        if let Some(location) = location {
            assert_location(location, schema);
        }
    }
}

/// A location names a file of its side, and its span lies inside that file's text.
fn assert_location(location: &Location, schema: &Schema) {
    let file = schema.files.get(&location.path);
    assert!(
        file.is_some(),
        "finding points at unknown file {}",
        location.path
    );
    if let (Some(file), Some(span)) = (file, location.span) {
        assert_span(&file.text, span, &location.path);
        assert!(
            (location.start_line, location.start_column)
                <= (location.end_line, location.end_column),
            "location ends before it starts: {location:?}"
        );
    }
}
