//! The tools whose output `analyze import` reads and their file formats, as the other layers
//! name them: a tool's stored and displayed name, a format's name and what its rows record. Pure
//! metadata; the parsers, the detection from a file's text and the command's help stay in
//! `import/`, which adds those to [`Format`].

use std::fmt;

/// The load generators whose output can be imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tool {
    Ab,
    Hey,
    Wrk,
    Siege,
    Locust,
    K6,
    Vegeta,
    Oha,
    Jmeter,
    Autocannon,
    Artillery,
    Wrk2,
    HdrHistogram,
}

impl Tool {
    pub const ALL: [Tool; 13] = [
        Tool::Ab,
        Tool::Hey,
        Tool::Wrk,
        Tool::Siege,
        Tool::Locust,
        Tool::K6,
        Tool::Vegeta,
        Tool::Oha,
        Tool::Jmeter,
        Tool::Autocannon,
        Tool::Artillery,
        Tool::Wrk2,
        Tool::HdrHistogram,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tool::Ab => "ab",
            Tool::Hey => "hey",
            Tool::Wrk => "wrk",
            Tool::Siege => "siege",
            Tool::Locust => "locust",
            Tool::K6 => "k6",
            Tool::Vegeta => "vegeta",
            Tool::Oha => "oha",
            Tool::Jmeter => "jmeter",
            Tool::Autocannon => "autocannon",
            Tool::Artillery => "artillery",
            Tool::Wrk2 => "wrk2",
            Tool::HdrHistogram => "hdrhistogram",
        }
    }

    /// The tool's name as its project spells it, for sentences: "Locust's own figures".
    pub fn display_name(self) -> &'static str {
        match self {
            Tool::Ab => "ab",
            Tool::Hey => "hey",
            Tool::Wrk => "wrk",
            Tool::Siege => "Siege",
            Tool::Locust => "Locust",
            Tool::K6 => "k6",
            Tool::Vegeta => "Vegeta",
            Tool::Oha => "oha",
            Tool::Jmeter => "JMeter",
            Tool::Autocannon => "autocannon",
            Tool::Artillery => "Artillery",
            Tool::Wrk2 => "wrk2",
            Tool::HdrHistogram => "HdrHistogram",
        }
    }

    /// The tool stored as `name` (run_stats.csv `tool`, [`Tool::name`]).
    pub fn from_name(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.name() == name)
    }

    /// A stored tool name as sentences say it: the display name of a tool this crate imports,
    /// else the name as the dataset gives it.
    pub fn display_name_of(name: &str) -> &str {
        match Tool::from_name(name) {
            Some(tool) => tool.display_name(),
            None => name,
        }
    }
}

/// One file format of one tool. The names are what `--format` takes and what provenance records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    AbGnuplot,
    AbPercentiles,
    AbStdout,
    HeyCsv,
    HeyText,
    WrkText,
    SiegeVerbose,
    SiegeText,
    SiegeJson,
    SiegeLog,
    LocustStats,
    LocustHistory,
    LocustFailures,
    LocustExceptions,
    LocustJson,
    K6Json,
    K6Csv,
    VegetaCsv,
    VegetaJson,
    OhaJson,
    OhaCsv,
    OhaSqlite,
    JmeterCsv,
    AutocannonJson,
    ArtilleryJson,
    K6Summary,
    Wrk2Text,
    HdrPercentiles,
    HdrLog,
}

/// How a rows format records send times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendTimes {
    /// To the millisecond or finer.
    Recorded,
    /// To the whole second (ab -g, k6 --out csv).
    WholeSeconds,
    /// Not at all: every request is recorded as sent at 0 (siege -v).
    Missing,
}

impl SendTimes {
    /// The resolution of the send times in ms; `None` when there are none.
    pub fn step_ms(self, format: Format) -> Option<f64> {
        match self {
            SendTimes::Missing => None,
            SendTimes::WholeSeconds => Some(1000.0),
            SendTimes::Recorded => Some(match format {
                Format::HeyCsv => 0.1,
                Format::JmeterCsv => 1.0,
                // k6 JSON: RFC 3339 to the ns; vegeta: Unix ns.
                _ => 0.000_001,
            }),
        }
    }
}

impl Format {
    pub const ALL: [Format; 29] = [
        Format::AbGnuplot,
        Format::AbPercentiles,
        Format::AbStdout,
        Format::HeyCsv,
        Format::HeyText,
        Format::WrkText,
        Format::SiegeVerbose,
        Format::SiegeText,
        Format::SiegeJson,
        Format::SiegeLog,
        Format::LocustStats,
        Format::LocustHistory,
        Format::LocustFailures,
        Format::LocustExceptions,
        Format::LocustJson,
        Format::K6Json,
        Format::K6Csv,
        Format::VegetaCsv,
        Format::VegetaJson,
        Format::OhaJson,
        Format::OhaCsv,
        Format::OhaSqlite,
        Format::JmeterCsv,
        Format::AutocannonJson,
        Format::ArtilleryJson,
        Format::K6Summary,
        Format::Wrk2Text,
        Format::HdrPercentiles,
        Format::HdrLog,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::AbGnuplot => "ab-gnuplot",
            Format::AbPercentiles => "ab-percentiles",
            Format::AbStdout => "ab-stdout",
            Format::HeyCsv => "hey-csv",
            Format::HeyText => "hey-text",
            Format::WrkText => "wrk-text",
            Format::SiegeVerbose => "siege-verbose",
            Format::SiegeText => "siege-text",
            Format::SiegeJson => "siege-json",
            Format::SiegeLog => "siege-log",
            Format::LocustStats => "locust-stats",
            Format::LocustHistory => "locust-history",
            Format::LocustFailures => "locust-failures",
            Format::LocustExceptions => "locust-exceptions",
            Format::LocustJson => "locust-json",
            Format::K6Json => "k6-json",
            Format::K6Csv => "k6-csv",
            Format::VegetaCsv => "vegeta-csv",
            Format::VegetaJson => "vegeta-json",
            Format::OhaJson => "oha-json",
            Format::OhaCsv => "oha-csv",
            Format::OhaSqlite => "oha-sqlite",
            Format::JmeterCsv => "jmeter-csv",
            Format::AutocannonJson => "autocannon-json",
            Format::ArtilleryJson => "artillery-json",
            Format::K6Summary => "k6-summary",
            Format::Wrk2Text => "wrk2-text",
            Format::HdrPercentiles => "hdr-hgrm",
            Format::HdrLog => "hdr-hlog",
        }
    }

    pub fn tool(self) -> Tool {
        match self {
            Format::AbGnuplot | Format::AbPercentiles | Format::AbStdout => Tool::Ab,
            Format::HeyCsv | Format::HeyText => Tool::Hey,
            Format::WrkText => Tool::Wrk,
            Format::SiegeVerbose | Format::SiegeText | Format::SiegeJson | Format::SiegeLog => Tool::Siege,
            Format::LocustStats | Format::LocustHistory | Format::LocustFailures | Format::LocustExceptions | Format::LocustJson => {
                Tool::Locust
            }
            Format::K6Json | Format::K6Csv => Tool::K6,
            Format::VegetaCsv | Format::VegetaJson => Tool::Vegeta,
            Format::OhaJson | Format::OhaCsv | Format::OhaSqlite => Tool::Oha,
            Format::JmeterCsv => Tool::Jmeter,
            Format::AutocannonJson => Tool::Autocannon,
            Format::ArtilleryJson => Tool::Artillery,
            Format::K6Summary => Tool::K6,
            Format::Wrk2Text => Tool::Wrk2,
            Format::HdrPercentiles | Format::HdrLog => Tool::HdrHistogram,
        }
    }

    /// Whether files of this format hold one row per request.
    pub fn has_rows(self) -> bool {
        matches!(
            self,
            Format::AbGnuplot
                | Format::HeyCsv
                | Format::SiegeVerbose
                | Format::K6Json
                | Format::K6Csv
                | Format::VegetaCsv
                | Format::VegetaJson
                | Format::JmeterCsv
                | Format::OhaCsv
                | Format::OhaSqlite
        )
    }

    /// Whether this format's rows say each request's status. ab -g's do not: they take one from
    /// the same run's summary, and the failures that summary counts cannot be placed among them
    /// (`stats::failures::counted`).
    pub fn rows_carry_status(self) -> bool {
        self.has_rows() && self != Format::AbGnuplot
    }

    /// How finely this format's rows record when each request was sent, which bounds what the
    /// span from the first send to the last completion (and requests/s from rows) can say.
    pub fn send_times(self) -> SendTimes {
        match self {
            Format::AbGnuplot | Format::K6Csv => SendTimes::WholeSeconds,
            Format::SiegeVerbose => SendTimes::Missing,
            _ => SendTimes::Recorded,
        }
    }

    /// The resolution (ms) of this rows format's send times, `None` without send times.
    pub fn send_step_ms(self) -> Option<f64> {
        self.send_times().step_ms(self)
    }

    /// The resolution (ms) of this rows format's latencies.
    pub fn latency_step_ms(self) -> f64 {
        match self {
            Format::AbGnuplot | Format::JmeterCsv => 1.0,
            Format::HeyCsv => 0.1,
            Format::SiegeVerbose => 10.0,
            _ => 0.000_001,
        }
    }

    /// Whether files of this format are one JSON document (complete when it parses), rather than
    /// lines that each end with a newline.
    pub fn is_json_document(self) -> bool {
        matches!(
            self,
            Format::SiegeJson | Format::LocustJson | Format::OhaJson | Format::AutocannonJson | Format::ArtilleryJson | Format::K6Summary
        )
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_name_reads_back_as_its_tool_and_format() {
        for tool in Tool::ALL {
            assert_eq!(Tool::from_name(tool.name()), Some(tool));
        }
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
            assert_eq!(format.to_string(), format.name());
        }
        assert_eq!(Tool::from_name("Locust"), None, "stored names are lowercase");
    }

    #[test]
    fn sentences_name_a_tool_as_its_project_does() {
        assert_eq!(Tool::display_name_of("locust"), "Locust");
        assert_eq!(Tool::display_name_of("hdrhistogram"), "HdrHistogram");
        assert_eq!(Tool::display_name_of("jmeter"), "JMeter");
        assert_eq!(Tool::display_name_of("ab"), "ab");
        assert_eq!(Tool::display_name_of("gatling"), "gatling", "a tool not imported here keeps the dataset's name");
    }

    #[test]
    fn rows_formats_say_how_finely_they_time_sends() {
        assert_eq!(Format::AbGnuplot.send_step_ms(), Some(1000.0));
        assert_eq!(Format::SiegeVerbose.send_step_ms(), None);
        assert_eq!(Format::HeyCsv.send_step_ms(), Some(0.1));
        assert_eq!(Format::SiegeVerbose.latency_step_ms(), 10.0);
    }
}
