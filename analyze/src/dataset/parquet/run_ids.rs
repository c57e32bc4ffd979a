//! The `run_id` column of requests.parquet as run codes, through its dictionary.
//!
//! Writers store `run_id` dictionary-encoded: a dictionary page with each distinct id once, then
//! data pages of small integer indices into it. The crate's typed reader hands every cell back as
//! a reference-counted copy of its dictionary entry, which analyze then looked up by text: at 10M
//! rows that was 14% of `check`'s samples (bench/PROFILE.md). Here the crate still reads and
//! decompresses every page (every codec, page version and checksum it knows); this module looks
//! each dictionary entry up once per row group and turns the pages' indices into run codes, so no
//! row touches a string. It decodes only what a dictionary-encoded string column needs: the
//! dictionary page (PLAIN byte arrays), the RLE / bit-packed hybrid of definition levels and
//! indices. Any other page (a writer's PLAIN fallback, DELTA byte arrays, deprecated BIT_PACKED
//! levels) hands the rest of the column chunk to the crate's typed reader, so every file the
//! crate reads still reads; the measurement that justifies this module is in bench/PROFILE.md.

use bytes::Bytes;
use parquet::basic::Encoding;
use parquet::column::page::{Page, PageMetadata, PageReader};
use parquet::errors::{ParquetError, Result};
use std::collections::VecDeque;

fn damaged(what: &str) -> ParquetError {
    ParquetError::General(format!("column `run_id`: {what}"))
}

/// What the dictionary path needs from the caller: the run code of an id's bytes.
pub trait Codes {
    fn code(&mut self, id: &[u8]) -> u32;
}

/// Run codes of a column chunk, page by page; or, after a page this module does not decode, the
/// pages left for the crate's typed reader.
pub struct RunIds {
    pages: Option<Box<dyn PageReader>>,
    nullable: bool,
    /// The dictionary page, kept to replay it to the typed reader.
    dictionary_page: Option<Page>,
    /// Run code of each dictionary entry.
    dictionary: Vec<u32>,
    /// Codes of the current page, and how many were handed out.
    codes: Vec<u32>,
    taken: usize,
    levels: Vec<u32>,
    indices: Vec<u32>,
}

/// The outcome of a [`RunIds::read`]: codes, or the chunk's remaining pages for the typed reader.
pub enum Read {
    Codes(usize),
    /// A page was not dictionary-encoded: these pages (the dictionary, that page, the rest)
    /// continue the chunk where the codes stopped.
    Fallback(Box<dyn PageReader>),
}

/// The code of a null `run_id`.
pub const NULL: u32 = u32::MAX - 1;

impl RunIds {
    pub fn new(pages: Box<dyn PageReader>, nullable: bool) -> Self {
        RunIds {
            pages: Some(pages),
            nullable,
            dictionary_page: None,
            dictionary: Vec::new(),
            codes: Vec::new(),
            taken: 0,
            levels: Vec::new(),
            indices: Vec::new(),
        }
    }

    /// Appends the codes of up to `want` rows to `out`; fewer only at the end of the chunk.
    pub fn read(&mut self, want: usize, out: &mut Vec<u32>, codes: &mut impl Codes) -> Result<Read> {
        let mut got = 0;
        while got < want {
            if self.taken == self.codes.len() {
                let Some(pages) = self.pages.as_mut() else { break };
                let Some(page) = pages.get_next_page()? else { break };
                if let Some(fallback) = self.load(page, codes)? {
                    return Ok(Read::Fallback(fallback));
                }
                continue;
            }
            let n = (want - got).min(self.codes.len() - self.taken);
            out.extend_from_slice(&self.codes[self.taken..self.taken + n]);
            self.taken += n;
            got += n;
        }
        Ok(Read::Codes(got))
    }

    /// Decodes `page` into codes; a page this module does not decode returns the pages for the
    /// typed reader instead.
    fn load(&mut self, page: Page, codes: &mut impl Codes) -> Result<Option<Box<dyn PageReader>>> {
        self.codes.clear();
        self.taken = 0;
        let decoded = match &page {
            Page::DictionaryPage { buf, num_values, encoding: Encoding::PLAIN | Encoding::PLAIN_DICTIONARY, .. } => {
                self.dictionary.clear();
                for id in plain_byte_arrays(buf, *num_values as usize)? {
                    self.dictionary.push(codes.code(id));
                }
                self.dictionary_page = Some(page.clone());
                true
            }
            Page::DataPage { buf, num_values, encoding, def_level_encoding, .. }
                if is_dictionary(*encoding) && (!self.nullable || *def_level_encoding == Encoding::RLE) =>
            {
                let rows = *num_values as usize;
                let values = if self.nullable {
                    let length = buf.get(..4).ok_or_else(|| damaged("a page ends inside its definition levels"))?;
                    let length = u32::from_le_bytes(length.try_into().expect("four bytes")) as usize;
                    let levels = buf.get(4..4 + length).ok_or_else(|| damaged("a page ends inside its definition levels"))?;
                    hybrid(levels, 1, rows, &mut self.levels)?;
                    buf.slice(4 + length..)
                } else {
                    buf.clone()
                };
                self.fill(&values, rows)?;
                true
            }
            Page::DataPageV2 { buf, num_values, encoding, def_levels_byte_len, rep_levels_byte_len, .. } if is_dictionary(*encoding) => {
                let rows = *num_values as usize;
                let (rep, def) = (*rep_levels_byte_len as usize, *def_levels_byte_len as usize);
                let levels = buf.get(rep..rep + def).ok_or_else(|| damaged("a page ends inside its definition levels"))?;
                if self.nullable {
                    hybrid(levels, 1, rows, &mut self.levels)?;
                }
                self.fill(&buf.slice(rep + def..), rows)?;
                true
            }
            _ => false,
        };
        if decoded {
            return Ok(None);
        }
        let rest = self.pages.take().expect("pages are read until a fallback");
        let replay: VecDeque<Page> = self.dictionary_page.take().into_iter().chain([page]).collect();
        Ok(Some(Box::new(Replay { pending: replay, rest })))
    }

    /// The codes of a data page of `rows` rows whose values (bit width, then indices) are `values`.
    fn fill(&mut self, values: &Bytes, rows: usize) -> Result<()> {
        let present = if self.nullable { self.levels.iter().filter(|&&l| l == 1).count() } else { rows };
        self.indices.clear();
        if present > 0 {
            let (&width, indices) = values.split_first().ok_or_else(|| damaged("a data page has no dictionary indices"))?;
            if width > 32 {
                return Err(damaged("a data page's dictionary indices are wider than 32 bits"));
            }
            hybrid(indices, width, present, &mut self.indices)?;
        }
        let dictionary = &self.dictionary;
        let code =
            |index: u32| dictionary.get(index as usize).copied().ok_or_else(|| damaged("a dictionary index points past the dictionary"));
        self.codes.reserve(rows);
        if self.nullable {
            let mut indices = self.indices.iter();
            for &level in &self.levels {
                self.codes.push(if level == 1 { code(*indices.next().expect("one index per present row"))? } else { NULL });
            }
        } else {
            for &index in &self.indices {
                self.codes.push(code(index)?);
            }
        }
        Ok(())
    }
}

fn is_dictionary(encoding: Encoding) -> bool {
    matches!(encoding, Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY)
}

/// The `count` values of a PLAIN-encoded byte-array page (a 4-byte little-endian length, then
/// the bytes, per value).
fn plain_byte_arrays(buf: &[u8], count: usize) -> Result<Vec<&[u8]>> {
    let mut out = Vec::with_capacity(count.min(buf.len() / 4));
    let mut at = 0usize;
    for _ in 0..count {
        let length = buf.get(at..at + 4).ok_or_else(|| damaged("the dictionary page ends early"))?;
        let length = u32::from_le_bytes(length.try_into().expect("four bytes")) as usize;
        let value = buf.get(at + 4..at + 4 + length).ok_or_else(|| damaged("the dictionary page ends early"))?;
        out.push(value);
        at += 4 + length;
    }
    Ok(out)
}

/// Decodes exactly `count` values of Parquet's RLE / bit-packed hybrid encoding of `width`-bit
/// values from `data` into `out` (cleared first). Runs past `count` (a bit-packed group's
/// padding) are ignored.
pub fn hybrid(data: &[u8], width: u8, count: usize, out: &mut Vec<u32>) -> Result<()> {
    out.clear();
    out.reserve(count);
    let short = || damaged("a page ends inside its RLE / bit-packed values");
    let value_bytes = usize::from(width).div_ceil(8);
    let mut at = 0usize;
    while out.len() < count {
        let (header, used) = uleb128(&data[at.min(data.len())..]).ok_or_else(short)?;
        at += used;
        if header & 1 == 0 {
            // An RLE run: a count, then the value in whole bytes.
            let run = (header >> 1) as usize;
            let bytes = data.get(at..at + value_bytes).ok_or_else(short)?;
            let mut value = 0u32;
            for (i, &b) in bytes.iter().enumerate() {
                value |= u32::from(b) << (8 * i);
            }
            if width < 32 && value >> width != 0 {
                return Err(damaged("an RLE value is wider than its bit width"));
            }
            at += value_bytes;
            if run == 0 {
                return Err(damaged("an RLE run of zero values"));
            }
            let n = run.min(count - out.len());
            out.resize(out.len() + n, value);
        } else {
            // Bit-packed groups of eight values, least significant bit first.
            let groups = (header >> 1) as usize;
            let bytes = groups.checked_mul(usize::from(width)).ok_or_else(short)?;
            let packed = data.get(at..at.checked_add(bytes).ok_or_else(short)?).ok_or_else(short)?;
            at += bytes;
            let n = (groups * 8).min(count - out.len());
            if width == 0 {
                out.resize(out.len() + n, 0);
                continue;
            }
            let mask = if width == 32 { u64::from(u32::MAX) } else { (1u64 << width) - 1 };
            for i in 0..n {
                let bit = i * usize::from(width);
                let mut word = [0u8; 8];
                let tail = &packed[bit / 8..(bit / 8 + 8).min(packed.len())];
                word[..tail.len()].copy_from_slice(tail);
                out.push(((u64::from_le_bytes(word) >> (bit % 8)) & mask) as u32);
            }
        }
    }
    Ok(())
}

/// An unsigned LEB128 integer (at most 32 bits) and the bytes it took.
fn uleb128(data: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in data.iter().enumerate().take(5) {
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// Pages already taken from a chunk, then the chunk's other pages: hands a column chunk over to
/// the crate's typed reader midway.
struct Replay {
    pending: VecDeque<Page>,
    rest: Box<dyn PageReader>,
}

impl Iterator for Replay {
    type Item = Result<Page>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}

impl PageReader for Replay {
    fn get_next_page(&mut self) -> Result<Option<Page>> {
        match self.pending.pop_front() {
            Some(page) => Ok(Some(page)),
            None => self.rest.get_next_page(),
        }
    }

    fn peek_next_page(&mut self) -> Result<Option<PageMetadata>> {
        match self.pending.front() {
            Some(Page::DictionaryPage { .. }) => Ok(Some(PageMetadata { num_rows: None, num_levels: None, is_dict: true })),
            Some(Page::DataPage { num_values, .. }) => {
                Ok(Some(PageMetadata { num_rows: None, num_levels: Some(*num_values as usize), is_dict: false }))
            }
            Some(Page::DataPageV2 { num_values, num_rows, .. }) => {
                Ok(Some(PageMetadata { num_rows: Some(*num_rows as usize), num_levels: Some(*num_values as usize), is_dict: false }))
            }
            None => self.rest.peek_next_page(),
        }
    }

    fn skip_next_page(&mut self) -> Result<()> {
        match self.pending.pop_front() {
            Some(_) => Ok(()),
            None => self.rest.skip_next_page(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(data: &[u8], width: u8, count: usize) -> Result<Vec<u32>> {
        let mut out = Vec::new();
        hybrid(data, width, count, &mut out).map(|()| out)
    }

    #[test]
    fn an_rle_run_repeats_its_value() {
        // 300 times the value 5 at 3 bits: header 300 << 1 = 600 = 0xd8 0x04, one value byte.
        assert_eq!(decode(&[0xd8, 0x04, 5], 3, 300).unwrap(), vec![5; 300]);
        // A wider value takes two bytes, little-endian.
        assert_eq!(decode(&[0x04, 0x34, 0x12], 13, 2).unwrap(), vec![0x1234; 2]);
    }

    #[test]
    fn bit_packed_values_are_read_least_significant_bit_first_and_padding_is_ignored() {
        // The Parquet spec's example: 0..7 at 3 bits is one group, bytes 0x88 0xc6 0xfa.
        assert_eq!(decode(&[0x03, 0x88, 0xc6, 0xfa], 3, 8).unwrap(), (0..8).collect::<Vec<u32>>());
        assert_eq!(decode(&[0x03, 0x88, 0xc6, 0xfa], 3, 5).unwrap(), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn runs_of_both_kinds_follow_each_other() {
        // Two 1s (RLE, 1 bit), then a group of 8 bits 0b0101_0101 (bit-packed).
        assert_eq!(decode(&[0x04, 0x01, 0x03, 0x55], 1, 10).unwrap(), vec![1, 1, 1, 0, 1, 0, 1, 0, 1, 0]);
    }

    #[test]
    fn a_short_or_impossible_run_is_an_error_not_a_panic() {
        assert!(decode(&[0xd8, 0x04], 3, 300).is_err(), "the value byte is missing");
        assert!(decode(&[0x05, 0x88], 3, 16).is_err(), "two groups announced, one byte given");
        assert!(decode(&[0x02, 0x09], 3, 1).is_err(), "9 does not fit in 3 bits");
        assert!(decode(&[0x00, 0x01], 1, 1).is_err(), "a run of zero values would never end");
        assert!(decode(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 1, 1).is_err(), "a header longer than 32 bits");
        assert!(decode(&[], 1, 1).is_err());
    }

    #[test]
    fn plain_byte_arrays_are_length_prefixed() {
        let page = [2, 0, 0, 0, b'r', b'1', 0, 0, 0, 0, 3, 0, 0, 0, b'a', b'b', b'c'];
        assert_eq!(plain_byte_arrays(&page, 3).unwrap(), vec![&b"r1"[..], b"", b"abc"]);
        assert!(plain_byte_arrays(&page, 4).is_err());
        assert!(plain_byte_arrays(&page[..15], 3).is_err());
    }
}
