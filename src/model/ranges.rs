//! Number ranges (`reserved`, `extensions`) as sets: merged and sorted once, so that asking
//! whether a number is covered is a binary search even when a message reserves tens of
//! thousands of numbers.

use super::ReservedRange;

/// An inclusive number range.
pub type NumRange = (i64, i64);

/// Sorts ranges and merges overlapping or adjacent ones.
pub fn collapse_ranges(ranges: impl IntoIterator<Item = NumRange>) -> Vec<NumRange> {
    let mut sorted: Vec<NumRange> = ranges.into_iter().collect();
    sorted.sort();
    let mut out: Vec<NumRange> = Vec::with_capacity(sorted.len());
    for (start, end) in sorted {
        match out.last_mut() {
            Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// The numbers a list of ranges covers.
#[derive(Debug, Clone, Default)]
pub struct NumberSet {
    collapsed: Vec<NumRange>,
}

impl NumberSet {
    pub fn of(ranges: &[ReservedRange]) -> Self {
        NumberSet {
            collapsed: collapse_ranges(ranges.iter().map(|r| (r.start, r.end))),
        }
    }

    pub fn contains(&self, number: i64) -> bool {
        let after = self
            .collapsed
            .partition_point(|&(start, _)| start <= number);
        after > 0 && number <= self.collapsed[after - 1].1
    }

    /// The merged ranges, sorted.
    pub fn ranges(&self) -> &[NumRange] {
        &self.collapsed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_ranges_answer_membership() {
        let r = |start, end| ReservedRange {
            start,
            end,
            span: Default::default(),
            options: Default::default(),
        };
        let set = NumberSet::of(&[r(10, 12), r(1, 1), r(13, 20), r(30, 30), r(5, 6)]);
        assert_eq!(set.ranges(), &[(1, 1), (5, 6), (10, 20), (30, 30)]);
        let inside: Vec<i64> = (0..32).filter(|n| set.contains(*n)).collect();
        let mut expected = vec![1, 5, 6];
        expected.extend(10..=20);
        expected.push(30);
        assert_eq!(inside, expected);
        assert!(!NumberSet::default().contains(0));
    }
}
