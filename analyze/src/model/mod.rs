//! The shared vocabulary: the types every layer speaks (ingest, statistics, results, rendering,
//! import), at the bottom of the crate. This module imports nothing of the crate, so no arrow
//! runs back up: `dataset/` reads into these types without knowing the results, the statistics
//! or a subcommand.

mod comparability;
mod condition;
mod design;
mod headline;
mod lang;
mod load;
mod note;
mod percentile;
mod published;
mod rule;
pub mod run_status;
mod slo;
mod sorted_map;
pub mod time_columns;
mod tool;
mod verdict;

pub use comparability::{MustMatch, DEFAULT_MUST_MATCH};
pub use condition::{condition_id, condition_label, parse_condition_pairs};
pub use design::{Design, SittingVariance};
pub use headline::{HeadlineMetric, ThroughputFrom};
pub use lang::{Lang, Text};
pub use load::LoadKind;
pub use note::{join as join_notes, Message, Note, NoteError, NoteItem, NoteKey};
pub use percentile::{by_level, nearest_rank, percentile_key, percentile_label, Percentile};
pub use published::{PublishedMetric, Quantity, Unit};
pub use rule::{interpolation_position, Rule};
pub use run_status::RunStatus;
pub use slo::{applies as slo_applies, SloBound, SloMetric};
pub use sorted_map::SortedMap;
pub use tool::{Format, SendTimes, Tool};
pub use verdict::{CompareVerdict, DecidedBy, FailureVerdict, NoInterval, Oriented, Verdict};
