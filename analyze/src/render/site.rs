//! The publishable site: every dataset's report in both languages under `<dataset>/<lang>/`,
//! and an index page that lists them with their headline table.

use super::i18n::fill;
use super::view::{CompareSite, Context, KeyValue, Table};
use super::{emit_report_with, render, templates, Emit, Files, RenderError};
use crate::model::Lang;
use crate::report::compare::ComparisonReport;
use crate::report::history::HistoryReport;
use crate::report::Report;
use serde::Serialize;
use std::collections::BTreeMap;

/// One dataset's entry on the index page.
#[derive(Debug, Serialize)]
struct Entry {
    /// The dataset's folder: what tells apart the cards of measurements with one title.
    name: String,
    title: String,
    other_titles: Vec<String>,
    measured: Option<String>,
    /// dataset.toml's `history.revision`.
    revision: Option<String>,
    /// Its runs, with the aborted and excluded ones among them: "31 (14 aborted)".
    runs: String,
    links: Vec<(String, String)>,
    headline: Table,
}

#[derive(Debug, Serialize)]
struct IndexPage {
    lang: &'static str,
    t: &'static super::i18n::Strings,
    /// The index in the other language, beside this one at the site's root.
    other_lang_href: String,
    other_lang: &'static str,
    /// The words only the index uses.
    s: &'static super::i18n::site::SiteWords,
    entries: Vec<Entry>,
    /// The dataset folders that could not be read, each with its error.
    broken: Vec<Broken>,
}

/// A dataset folder `analyze site` could not read: listed on the index with its error, while
/// the site shows the others.
#[derive(Debug, Clone, Serialize)]
pub struct Broken {
    pub name: String,
    pub error: String,
}

/// "31" or "31 (14 aborted, 1 excluded)": a dataset's runs, with those left out of its statistics.
fn runs_text(report: &Report, lang: Lang) -> String {
    let (t, s) = (super::i18n::strings(lang), super::i18n::site::words(lang));
    let runs = super::format::count(report.integrity.runs);
    let status = |key: &str| report.integrity.runs_by_status.get(key).copied().unwrap_or(0);
    let left_out: Vec<String> = [(status("aborted"), s.aborted), (status("excluded"), s.excluded)]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, template)| fill(template, &[("n", &super::format::count(n))]))
        .collect();
    if left_out.is_empty() {
        runs
    } else {
        fill(s.runs_left_out, &[("runs", &runs), ("left_out", &left_out.join(t.list_sep))])
    }
}

/// A dataset ready to publish: its report and its articles.
pub struct Published<'a> {
    pub report: &'a Report,
    pub articles: &'a BTreeMap<Lang, (String, String)>,
    /// Render its pages; else it only appears on the index (`analyze site --only`).
    pub rendered: bool,
}

/// A dataset's comparison with the baseline its dataset.toml names, rendered under
/// `<candidate>/compare/` and linked from both reports.
pub struct SiteComparison<'a> {
    pub baseline: &'a Report,
    pub candidate: &'a Report,
    pub comparison: &'a ComparisonReport,
}

/// The history of the datasets that name one `[history] series`, rendered under
/// `history/<series>/` and linked from each of their reports.
pub struct SiteHistory<'a> {
    pub history: &'a HistoryReport,
}

impl SiteHistory<'_> {
    /// Its folder, from the site's root.
    pub fn folder(&self) -> String {
        format!("{}/{}", super::paths::HISTORY_FOLDER, super::paths::url_segment(&self.history.series))
    }

    pub fn has(&self, dataset: &str) -> bool {
        self.history.measurements.iter().any(|m| m.dataset == dataset)
    }
}

/// The links of one report page (in `<name>/<lang>/`) to the histories it belongs to.
fn history_links(name: &str, lang: Lang, histories: &[SiteHistory]) -> Vec<KeyValue> {
    let w = super::i18n::history::words(lang);
    histories
        .iter()
        .filter(|h| h.has(name))
        .map(|h| KeyValue {
            label: fill(w.report_link, &[("series", &h.history.series)]),
            value: fill(w.measurements_value_short, &[("n", &super::format::count(h.history.measurements.len() as u64))]),
            href: Some(format!("../../{}/{}/index.html", h.folder(), lang.code())),
        })
        .collect()
}

/// The links of one report page (in `<name>/<lang>/`) to the comparisons it takes part in.
fn comparison_links(name: &str, lang: Lang, comparisons: &[SiteComparison]) -> Vec<KeyValue> {
    let w = super::i18n::compare::words(lang);
    let mut links = Vec::new();
    for c in comparisons.iter().filter(|c| c.candidate.dataset.name == name) {
        links.push(KeyValue {
            label: w.compared_with.to_string(),
            value: fill(w.compared_with_value, &[("title", c.baseline.dataset.title.get(lang))]),
            href: Some(format!("../compare/{}/index.html", lang.code())),
        });
    }
    for c in comparisons.iter().filter(|c| c.baseline.dataset.name == name) {
        links.push(KeyValue {
            label: w.remeasured_as.to_string(),
            value: fill(w.remeasured_value, &[("title", c.candidate.dataset.title.get(lang))]),
            href: Some(format!("../../{}/compare/{}/index.html", super::paths::url_segment(&c.candidate.dataset.name), lang.code())),
        });
    }
    links
}

/// Every file of the site.
pub fn site_files(
    datasets: &[Published],
    comparisons: &[SiteComparison],
    histories: &[SiteHistory],
    broken: &[Broken],
) -> Result<Files, RenderError> {
    let mut files = Files::new();
    emit_site(datasets, comparisons, histories, broken, &mut |path, bytes| {
        files.insert(path, bytes);
        Ok(())
    })?;
    Ok(files)
}

/// [`site_files`], each file handed to `emit` as soon as it is rendered.
pub fn emit_site(
    datasets: &[Published],
    comparisons: &[SiteComparison],
    histories: &[SiteHistory],
    broken: &[Broken],
    emit: &mut Emit,
) -> Result<(), RenderError> {
    for dataset in datasets {
        let name = &dataset.report.dataset.name;
        let href = super::paths::url_segment(name);
        for lang in Lang::ALL.into_iter().filter(|_| dataset.rendered) {
            let prefix = format!("{name}/{}/", lang.code());
            let mut links = comparison_links(name, lang, comparisons);
            links.extend(history_links(name, lang, histories));
            let own = comparisons.iter().find(|c| &c.candidate.dataset.name == name).map(|c| c.comparison);
            emit_report_with(dataset.report, lang, dataset.articles, true, &links, own, &mut |path, bytes| {
                emit(format!("{prefix}{path}"), bytes)
            })?;
        }
        for c in comparisons.iter().filter(|c| dataset.rendered && &c.candidate.dataset.name == name) {
            let site = CompareSite { baseline: super::paths::url_segment(&c.baseline.dataset.name), candidate: href.clone() };
            for (path, bytes) in super::compare::compare_files(c.comparison, Some(&site))? {
                emit(format!("{name}/compare/{path}"), bytes)?;
            }
        }
    }
    for h in histories {
        let measurements = &h.history.measurements;
        let number_of = |name: &str| measurements.iter().find(|m| m.dataset == name).map(|m| m.number);
        let compared_with = measurements
            .iter()
            .map(|m| comparisons.iter().find(|c| c.candidate.dataset.name == m.dataset).and_then(|c| number_of(&c.baseline.dataset.name)))
            .collect();
        let site = super::view::HistorySite {
            datasets: measurements.iter().map(|m| super::paths::url_segment(&m.dataset)).collect(),
            compared_with,
        };
        for (path, bytes) in super::history::history_files(h.history, Some(&site))? {
            emit(format!("{}/{path}", h.folder()), bytes)?;
        }
    }
    emit(super::paths::STYLESHEET.to_string(), super::CSS.as_bytes().to_vec())?;
    // One index per language, each listing every dataset in its language.
    for lang in Lang::ALL {
        let mut entries = Vec::new();
        for dataset in datasets {
            let name = &dataset.report.dataset.name;
            let href = super::paths::url_segment(name);
            let context = Context::new(dataset.report, lang, true);
            let title = dataset.report.dataset.title.get(lang).to_string();
            // The English index names each dataset in Japanese too; the Japanese index only in Japanese.
            let other_titles = Lang::ALL
                .iter()
                .filter(|l| **l != lang && lang == Lang::En)
                .map(|l| dataset.report.dataset.title.get(*l).to_string())
                .filter(|other| *other != title)
                .collect();
            // The page's own language first.
            let mut link_langs: Vec<Lang> = Lang::ALL.to_vec();
            link_langs.sort_by_key(|l| *l != lang);
            let mut links: Vec<(String, String)> = link_langs
                .iter()
                .map(|l| {
                    let t = super::i18n::strings(lang);
                    let text = fill(t.aside, &[("main", t.report), ("note", super::i18n::strings(*l).lang_name)]);
                    (text, format!("{href}/{}/index.html", l.code()))
                })
                .collect();
            // Its comparison with its baseline and its histories, which its report links too.
            if comparisons.iter().any(|c| &c.candidate.dataset.name == name) {
                links.push((
                    super::i18n::compare::words(lang).compared_with.to_string(),
                    format!("{href}/compare/{}/index.html", lang.code()),
                ));
            }
            for h in histories.iter().filter(|h| h.has(name)) {
                let text = fill(super::i18n::history::words(lang).report_link, &[("series", &h.history.series)]);
                links.push((text, format!("{}/{}/index.html", h.folder(), lang.code())));
            }
            entries.push(Entry {
                name: name.clone(),
                other_titles,
                title,
                measured: dataset.report.dataset.measured.clone(),
                revision: dataset.report.dataset.history.as_ref().and_then(|h| h.revision.clone()),
                runs: runs_text(dataset.report, lang),
                links,
                headline: context.headline_table(&format!("{href}/{}/", lang.code())),
            });
        }
        // The variance link in the headline table points at the dataset's own folder.
        for entry in &mut entries {
            entry.headline.id = format!("headline-{}", super::paths::url_segment(&entry.name));
        }
        let other = if lang == Lang::En { Lang::Ja } else { Lang::En };
        let page = IndexPage {
            lang: lang.code(),
            t: super::i18n::strings(lang),
            other_lang_href: super::paths::site_index(other),
            other_lang: other.code(),
            s: super::i18n::site::words(lang),
            entries,
            broken: broken.to_vec(),
        };
        let at = super::paths::site_index(lang);
        let bytes = render(templates(), "index.html", &page, &at)?;
        emit(at, bytes)?;
    }
    Ok(())
}
