//! Who a change breaks, in schema registries' terms (BACKWARD / FORWARD / FULL): the readers of
//! one revision decoding data written with the other, or only code compiled against it.

use std::fmt;

/// Who breaks. `Backward`: code built from the new schema reading data written with the old
/// one. `Forward`: code built from the old schema reading data written with the new one.
/// `Both`: either. `Source`: no data breaks, only code compiled against the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Backward,
    Forward,
    Both,
    Source,
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::Backward => "backward",
            Direction::Forward => "forward",
            Direction::Both => "both",
            Direction::Source => "source",
        }
    }

    /// The direction of the same change with old and new swapped: old readers of new data
    /// become new readers of old data.
    pub fn swapped(self) -> Direction {
        match self {
            Direction::Backward => Direction::Forward,
            Direction::Forward => Direction::Backward,
            other => other,
        }
    }

    /// From the two halves: does something break for new readers of old data, for old readers
    /// of new data? Neither is reported as `Both` (a caller that knows nothing breaks on the
    /// wire reports no finding or `Source`).
    pub fn of(backward: bool, forward: bool) -> Direction {
        match (backward, forward) {
            (true, false) => Direction::Backward,
            (false, true) => Direction::Forward,
            _ => Direction::Both,
        }
    }

    /// Who the finding breaks, in words, for the text report.
    pub fn who(self) -> &'static str {
        match self {
            Direction::Backward => "new readers of old data",
            Direction::Forward => "old readers of new data",
            Direction::Both => "readers on both sides",
            Direction::Source => "generated code only; no data breaks",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What `--direction` keeps: the findings that break that way. `Full` keeps everything.
/// `Source` findings break no data, so `backward` and `forward` drop them; `full` keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DirectionFilter {
    Backward,
    Forward,
    #[default]
    Full,
}

impl DirectionFilter {
    pub fn keeps(self, d: Direction) -> bool {
        match self {
            DirectionFilter::Full => true,
            DirectionFilter::Backward => matches!(d, Direction::Backward | Direction::Both),
            DirectionFilter::Forward => matches!(d, Direction::Forward | Direction::Both),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swapping_old_and_new_turns_backward_into_forward() {
        assert_eq!(Direction::Backward.swapped(), Direction::Forward);
        assert_eq!(Direction::Forward.swapped(), Direction::Backward);
        assert_eq!(Direction::Both.swapped(), Direction::Both);
        assert_eq!(Direction::Source.swapped(), Direction::Source);
    }

    #[test]
    fn filters_keep_what_breaks_that_way() {
        use Direction::*;
        let kept = |f: DirectionFilter| {
            [Backward, Forward, Both, Source]
                .into_iter()
                .filter(|d| f.keeps(*d))
                .collect::<Vec<_>>()
        };
        assert_eq!(kept(DirectionFilter::Backward), [Backward, Both]);
        assert_eq!(kept(DirectionFilter::Forward), [Forward, Both]);
        assert_eq!(
            kept(DirectionFilter::Full),
            [Backward, Forward, Both, Source]
        );
    }
}
