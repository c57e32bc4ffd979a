//! README.md: measure's generated text inside a marked block, and everything else left as the user wrote it.
//!
//! measure renders the README after every run and on `--resume`, but the file is also where people write
//! what only they know (the published numbers beside the measured ones, what differs from the original
//! study). So measure owns only the lines between [`BEGIN`] and [`END`] (HTML comments: GitHub and
//! `analyze` show nothing of them) and replaces only those; every byte outside them stays. A file measure
//! cannot place its block in (no markers, or markers out of order) is someone's own text: measure leaves it
//! exactly as it is and says so on stderr, once per process, since it saves after every run. A file that
//! holds exactly the generated text is measure's, and gets the markers around it.

use super::write_atomic;
use anyhow::{Context, Result};
use std::path::Path;
use std::sync::Once;

/// The file measure writes its block into.
pub const README_FILE: &str = "README.md";
/// The line opening measure's block (a line starting with `<!-- measure:begin` and ending with `-->`).
pub const BEGIN: &str = "<!-- measure:begin: measure rewrites the text up to measure:end after every run and on --resume; text outside this block is kept as written -->";
/// The line closing measure's block.
pub const END: &str = "<!-- measure:end -->";

/// What to do with README.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Merged {
    /// Write this text: the file is new, or measure's block in it is replaced.
    Write(String),
    /// Leave the file as it is, for this reason.
    Keep(String),
}

/// How a README says the runs were ordered (`in rounds ...` / `in the plan's shuffled order (seed N)`): a
/// plan without `order` (`None`) reads as it did before rounds.
pub fn order_words(order: Option<crate::plan::Order>, seed: u64) -> String {
    match order.unwrap_or_default() {
        crate::plan::Order::Rounds => {
            format!("in rounds (each round runs every condition once, in its own order shuffled with the seed {seed})")
        }
        crate::plan::Order::Shuffled => format!("in the plan's shuffled order (seed {seed})"),
    }
}

/// `generated` placed into `existing` (None: no file yet). Pure, so the rule is tested without files.
pub fn merge(existing: Option<&str>, generated: &str) -> Merged {
    let block = block(generated);
    let Some(existing) = existing else {
        return Merged::Write(block);
    };
    let mut begin = Vec::new();
    let mut end = Vec::new();
    let mut offset = 0;
    for (i, line) in existing.split_inclusive('\n').enumerate() {
        let text = line.trim_end();
        if text.starts_with("<!-- measure:begin") && text.ends_with("-->") {
            begin.push((i + 1, offset));
        } else if text == END {
            end.push((i + 1, offset + line.len()));
        }
        offset += line.len();
    }
    match (begin.as_slice(), end.as_slice()) {
        ([], []) if existing == generated => Merged::Write(block),
        ([], []) => Merged::Keep("it has no measure:begin and measure:end comments, so none of it is measure's to rewrite".into()),
        ([(_, from)], [(_, to)]) if from < to => Merged::Write(format!("{}{block}{}", &existing[..*from], &existing[*to..])),
        _ => {
            let lines: Vec<String> = begin
                .iter()
                .map(|(l, _)| format!("begin on line {l}"))
                .chain(end.iter().map(|(l, _)| format!("end on line {l}")))
                .collect();
            Merged::Keep(format!("it needs one measure:begin line before one measure:end line, and has {}", lines.join(", ")))
        }
    }
}

/// The generated text between the markers, ending with a newline.
fn block(generated: &str) -> String {
    let newline = if generated.ends_with('\n') { "" } else { "\n" };
    format!("{BEGIN}\n{generated}{newline}{END}\n")
}

/// Writes `dir/README.md` through [`merge`] (atomically), or leaves it and says why on stderr.
pub fn write_readme(dir: &Path, generated: &str) -> Result<()> {
    let path = dir.join(README_FILE);
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("failed to read {}", path.display())),
    };
    match merge(existing.as_deref(), generated) {
        Merged::Write(text) if existing.as_deref() == Some(text.as_str()) => Ok(()),
        Merged::Write(text) => write_atomic(dir, README_FILE, &text),
        Merged::Keep(reason) => {
            static SAID: Once = Once::new();
            SAID.call_once(|| {
                eprintln!(
                    "measure: left {} as it is: {reason}. To have measure keep its part current, put the lines \
                     `{BEGIN}` and `{END}` around that part (or delete the file to have measure write it anew).",
                    path.display()
                )
            });
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "# Title\n\n1 of 2 planned runs ok.\n";
    const NEW: &str = "# Title\n\n2 of 2 planned runs ok.\n";

    #[test]
    fn a_new_readme_is_the_generated_text_inside_the_markers() {
        assert_eq!(merge(None, NEW), Merged::Write(format!("{BEGIN}\n{NEW}{END}\n")));
        assert_eq!(merge(None, "no newline"), Merged::Write(format!("{BEGIN}\nno newline\n{END}\n")));
    }

    #[test]
    fn only_the_block_is_replaced_and_the_hand_written_text_around_it_stays_byte_for_byte() {
        let before = "Written above, by hand.\r\n\n";
        let after = "\n## Published beside measured\n\n| cell | published | measured |\n| --- | --- | --- |\n| c=1 | 1.57 | 1.61 |\n\nNo final newline";
        let existing = format!("{before}{BEGIN}\n{OLD}{END}\n{after}");
        let Merged::Write(text) = merge(Some(&existing), NEW) else { panic!("the block should be replaced") };
        assert_eq!(text, format!("{before}{BEGIN}\n{NEW}{END}\n{after}"));
        assert_eq!(merge(Some(&text), NEW), Merged::Write(text.clone()), "a second save changes nothing");
    }

    #[test]
    fn a_readme_without_markers_is_kept_unless_it_is_exactly_the_generated_text() {
        let mine = format!("{OLD}\n## Published beside measured\n\nBy hand.\n");
        assert!(matches!(merge(Some(&mine), NEW), Merged::Keep(r) if r.contains("no measure:begin")));
        assert!(matches!(merge(Some(OLD), NEW), Merged::Keep(_)), "an older generated text may have been edited");
        assert_eq!(merge(Some(NEW), NEW), Merged::Write(format!("{BEGIN}\n{NEW}{END}\n")));
    }

    #[test]
    fn markers_out_of_order_or_doubled_leave_the_file_and_name_their_lines() {
        let reversed = format!("{END}\nmine\n{BEGIN}\n{OLD}");
        assert_eq!(
            merge(Some(&reversed), NEW),
            Merged::Keep("it needs one measure:begin line before one measure:end line, and has begin on line 3, end on line 1".into())
        );
        let doubled = format!("{BEGIN}\n{OLD}{END}\n{BEGIN}\n{END}\n");
        assert!(matches!(merge(Some(&doubled), NEW), Merged::Keep(r) if r.contains("begin on line 1, begin on line 6")));
        let open = format!("{BEGIN}\n{OLD}");
        assert!(matches!(merge(Some(&open), NEW), Merged::Keep(r) if r.ends_with("has begin on line 1")));
    }

    #[test]
    fn write_readme_leaves_a_users_file_untouched_and_updates_a_marked_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(README_FILE);
        let mine = "# My notes\n\nNothing generated here.\n";
        std::fs::write(&path, mine).unwrap();
        write_readme(dir.path(), NEW).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), mine);

        std::fs::write(&path, format!("{BEGIN}\n{OLD}{END}\n{mine}")).unwrap();
        write_readme(dir.path(), NEW).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{BEGIN}\n{NEW}{END}\n{mine}"));
    }
}
