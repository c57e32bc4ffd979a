//! Renderers: pure functions from a [`Report`] to files (relative path and bytes). They format
//! and lay out; they never compute a statistic. One writer (`crate::output`) puts files on disk.

pub mod article;
pub mod bidi;
pub mod charts;
pub mod compare;
pub mod exports;
pub mod figures;
pub mod format;
pub mod history;
pub mod i18n;
pub mod markdown;
pub mod paths;
pub mod sandbox;
pub mod site;
pub mod view;

use crate::model::Lang;
use crate::report::Report;
use std::collections::BTreeMap;
use view::Context;

/// A rendered file: path relative to the output folder, and its bytes.
pub type Files = BTreeMap<String, Vec<u8>>;

/// The pages' stylesheet ([`paths::STYLESHEET`]), written beside them.
pub const CSS: &str = include_str!("../../../report-templates/style.css");

/// Rendering failed: a template bug, or the author's article names something that does not
/// exist; or the file a page was handed to could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Article(#[from] article::ArticleError),
    #[error("template {name}: {message}")]
    Template { name: String, message: String },
    #[error(transparent)]
    Write(#[from] outdir::Error),
}

/// Where rendered files go as they are made (path relative to the output folder, bytes): a
/// folder being written ([`outdir::Sink`]) or a map. Renderers hand each file over at once, so
/// a report of 10^5 runs is never held whole in memory.
pub type Emit<'a> = dyn FnMut(String, Vec<u8>) -> Result<(), RenderError> + 'a;

/// Runs rendered at once in parallel before their files are handed over in order: enough to
/// keep the cores busy, few enough that their pages and figures stay a few megabytes.
const RUNS_PER_BATCH: usize = 64;

/// The templates, compiled into the binary so it renders the same from any folder, and parsed
/// once per process: a site renders every dataset in every language with them.
static TEMPLATES: std::sync::LazyLock<tera::Tera> = std::sync::LazyLock::new(parse_templates);

fn templates() -> &'static tera::Tera {
    &TEMPLATES
}

fn parse_templates() -> tera::Tera {
    let mut tera = tera::Tera::default();
    tera.add_raw_templates(vec![
        ("macros.html", include_str!("../../../report-templates/macros.html")),
        ("macros.md", include_str!("../../../report-templates/macros.md")),
        ("base.html", include_str!("../../../report-templates/base.html")),
        ("report.html", include_str!("../../../report-templates/report.html")),
        ("variance.html", include_str!("../../../report-templates/variance.html")),
        ("run.html", include_str!("../../../report-templates/run.html")),
        ("run-list.html", include_str!("../../../report-templates/run-list.html")),
        ("report.md", include_str!("../../../report-templates/report.md")),
        ("index.html", include_str!("../../../report-templates/index.html")),
        ("readme.html", include_str!("../../../report-templates/readme.html")),
        ("compare.html", include_str!("../../../report-templates/compare.html")),
        ("compare.md", include_str!("../../../report-templates/compare.md")),
        ("compare-summary.md", include_str!("../../../report-templates/compare-summary.md")),
        ("history.html", include_str!("../../../report-templates/history.html")),
        ("history.md", include_str!("../../../report-templates/history.md")),
    ])
    .expect("the bundled templates parse");
    tera.register_filter("md", markdown_escape);
    tera
}

/// The `md` filter: dataset text in a Markdown template, escaped by [`markdown::escape`].
fn markdown_escape(value: &tera::Value, _: &std::collections::HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let text = match value {
        tera::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    Ok(tera::Value::String(markdown::escape(&text)))
}

/// Template `name` filled with `page`, the page that goes `at` (a path relative to the folder of
/// its stylesheet).
fn render(tera: &tera::Tera, name: &str, page: &impl serde::Serialize, at: &str) -> Result<Vec<u8>, RenderError> {
    let mut context = tera::Context::new();
    context.insert("page", page);
    context.insert("stylesheet", &paths::stylesheet_href(at));
    tera.render(name, &context).map(|page| bidi::neutralised(page).into_bytes()).map_err(|error| {
        let mut message = error.to_string();
        let mut inner = std::error::Error::source(&error);
        while let Some(e) = inner {
            message = format!("{message}: {e}");
            inner = e.source();
        }
        RenderError::Template { name: name.to_string(), message }
    })
}

/// Renders each article in its own language and discards the text: what `analyze check` runs so
/// that an article citing a name that does not exist fails check, not only report.
pub fn check_articles(
    report: &Report,
    articles: &BTreeMap<Lang, (String, String)>,
    comparison: Option<&crate::report::compare::ComparisonReport>,
) -> Result<(), RenderError> {
    for (lang, (file, source)) in articles {
        for in_site in [false, true] {
            let context = Context { comparison, ..Context::new(report, *lang, in_site) };
            article::render_markdown(file, source, &article::names(&context))?;
        }
    }
    Ok(())
}

/// Every file of one report in one language: pages, Markdown twin, figures, JSON and CSV.
/// `articles` maps a language to (file name, Markdown source).
pub fn report_files(report: &Report, lang: Lang, articles: &BTreeMap<Lang, (String, String)>, in_site: bool) -> Result<Files, RenderError> {
    let mut files = Files::new();
    emit_report(report, lang, articles, in_site, &mut |path, bytes| {
        files.insert(path, bytes);
        Ok(())
    })?;
    Ok(files)
}

/// [`report_files`], each file handed to `emit` as soon as it is rendered (runs in parallel
/// batches, handed over in run order).
pub fn emit_report(
    report: &Report,
    lang: Lang,
    articles: &BTreeMap<Lang, (String, String)>,
    in_site: bool,
    emit: &mut Emit,
) -> Result<(), RenderError> {
    emit_report_with(report, lang, articles, in_site, &[], None, emit)
}

/// [`emit_report`] with links to comparisons (a site's, see `site::site_files`) near the top
/// of the report page and its Markdown twin, and the dataset's comparison with its baseline for
/// its article to cite.
pub fn emit_report_with(
    report: &Report,
    lang: Lang,
    articles: &BTreeMap<Lang, (String, String)>,
    in_site: bool,
    comparisons: &[view::KeyValue],
    comparison: Option<&crate::report::compare::ComparisonReport>,
    emit: &mut Emit,
) -> Result<(), RenderError> {
    let tera = templates();
    let context = Context { comparison, ..Context::new(report, lang, in_site) };
    // Two producers, one writer: the report's own pages (rendered one after another) and the
    // runs' pages and figures (rendered in parallel batches) are made at once, on other threads,
    // while this one writes each file as it comes. Made in turn, the report's pages left a core
    // idle and the runs' rendering waited for every batch to be written (30,000 runs: 90,000
    // files). The folder is the same whatever the order its files arrive in.
    let (sender, files) = std::sync::mpsc::sync_channel::<Result<(String, Vec<u8>), RenderError>>(FILES_IN_FLIGHT);
    std::thread::scope(|scope| {
        let context = &context;
        let report_sender = sender.clone();
        scope.spawn(move || {
            let send = |path: String, bytes: Vec<u8>| report_sender.send(Ok((path, bytes))).is_ok();
            if let Err(error) = report_files_of(tera, context, report, lang, articles, comparisons, &send) {
                let _ = report_sender.send(Err(error));
            }
        });
        scope.spawn(move || {
            use rayon::prelude::*;
            let runs: Vec<usize> = (0..report.runs.len()).collect();
            for batch in runs.chunks(RUNS_PER_BATCH) {
                let rendered: Vec<Result<RunFiles, RenderError>> = batch.par_iter().map(|&run| run_files(tera, context, run)).collect();
                for run in rendered {
                    // An error is sent as the last item; a failed send means the writer stopped.
                    let (files, error) = match run {
                        Ok(files) => (files, None),
                        Err(error) => (Vec::new(), Some(error)),
                    };
                    if !files.into_iter().all(|file| sender.send(Ok(file)).is_ok()) {
                        return;
                    }
                    if let Some(error) = error {
                        let _ = sender.send(Err(error));
                        return;
                    }
                }
            }
        });
        // The first error ends the writing; dropping the receiver then stops both producers.
        for file in files {
            let (path, bytes) = file?;
            emit(path, bytes)?;
        }
        Ok(())
    })
}

/// Files on their way from the renderers to the writer at most: a few megabytes of pages and
/// figures, so the renderers run ahead of the disk without holding a report of 10^5 runs.
const FILES_IN_FLIGHT: usize = 256;

/// One of the report's own files, made when called: `None` when the report has no such file.
type ReportFile<'a> = Box<dyn Fn() -> Result<Option<(String, Vec<u8>)>, RenderError> + Send + Sync + 'a>;

/// The report's own files (its page, Markdown twin, variance page, README page, exports, the
/// dataset's figures and the pages of the run list), made in parallel and each handed to `send`
/// as it is made; `send` says whether the writer still wants them. One after another they were a
/// fifth of the work of a report of 30,000 runs, on one core.
fn report_files_of(
    tera: &'static tera::Tera,
    context: &Context,
    report: &Report,
    lang: Lang,
    articles: &BTreeMap<Lang, (String, String)>,
    comparisons: &[view::KeyValue],
    send: &(dyn Fn(String, Vec<u8>) -> bool + Sync),
) -> Result<(), RenderError> {
    use rayon::prelude::*;
    let (article_html, article_md) = match articles.get(&lang) {
        Some((file, source)) => {
            let markdown = article::join_cjk_lines(&article::render_markdown(file, source, &article::names(context))?);
            (Some(article::markdown_to_html(&markdown, context.t.author_table, context.t.scroll_cue)), Some(markdown))
        }
        None => (None, None),
    };
    let page =
        move |article: &Option<String>| view::ReportPage { comparisons: comparisons.to_vec(), ..context.report_page(article.clone()) };
    let file = |path: String, bytes: Vec<u8>| Ok(Some((path, bytes)));
    let mut jobs: Vec<ReportFile> = vec![
        Box::new(move || file(paths::REPORT_PAGE.into(), render(tera, "report.html", &page(&article_html), paths::REPORT_PAGE)?)),
        Box::new(move || file(paths::MARKDOWN_TWIN.into(), render(tera, "report.md", &page(&article_md), paths::MARKDOWN_TWIN)?)),
        Box::new(|| file(paths::VARIANCE_PAGE.into(), render(tera, "variance.html", &context.variance_page(), paths::VARIANCE_PAGE)?)),
        Box::new(|| {
            context
                .readme_page()
                .map(|page| Ok((paths::README_PAGE.into(), render(tera, "readme.html", &page, paths::README_PAGE)?)))
                .transpose()
        }),
        Box::new(|| file(paths::STYLESHEET.into(), CSS.as_bytes().to_vec())),
        Box::new(|| file(paths::SUMMARY_JSON.into(), exports::summary_json(report).into_bytes())),
        Box::new(|| file(paths::RUNS_CSV.into(), exports::runs_csv(report).into_bytes())),
        Box::new(|| file(paths::CONDITIONS_CSV.into(), exports::conditions_csv(report).into_bytes())),
    ];
    // The report's own figures, as the plan names them (a run's figure it shows is drawn with
    // its run).
    for &figure in &context.figures.report {
        jobs.push(Box::new(move || Ok(draw(context, figure).map(|svg| (figure.path(&context.slugs), svg.into_bytes())))));
    }
    if context.runs_paged() {
        for page in 1..=report.runs.len().div_ceil(paths::RUNS_PER_PAGE) {
            jobs.push(Box::new(move || {
                let path = paths::run_list_page(page);
                let bytes = render(tera, "run-list.html", &context.run_list_page(page), &path)?;
                file(path, bytes)
            }));
        }
    }
    // Once the writer stopped taking files (it failed), the rest are dropped unsent: its error is
    // the one reported.
    jobs.par_iter().try_for_each(|job| {
        if let Some((path, bytes)) = job()? {
            send(path, bytes);
        }
        Ok(())
    })
}

/// A run's page and figures: each path with its bytes.
type RunFiles = Vec<(String, Vec<u8>)>;

/// One run's page and figures.
fn run_files(tera: &tera::Tera, context: &Context, run: usize) -> Result<RunFiles, RenderError> {
    let slug = &context.slugs[run];
    let page = paths::run_page(slug);
    let bytes = render(tera, "run.html", &context.run_page(run), &page)?;
    let mut files = vec![(page, bytes)];
    for &figure in context.figures.run(run) {
        files.extend(draw(context, figure).map(|svg| (figure.path(&context.slugs), svg.into_bytes())));
    }
    Ok(files)
}

/// Figure `figure` of the plan, drawn: `None` when its chart has nothing to draw, or when the
/// figure is drawn elsewhere (the report page's time series is its run's).
fn draw(context: &Context, figure: figures::Figure) -> Option<String> {
    use figures::Figure;
    let (report, lang) = (context.report, context.lang);
    match figure {
        Figure::Headline => Some(charts::headline_by_condition(report, lang)),
        Figure::HeadlineAt(level) => {
            context.figures.headline_split.as_ref().map(|split| charts::headline_at_level(report, split.factor, level, lang))
        }
        Figure::WorstTimeSeries(_) => None,
        Figure::EcdfConditions(level) => charts::ecdf_by_condition(report, level, context.figures.overlays_levels, &context.slugs, lang),
        Figure::Large => charts::write_vs_completion(report, lang),
        Figure::Tempfiles => charts::tempfiles_over_time(report, &context.figures.tempfile_runs, lang),
        Figure::RunEcdf(run) => Some(charts::ecdf(report, run, &context.slugs[run], lang)),
        Figure::RunTimeSeries(run) => Some(charts::latency_over_time(report, run, &context.slugs[run], lang)),
        Figure::LabelEcdf(run) => charts::ecdf_by_label(report, run, &|name| context.label_text(name), lang),
        Figure::SendLag(run) => Some(charts::send_lag(report, run, lang)),
        Figure::Resources(run) => charts::resources_over_time(report, run, lang),
        Figure::RunTempfiles(run) => charts::tempfiles_over_time(report, &[run], lang),
    }
}
