//! A finding is data, produced by the rules and read by every later stage; the renderers in
//! `report/` only format it.

use crate::direction::Direction;
use crate::model::{File, Span};

/// A place in one revision of a file, with buf's 1-based line/column convention
/// (end column exclusive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: String,
    /// None: the element has no location of its own; the finding points at the file.
    pub span: Option<Span>,
    pub start_line: u32,
    pub start_column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl Location {
    pub fn in_file(file: &File, span: Option<Span>) -> Location {
        let (start_line, start_column, end_line, end_column) = match span {
            Some(s) => {
                let (l1, c1) = file.line_col(s.start);
                let (l2, c2) = file.line_col(s.end);
                (l1, c1, l2, c2)
            }
            None => (1, 1, 1, 1),
        };
        Location {
            path: file.path.clone(),
            span,
            start_line,
            start_column,
            end_line,
            end_column,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Advice: never fails a run, not even with `--fail-on warning`.
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A text edit for `--fix`: replace `span` of `path` with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub path: String,
    pub span: Span,
    pub replacement: String,
}

#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: &'static str,
    /// New-side location; None when the whole file is gone.
    pub location: Option<Location>,
    /// Old-side location, where the old revision has one.
    pub previous: Option<Location>,
    pub message: String,
    /// The concrete fix, in words.
    pub help: Option<String>,
    /// Shared by every finding the same edits fix (all deletions from one message): one
    /// `reserved` statement per element, not one copy per finding.
    pub edits: std::sync::Arc<[Edit]>,
    /// Findings sharing one root cause carry the same group key.
    pub group: Option<String>,
    /// The old-side element itself when `previous` is broader: buf reports a deleted field at
    /// its message; the text format underlines the field.
    pub focus: Option<Span>,
    /// Who breaks: the rule's direction, or the handler's finer judgement of this change.
    pub direction: Direction,
    /// This finding's own severity when it differs from its rule's (a history finding whose
    /// element was gone in between is a warning); None: the rule's.
    pub severity: Option<Severity>,
}

impl Finding {
    pub fn sort_key(&self) -> (String, u32, u32, &'static str, String) {
        match &self.location {
            Some(l) => (
                l.path.clone(),
                l.start_line,
                l.start_column,
                self.rule,
                self.message.clone(),
            ),
            None => (String::new(), 0, 0, self.rule, self.message.clone()),
        }
    }
}

/// Where a rule handler writes its findings; it stamps the rule id.
pub struct Sink<'a> {
    rule: &'static str,
    /// The rule's own direction, stamped on each finding; a handler may refine it.
    direction: Direction,
    out: &'a mut Vec<Finding>,
}

impl<'a> Sink<'a> {
    pub fn new(rule: &'static str, direction: Direction, out: &'a mut Vec<Finding>) -> Self {
        Sink {
            rule,
            direction,
            out,
        }
    }

    /// Adds a finding and returns it for optional help/edits.
    pub fn add(
        &mut self,
        location: Option<Location>,
        previous: Option<Location>,
        message: impl Into<String>,
    ) -> &mut Finding {
        self.out.push(Finding {
            rule: self.rule,
            location,
            previous,
            message: message.into(),
            help: None,
            edits: Default::default(),
            group: None,
            focus: None,
            direction: self.direction,
            severity: None,
        });
        self.out.last_mut().expect("just pushed")
    }
}
