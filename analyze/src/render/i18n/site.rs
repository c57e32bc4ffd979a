//! The words of the site's index (`analyze site`) that only it uses, in English and Japanese: what
//! tells the cards of one study's measurements apart (folder, revision, aborted runs), and the
//! list of dataset folders that could not be read. Placeholders in braces are filled by
//! `render::site`.

use crate::model::Lang;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct SiteWords {
    /// The card's folder name and revision (dataset.toml's `history.revision`).
    pub folder: &'static str,
    pub revision: &'static str,
    /// A card's runs when some were left out: "{runs}" and "{left_out}", a list of `aborted`
    /// and `excluded`.
    pub runs_left_out: &'static str,
    pub aborted: &'static str,
    pub excluded: &'static str,
    /// The dataset folders that could not be read, each with its error.
    pub broken_heading: &'static str,
    pub broken_lead: &'static str,
}

pub fn words(lang: Lang) -> &'static SiteWords {
    match lang {
        Lang::En => &EN,
        Lang::Ja => &JA,
    }
}

static EN: SiteWords = SiteWords {
    folder: "Folder",
    revision: "Revision",
    runs_left_out: "{runs} ({left_out})",
    aborted: "{n} aborted",
    excluded: "{n} excluded",
    broken_heading: "Datasets not shown",
    broken_lead: "These dataset folders could not be read, so the site has no pages for them; the error says what to fix.",
};

static JA: SiteWords = SiteWords {
    folder: "フォルダ",
    revision: "リビジョン",
    runs_left_out: "{runs}（うち{left_out}）",
    aborted: "中断{n}回",
    excluded: "除外{n}回",
    broken_heading: "表示していないデータセット",
    broken_lead: "次のデータセットのフォルダは読み込めなかったため、ページがありません。直すべき点はエラーに示しています。",
};
