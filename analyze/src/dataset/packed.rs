//! A run's times in 4 bytes each, or 2, where that loses nothing, while the report's one pass holds
//! every 2xx response's latency, send time and scheduled time (24 bytes a response as `f64`).
//!
//! Times in ms with at most three decimals, as `measure` writes them and most load generators
//! report them, are whole numbers of microseconds: `n` is kept as a `u32` when `n as f64 /
//! 1000.0` gives back the very bits read (the division rounds the exact quotient once, as
//! reading the decimal text did). A value that does not round-trip (more decimals, -0.0, a
//! negative one, or one beyond 2^32 µs, 71 minutes) turns that part of the run into plain
//! `f64`s, so nothing is ever approximated: unpacked, the values are the bits read.
//!
//! Send and scheduled times mostly ascend in small steps (a client sends one request after
//! another): those take 2 bytes each, the step from the value before ([`Steps`]).

/// A run's values in ms in file order: packed while every one is a whole microsecond.
#[derive(Debug, Clone, PartialEq)]
pub enum TimesMs {
    Micros(Vec<u32>),
    Steps(Steps),
    Float(Vec<f64>),
}

/// Whole microseconds as the step up from the value before, when it is below [`ESCAPE`];
/// any other value (the first, one lower than the one before, or a gap of 65.535 ms or more)
/// is an [`ESCAPE`] step and its own `u32` in `whole`, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Steps {
    steps: Vec<u16>,
    whole: Vec<u32>,
    last: u32,
}

const ESCAPE: u16 = u16::MAX;

impl Steps {
    #[inline(always)]
    fn push(&mut self, n: u32) {
        let step = n.wrapping_sub(self.last);
        if step < u32::from(ESCAPE) {
            self.steps.push(step as u16);
        } else {
            self.steps.push(ESCAPE);
            self.whole.push(n);
        }
        self.last = n;
    }

    /// The microseconds, in order.
    fn micros(&self) -> impl Iterator<Item = u32> + '_ {
        let mut whole = self.whole.iter();
        let mut last = 0u32;
        self.steps.iter().map(move |&step| {
            // A step was below ESCAPE only when adding it gives the value back.
            last = if step == ESCAPE { *whole.next().expect("an escape has its value") } else { last + u32::from(step) };
            last
        })
    }
}

impl Default for TimesMs {
    fn default() -> Self {
        TimesMs::Float(Vec::new())
    }
}

/// `n` µs in ms: the double nearest n / 1000, which is what reading its decimal text gives.
#[inline(always)]
fn unpack(n: u32) -> f64 {
    f64::from(n) / 1000.0
}

/// The whole microseconds whose [`unpack`] is `ms` to the bit, if there are such.
#[inline(always)]
fn pack(ms: f64) -> Option<u32> {
    let n = nearest_micros(ms);
    (unpack(n).to_bits() == ms.to_bits()).then_some(n)
}

/// The whole number of microseconds nearest `ms`, saturated to `u32` (NaN to 0): the candidate
/// [`unpack`] must confirm, so a value out of range or between two microseconds only fails the
/// check, never packs wrongly. Branch-free, so a slice of them is one straight loop.
#[inline(always)]
fn nearest_micros(ms: f64) -> u32 {
    (ms * 1000.0 + 0.5) as u32
}

impl TimesMs {
    /// Empty; packed when `packed`, else plain `f64` from the start (`analyze check`, which
    /// holds only the latencies, 8 bytes a response, and saves the division a value costs).
    pub fn new(packed: bool) -> Self {
        if packed {
            TimesMs::Micros(Vec::new())
        } else {
            TimesMs::Float(Vec::new())
        }
    }

    /// Empty, for values that mostly ascend in small steps (send and scheduled times): 2 bytes
    /// each when `packed`.
    pub fn ascending(packed: bool) -> Self {
        if packed {
            TimesMs::Steps(Steps::default())
        } else {
            TimesMs::Float(Vec::new())
        }
    }

    pub fn len(&self) -> usize {
        match self {
            TimesMs::Micros(values) => values.len(),
            TimesMs::Steps(steps) => steps.steps.len(),
            TimesMs::Float(values) => values.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room left before the vector grows.
    pub fn spare(&self) -> usize {
        match self {
            TimesMs::Micros(values) => values.capacity() - values.len(),
            TimesMs::Steps(steps) => steps.steps.capacity() - steps.steps.len(),
            TimesMs::Float(values) => values.capacity() - values.len(),
        }
    }

    pub fn reserve(&mut self, additional: usize) {
        match self {
            TimesMs::Micros(values) => values.reserve(additional),
            TimesMs::Steps(steps) => steps.steps.reserve(additional),
            TimesMs::Float(values) => values.reserve(additional),
        }
    }

    /// The values as `f64`, every one from here on too.
    fn widen(&mut self) -> &mut Vec<f64> {
        let wide = match self {
            TimesMs::Float(values) => return values,
            TimesMs::Micros(values) => {
                let mut wide = Vec::with_capacity(values.capacity().max(values.len() + 1));
                wide.extend(values.iter().map(|&n| unpack(n)));
                wide
            }
            TimesMs::Steps(steps) => {
                let mut wide = Vec::with_capacity(steps.steps.capacity().max(steps.steps.len() + 1));
                wide.extend(steps.micros().map(unpack));
                wide
            }
        };
        *self = TimesMs::Float(wide);
        match self {
            TimesMs::Float(values) => values,
            _ => unreachable!("widened above"),
        }
    }

    #[inline]
    pub fn push(&mut self, ms: f64) {
        match self {
            TimesMs::Float(values) => values.push(ms),
            TimesMs::Micros(values) => match pack(ms) {
                Some(n) => values.push(n),
                None => self.widen().push(ms),
            },
            TimesMs::Steps(steps) => match pack(ms) {
                Some(n) => steps.push(n),
                None => self.widen().push(ms),
            },
        }
    }

    pub fn extend_from_slice(&mut self, ms: &[f64]) {
        match self {
            TimesMs::Float(values) => values.extend_from_slice(ms),
            TimesMs::Micros(values) => {
                // All of them packed at once, then checked at once: a loop without a branch
                // per value, where packing one by one took 5% of a report's profile.
                let start = values.len();
                values.extend(ms.iter().map(|&value| nearest_micros(value)));
                let exact =
                    ms.iter().zip(&values[start..]).fold(true, |exact, (value, &n)| exact & (unpack(n).to_bits() == value.to_bits()));
                if !exact {
                    values.truncate(start);
                    self.widen().extend_from_slice(ms);
                }
            }
            TimesMs::Steps(steps) => {
                // Checked first, in the same straight loop, then stepped.
                let exact = ms.iter().fold(true, |exact, &value| exact & (unpack(nearest_micros(value)).to_bits() == value.to_bits()));
                if exact {
                    steps.steps.reserve(ms.len());
                    ms.iter().for_each(|&value| steps.push(nearest_micros(value)));
                } else {
                    self.widen().extend_from_slice(ms);
                }
            }
        }
    }

    /// The values as read, in order, after those already in `out`, which is given room for
    /// `total` values in all. Plain values move into an empty `out` without a copy (`check`'s
    /// latencies, and a run one worker read whole).
    pub fn unpack_into(self, out: &mut Vec<f64>, total: usize) {
        match self {
            TimesMs::Float(values) if out.is_empty() => *out = values,
            // Room for `total` was made when this filled `out` first.
            TimesMs::Float(values) => out.extend_from_slice(&values),
            TimesMs::Micros(values) => {
                out.reserve_exact(total.saturating_sub(out.len()));
                out.extend(values.into_iter().map(unpack));
            }
            TimesMs::Steps(steps) => {
                out.reserve_exact(total.saturating_sub(out.len()));
                out.extend(steps.micros().map(unpack));
            }
        }
        out.reserve_exact(total.saturating_sub(out.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bits(values: &[f64]) -> Vec<u64> {
        values.iter().map(|v| v.to_bits()).collect()
    }

    fn unpacked(times: TimesMs) -> Vec<f64> {
        let mut out = Vec::new();
        let total = times.len();
        times.unpack_into(&mut out, total);
        out
    }

    #[test]
    fn three_decimals_pack_and_anything_else_is_kept_as_read() {
        for text in ["0", "0.001", "0.027", "227.354", "9986.459", "4294967.295"] {
            let ms: f64 = text.parse().unwrap();
            let n = pack(ms).unwrap_or_else(|| panic!("{text} packs"));
            assert_eq!(unpack(n).to_bits(), ms.to_bits(), "{text}");
        }
        for text in ["-0.0", "-1", "0.0001", "829.937077", "4294967.296", "1700000000000.5", "inf", "NaN"] {
            assert_eq!(pack(text.parse().unwrap()), None, "{text}");
        }
        // A double that is not any three-decimal text (a difference of two such).
        assert_eq!(pack(250.121 - 250.0), None);
    }

    #[test]
    fn a_value_that_does_not_pack_turns_the_rest_into_f64_and_keeps_every_bit() {
        let read = [1.5, 2.25, 829.937077, -0.0, 3.0, 7.125];
        let mut one_by_one = TimesMs::new(true);
        for &v in &read {
            one_by_one.push(v);
        }
        assert!(matches!(one_by_one, TimesMs::Float(_)));
        assert_eq!(bits(&unpacked(one_by_one.clone())), bits(&read));
        let mut at_once = TimesMs::new(true);
        at_once.extend_from_slice(&read[..2]);
        assert!(matches!(at_once, TimesMs::Micros(_)), "1.5 and 2.25 are whole microseconds");
        at_once.extend_from_slice(&read[2..]);
        assert_eq!(at_once, one_by_one);
    }

    #[test]
    fn ascending_times_take_two_bytes_but_a_fall_or_a_gap_its_own_four() {
        let mut times = TimesMs::ascending(true);
        // 0 is a step from 0; 65.534 ms is the largest step; 65.535 is a gap; 131.568 falls
        // back; then steps again.
        let read = [0.0, 0.5, 66.034, 131.569, 131.568, 131.692];
        times.extend_from_slice(&read);
        let TimesMs::Steps(steps) = &times else { panic!("whole microseconds are steps") };
        assert_eq!(steps.steps, [0, 500, 65_534, ESCAPE, ESCAPE, 124]);
        assert_eq!(steps.whole, [131_569, 131_568]);
        assert_eq!(bits(&unpacked(times.clone())), bits(&read));
        // A value beyond three decimals widens the part, every value kept.
        times.push(0.0001);
        assert!(matches!(times, TimesMs::Float(_)));
        assert_eq!(bits(&unpacked(times)), bits(&[&read[..], &[0.0001]].concat()));
    }

    proptest! {
        #[test]
        fn parts_unpack_one_after_another_to_the_values_read(
            a in proptest::collection::vec(0u32..5_000_000, 0..40),
            b in proptest::collection::vec(any::<f64>(), 0..5),
            c in proptest::collection::vec(0u32..5_000_000, 0..40),
            packed in any::<bool>(),
            ascending in any::<bool>(),
        ) {
            // Parts of whole microseconds and of any bits at all, read a slice and a value at a time.
            let parts: Vec<Vec<f64>> = vec![a.iter().map(|&n| f64::from(n) / 1000.0).collect(), b, c.iter().map(|&n| f64::from(n) / 1000.0).collect()];
            let empty = || if ascending { TimesMs::ascending(packed) } else { TimesMs::new(packed) };
            let mut whole = Vec::new();
            let mut expected = Vec::new();
            for part in &parts {
                let (mut sliced, mut pushed) = (empty(), empty());
                let half = part.len() / 2;
                sliced.extend_from_slice(&part[..half]);
                sliced.extend_from_slice(&part[half..]);
                part.iter().for_each(|&v| pushed.push(v));
                prop_assert_eq!(std::mem::discriminant(&sliced), std::mem::discriminant(&pushed));
                prop_assert_eq!(bits(&unpacked(pushed)), bits(part));
                prop_assert_eq!(sliced.len(), part.len());
                let total = whole.len() + sliced.len() + 7;
                sliced.unpack_into(&mut whole, total);
                expected.extend_from_slice(part);
            }
            prop_assert_eq!(bits(&whole), bits(&expected));
        }

        #[test]
        fn steps_of_any_size_and_sign_unpack_to_the_values_read(
            moves in proptest::collection::vec((any::<bool>(), 0u32..70_000, any::<u32>()), 0..200),
        ) {
            // Mostly steps up below and around the escape, some anywhere at all (down, far up, u32::MAX).
            let mut n = 0u32;
            let read: Vec<f64> = moves
                .iter()
                .map(|&(small, step, anywhere)| {
                    n = if small { n.saturating_add(step) } else { anywhere };
                    unpack(n)
                })
                .collect();
            let (mut pushed, mut sliced) = (TimesMs::ascending(true), TimesMs::ascending(true));
            read.iter().for_each(|&v| pushed.push(v));
            sliced.extend_from_slice(&read[..read.len() / 3]);
            sliced.extend_from_slice(&read[read.len() / 3..]);
            prop_assert!(matches!(pushed, TimesMs::Steps(_)), "whole microseconds stay packed");
            prop_assert_eq!(&pushed, &sliced);
            prop_assert_eq!(bits(&unpacked(pushed)), bits(&read));
        }

        #[test]
        fn any_bits_unpack_to_themselves(v in any::<f64>()) {
            if let Some(n) = pack(v) {
                prop_assert_eq!(unpack(n).to_bits(), v.to_bits());
            }
        }
    }
}
