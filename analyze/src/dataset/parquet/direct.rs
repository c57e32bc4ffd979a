//! A Parquet reader for the requests table that decodes pages straight into the row checks.
//!
//! polars builds a whole DataFrame per slice (strings for every run id, a fresh allocation per
//! column) before the first row can be checked; this reader decompresses one page at a time into
//! reused buffers, turns run ids into run indexes once per dictionary, and never builds a column.
//! It reads what common writers produce (flat required or optional columns, PLAIN and dictionary
//! encodings, data pages v1 and v2, the usual codecs). Anything else is [`DirectError::Unsupported`],
//! and the caller reads the file with polars instead, so an unusual file is slower, never wrong.

use super::meta::{codec, encoding, page_type, physical, repetition, ColumnMeta, FileMeta, Logical, PageHeader, SchemaElement};
use crate::dataset::requests::{plausible, RowBatch, RowPlace, RunIndex};
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;

#[derive(Debug)]
pub enum DirectError {
    /// The file is fine, but uses something this reader does not decode.
    Unsupported(String),
    /// The file is damaged or inconsistent.
    Corrupt(String),
    Io(std::io::Error),
}

impl std::fmt::Display for DirectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DirectError::Unsupported(what) => write!(f, "{what} is not supported by the direct reader"),
            DirectError::Corrupt(what) => f.write_str(what),
            DirectError::Io(error) => write!(f, "{error}"),
        }
    }
}

impl From<std::io::Error> for DirectError {
    fn from(error: std::io::Error) -> Self {
        DirectError::Io(error)
    }
}

type Result<T> = std::result::Result<T, DirectError>;

fn corrupt(what: impl Into<String>) -> DirectError {
    DirectError::Corrupt(what.into())
}

fn unsupported(what: impl Into<String>) -> DirectError {
    DirectError::Unsupported(what.into())
}

/// What a column is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    RunId,
    Integer,
    Float,
}

/// The requests columns in the order a row is built from them.
const COLUMNS: [(&str, Target); 6] = [
    ("run_id", Target::RunId),
    ("seq", Target::Integer),
    ("scheduled_ms", Target::Float),
    ("sent_ms", Target::Float),
    ("latency_ms", Target::Float),
    ("status", Target::Integer),
];

/// One column chunk: where its pages are and how to decode them.
#[derive(Debug, Clone)]
struct ChunkPlan {
    physical: i32,
    codec: i32,
    optional: bool,
    start: u64,
    end: u64,
}

/// The parts of the file the scan needs, checked against what this reader supports.
#[derive(Debug)]
pub struct Plan {
    /// Rows of each row group.
    pub group_rows: Vec<u64>,
    /// Per row group, one chunk per entry of [`COLUMNS`].
    chunks: Vec<[ChunkPlan; 6]>,
}

/// Reads and checks the footer. `Err(Unsupported)` means: read this file with polars.
pub fn plan(file: &File) -> Result<Plan> {
    let meta = footer(file)?;
    plan_from(&meta, file.metadata()?.len())
}

fn footer(file: &File) -> Result<FileMeta> {
    let length = file.metadata()?.len();
    if length < 12 {
        return Err(corrupt("is too short to be a Parquet file"));
    }
    let mut tail = [0u8; 8];
    file.read_exact_at(&mut tail, length - 8)?;
    if &tail[4..] == b"PARE" {
        return Err(unsupported("an encrypted footer"));
    }
    if &tail[4..] != b"PAR1" {
        return Err(corrupt("does not end with the Parquet magic bytes"));
    }
    let footer_length = u64::from(u32::from_le_bytes(tail[..4].try_into().expect("4 bytes")));
    if footer_length + 12 > length {
        return Err(corrupt("footer length is larger than the file"));
    }
    let mut footer = vec![0u8; footer_length as usize];
    file.read_exact_at(&mut footer, length - 8 - footer_length)?;
    FileMeta::parse(&footer).map_err(|e| corrupt(format!("footer: {e}")))
}

fn plan_from(meta: &FileMeta, file_length: u64) -> Result<Plan> {
    let leaves = top_level_leaves(&meta.schema)?;
    let mut columns = Vec::with_capacity(COLUMNS.len());
    for (name, target) in COLUMNS {
        let (index, element) =
            leaves.iter().find(|(_, e)| e.name == name).ok_or_else(|| unsupported(format!("column `{name}` not at the top level")))?;
        check_type(name, target, element)?;
        let optional = match element.repetition {
            Some(repetition::REQUIRED) => false,
            Some(repetition::OPTIONAL) | None => true,
            Some(_) => return Err(unsupported(format!("repeated column `{name}`"))),
        };
        columns.push((*index, optional, element.physical.unwrap_or(-1)));
    }
    let mut group_rows = Vec::with_capacity(meta.row_groups.len());
    let mut chunks = Vec::with_capacity(meta.row_groups.len());
    for group in &meta.row_groups {
        let rows = u64::try_from(group.num_rows).map_err(|_| corrupt("a row group has a negative row count"))?;
        let plans = COLUMNS.iter().zip(&columns).map(|(&(name, _), &(index, optional, physical))| {
            let chunk = group.columns.get(index).ok_or_else(|| corrupt(format!("a row group lacks column `{name}`")))?;
            if chunk.file_path.is_some() {
                return Err(unsupported("a column stored in another file"));
            }
            let meta = chunk.meta.as_ref().ok_or_else(|| unsupported(format!("encrypted column `{name}`")))?;
            chunk_plan(name, meta, physical, optional, rows, file_length)
        });
        let plans: Vec<ChunkPlan> = plans.collect::<Result<_>>()?;
        group_rows.push(rows);
        chunks.push(plans.try_into().expect("one plan per column"));
    }
    let total: u64 = group_rows.iter().sum();
    if i64::try_from(total).ok() != Some(meta.num_rows) {
        return Err(corrupt(format!("row groups hold {total} rows but the footer says {}", meta.num_rows)));
    }
    Ok(Plan { group_rows, chunks })
}

/// The first requests column stored as a DECIMAL, which the polars build cannot read.
pub fn decimal_column(file: &File) -> Option<String> {
    let meta = footer(file).ok()?;
    let leaves = top_level_leaves(&meta.schema).ok()?;
    COLUMNS.iter().find_map(|&(name, _)| {
        let (_, element) = leaves.iter().find(|(_, e)| e.name == name)?;
        let decimal = element.logical == Some(Logical::Decimal) || element.converted == Some(super::meta::converted::DECIMAL);
        decimal.then(|| name.to_string())
    })
}

/// Each top-level leaf column with its index among all leaf columns (the order of column chunks).
fn top_level_leaves(schema: &[SchemaElement]) -> Result<Vec<(usize, &SchemaElement)>> {
    let root = schema.first().ok_or_else(|| corrupt("the schema is empty"))?;
    let mut leaves = Vec::new();
    let mut position = 1;
    let mut leaf_index = 0;
    for _ in 0..root.num_children {
        let element = schema.get(position).ok_or_else(|| corrupt("the schema ends early"))?;
        if element.num_children == 0 {
            leaves.push((leaf_index, element));
            leaf_index += 1;
            position += 1;
        } else {
            // A group: count its leaves to keep the column index right, but do not offer them.
            let mut pending = 1usize;
            while pending > 0 {
                let element = schema.get(position).ok_or_else(|| corrupt("the schema ends early"))?;
                pending -= 1;
                if element.num_children > 0 {
                    pending += element.num_children as usize;
                } else {
                    leaf_index += 1;
                }
                position += 1;
            }
        }
    }
    Ok(leaves)
}

/// Accepts the types polars reads as the same numbers this reader produces; anything else
/// (unsigned, decimal, dates, timestamps, binary ids) goes to polars and its casts.
fn check_type(name: &str, target: Target, element: &SchemaElement) -> Result<()> {
    use super::meta::converted;
    let signed_integer = matches!(element.logical, None | Some(Logical::Integer { signed: true }))
        && matches!(element.converted, None | Some(converted::INT_8 | converted::INT_16 | converted::INT_32 | converted::INT_64));
    let plain = element.logical.is_none() && element.converted.is_none();
    let ok = match (target, element.physical) {
        (Target::RunId, Some(physical::BYTE_ARRAY)) => {
            matches!(element.logical, Some(Logical::String)) || (element.logical.is_none() && element.converted == Some(converted::UTF8))
        }
        (Target::Integer | Target::Float, Some(physical::INT32 | physical::INT64)) => signed_integer,
        (Target::Float, Some(physical::FLOAT | physical::DOUBLE)) => plain,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(unsupported(format!("the type of column `{name}`")))
    }
}

fn chunk_plan(name: &str, meta: &ColumnMeta, physical: i32, optional: bool, rows: u64, file_length: u64) -> Result<ChunkPlan> {
    if meta.path.len() != 1 || meta.path[0] != name {
        return Err(corrupt(format!("column chunk for `{name}` has path {:?}", meta.path)));
    }
    if meta.physical != physical {
        return Err(corrupt(format!("column chunk for `{name}` has a different type than the schema")));
    }
    if !matches!(meta.codec, codec::UNCOMPRESSED | codec::SNAPPY | codec::GZIP | codec::BROTLI | codec::ZSTD | codec::LZ4_RAW) {
        return Err(unsupported(format!("compression codec {} of column `{name}`", meta.codec)));
    }
    for &used in &meta.encodings {
        if !matches!(used, encoding::PLAIN | encoding::PLAIN_DICTIONARY | encoding::RLE | encoding::RLE_DICTIONARY) {
            return Err(unsupported(format!("encoding {used} of column `{name}`")));
        }
    }
    if u64::try_from(meta.num_values).ok() != Some(rows) {
        return Err(corrupt(format!("column `{name}` has {} values in a row group of {rows} rows", meta.num_values)));
    }
    let start = match meta.dictionary_page_offset {
        Some(offset) if offset > 0 && offset < meta.data_page_offset => offset,
        _ => meta.data_page_offset,
    };
    let start = u64::try_from(start).map_err(|_| corrupt(format!("column `{name}` starts at a negative offset")))?;
    let end = u64::try_from(meta.total_compressed_size).ok().and_then(|size| start.checked_add(size)).filter(|&end| end <= file_length);
    let end = end.ok_or_else(|| corrupt(format!("column `{name}` reaches past the end of the file")))?;
    Ok(ChunkPlan { physical: meta.physical, codec: meta.codec, optional, start, end })
}

/// Turns run-id bytes into run codes: a run index, [`RunIndex::IGNORED`], or an unknown id.
pub struct RunCoder<'a> {
    index: &'a RunIndex,
    /// Texts of unknown ids, so the error can quote them; only the first few are kept, since only
    /// the first problems are shown.
    unknown: Vec<String>,
}

/// Codes from this on are unknown run ids (an index into the coder's texts).
const UNKNOWN: u32 = 0x8000_0000;
const KEPT_UNKNOWN: usize = 256;

/// Whether a run code stands for an id that runs.csv does not have ([`RunIndex::IGNORED`] is
/// known: its rows are checked, then skipped).
pub fn is_unknown(code: u32) -> bool {
    (UNKNOWN..=UNKNOWN + KEPT_UNKNOWN as u32).contains(&code)
}

impl<'a> RunCoder<'a> {
    pub fn new(index: &'a RunIndex) -> Self {
        RunCoder { index, unknown: Vec::new() }
    }

    fn code(&mut self, id: &[u8]) -> u32 {
        if let Some(run) = self.index.get(id) {
            return run;
        }
        if self.unknown.len() == KEPT_UNKNOWN {
            return UNKNOWN + KEPT_UNKNOWN as u32;
        }
        self.unknown.push(String::from_utf8_lossy(id).into_owned());
        UNKNOWN + self.unknown.len() as u32 - 1
    }

    /// The id behind an unknown code; `None` past the first [`KEPT_UNKNOWN`] of a row group.
    pub fn unknown_text(&self, code: u32) -> Option<&str> {
        self.unknown.get((code - UNKNOWN) as usize).map(String::as_str)
    }

    /// Forgets the unknown ids of the previous row group: its codes are no longer in use.
    fn next_group(&mut self) {
        self.unknown.clear();
    }
}

/// A value type rows are built from, decoded from a Parquet physical type.
trait Decode: Copy + Default {
    /// Appends `count` PLAIN-encoded values from `bytes`.
    fn plain(physical: i32, bytes: &[u8], count: usize, out: &mut Vec<Self>, runs: &mut RunCoder) -> Result<()>;
}

fn fixed<const N: usize, T>(bytes: &[u8], count: usize, out: &mut Vec<T>, convert: impl Fn([u8; N]) -> T) -> Result<()> {
    let needed =
        count.checked_mul(N).filter(|&n| n <= bytes.len()).ok_or_else(|| corrupt("a page holds fewer values than its header says"))?;
    out.extend(bytes[..needed].chunks_exact(N).map(|chunk| convert(chunk.try_into().expect("N bytes"))));
    Ok(())
}

impl Decode for f64 {
    fn plain(physical: i32, bytes: &[u8], count: usize, out: &mut Vec<f64>, _: &mut RunCoder) -> Result<()> {
        match physical {
            physical::DOUBLE => fixed(bytes, count, out, f64::from_le_bytes),
            physical::FLOAT => fixed(bytes, count, out, |b| f64::from(f32::from_le_bytes(b))),
            physical::INT32 => fixed(bytes, count, out, |b| f64::from(i32::from_le_bytes(b))),
            physical::INT64 => fixed(bytes, count, out, |b| i64::from_le_bytes(b) as f64),
            _ => Err(unsupported("a non-numeric float column")),
        }
    }
}

impl Decode for i64 {
    fn plain(physical: i32, bytes: &[u8], count: usize, out: &mut Vec<i64>, _: &mut RunCoder) -> Result<()> {
        match physical {
            physical::INT32 => fixed(bytes, count, out, |b| i64::from(i32::from_le_bytes(b))),
            physical::INT64 => fixed(bytes, count, out, i64::from_le_bytes),
            _ => Err(unsupported("a non-integer integer column")),
        }
    }
}

impl Decode for u32 {
    fn plain(physical: i32, bytes: &[u8], count: usize, out: &mut Vec<u32>, runs: &mut RunCoder) -> Result<()> {
        if physical != physical::BYTE_ARRAY {
            return Err(unsupported("a run_id that is not a string"));
        }
        let mut rest = bytes;
        // Rows come grouped by run: reuse the previous row's code when the bytes repeat.
        let mut last: Option<(&[u8], u32)> = None;
        for _ in 0..count {
            let length = rest.get(..4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize);
            let id = length.and_then(|length| rest.get(4..4 + length)).ok_or_else(|| corrupt("a string value runs past its page"))?;
            rest = &rest[4 + id.len()..];
            let code = match last {
                Some((last_id, code)) if last_id == id => code,
                _ => runs.code(id),
            };
            last = Some((id, code));
            out.push(code);
        }
        Ok(())
    }
}

/// Decodes `count` values of the RLE / bit-packed hybrid encoding, appending them to `out`.
fn decode_hybrid(bytes: &[u8], bit_width: u32, count: usize, out: &mut Vec<u32>) -> Result<()> {
    if bit_width > 32 {
        return Err(corrupt(format!("bit width {bit_width} is more than 32")));
    }
    let short = || corrupt("run-length data ends early");
    let value_bytes = bit_width.div_ceil(8) as usize;
    let mask = if bit_width == 32 { u32::MAX } else { (1u32 << bit_width) - 1 };
    let target = out.len() + count;
    let mut position = 0;
    while out.len() < target {
        let mut header = 0u64;
        let mut shift = 0;
        loop {
            let byte = *bytes.get(position).ok_or_else(short)?;
            position += 1;
            header |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 63 {
                return Err(corrupt("a run-length header is too long"));
            }
        }
        let wanted = target - out.len();
        if header & 1 == 0 {
            let repeat = usize::try_from(header >> 1).unwrap_or(usize::MAX).min(wanted);
            let raw = bytes.get(position..position + value_bytes).ok_or_else(short)?;
            position += value_bytes;
            let mut value = [0u8; 4];
            value[..value_bytes].copy_from_slice(raw);
            out.resize(out.len() + repeat, u32::from_le_bytes(value) & mask);
        } else {
            let groups = usize::try_from(header >> 1).map_err(|_| short())?;
            let length = groups.checked_mul(bit_width as usize).ok_or_else(short)?;
            // A writer may end the last group early: take what is there.
            let packed = bytes.get(position..).ok_or_else(short)?;
            let packed = &packed[..length.min(packed.len())];
            position += packed.len();
            let available = packed.len() * 8 / bit_width.max(1) as usize;
            let take = (groups * 8).min(wanted).min(if bit_width == 0 { usize::MAX } else { available });
            out.extend((0..take).map(|i| {
                let bit = i * bit_width as usize;
                let byte = bit / 8;
                let word = match packed.get(byte..byte + 8) {
                    Some(eight) => u64::from_le_bytes(eight.try_into().expect("8 bytes")),
                    None => {
                        // The last few values of the data: pad with zeros.
                        let tail = &packed[byte..];
                        let mut word = [0u8; 8];
                        word[..tail.len()].copy_from_slice(tail);
                        u64::from_le_bytes(word)
                    }
                };
                (word >> (bit % 8)) as u32 & mask
            }));
            if take < (groups * 8).min(wanted) {
                return Err(short());
            }
        }
    }
    Ok(())
}

/// Reads a page's definition levels (bit width 1) into `levels`, leaving it empty when one run
/// of ones says every row has a value, which is how writers store a column without nulls.
fn read_levels(bytes: &[u8], rows: usize, levels: &mut Vec<u32>) -> Result<()> {
    levels.clear();
    let mut header = 0u64;
    let mut length = 0;
    for (i, &byte) in bytes.iter().enumerate().take(10) {
        header |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            length = i + 1;
            break;
        }
    }
    if length > 0 && header & 1 == 0 && header >> 1 >= rows as u64 && bytes.get(length) == Some(&1) {
        return Ok(());
    }
    decode_hybrid(bytes, 1, rows, levels)
}

/// Per-worker decompression state, reused across pages.
pub struct Decompressors {
    zstd: Option<zstd::bulk::Decompressor<'static>>,
    snappy: snap::raw::Decoder,
}

impl Decompressors {
    pub fn new() -> Self {
        Decompressors { zstd: None, snappy: snap::raw::Decoder::new() }
    }

    fn decompress(&mut self, codec: i32, input: &[u8], size: usize, out: &mut Vec<u8>) -> Result<()> {
        out.clear();
        let failed = |e: &dyn std::fmt::Display| corrupt(format!("a page cannot be decompressed: {e}"));
        match codec {
            codec::UNCOMPRESSED => out.extend_from_slice(input),
            codec::ZSTD => {
                if self.zstd.is_none() {
                    self.zstd = Some(zstd::bulk::Decompressor::new().map_err(|e| failed(&e))?);
                }
                out.reserve(size);
                self.zstd.as_mut().expect("made above").decompress_to_buffer(input, out).map_err(|e| failed(&e))?;
            }
            codec::SNAPPY => {
                out.resize(size, 0);
                let written = self.snappy.decompress(input, out).map_err(|e| failed(&e))?;
                out.truncate(written);
            }
            codec::GZIP => {
                flate2::read::MultiGzDecoder::new(input).read_to_end(out).map_err(|e| failed(&e))?;
            }
            codec::BROTLI => {
                brotli::Decompressor::new(input, 4096).read_to_end(out).map_err(|e| failed(&e))?;
            }
            codec::LZ4_RAW => {
                out.resize(size, 0);
                let written = lz4::block::decompress_to_buffer(input, Some(size as i32), out).map_err(|e| failed(&e))?;
                out.truncate(written);
            }
            other => return Err(unsupported(format!("compression codec {other}"))),
        }
        if out.len() != size {
            return Err(corrupt(format!("a page decompressed to {} bytes where its header says {size}", out.len())));
        }
        Ok(())
    }
}

/// Buffers one worker reuses for every page.
pub struct Scratch {
    pub decompressors: Decompressors,
    header: Vec<u8>,
    compressed: Vec<u8>,
    page: Vec<u8>,
    levels: Vec<u32>,
    indices: Vec<u32>,
}

impl Scratch {
    pub fn new() -> Self {
        Scratch {
            decompressors: Decompressors::new(),
            header: Vec::new(),
            compressed: Vec::new(),
            page: Vec::new(),
            levels: Vec::new(),
            indices: Vec::new(),
        }
    }
}

/// The decoded, not yet used rows of one column chunk, refilled a page at a time.
struct Cursor<T> {
    name: &'static str,
    chunk: ChunkPlan,
    offset: u64,
    rows_left: u64,
    dictionary: Option<Vec<T>>,
    values: Vec<T>,
    /// Whether each row has a value (false: null).
    valid: Vec<bool>,
    dense: Vec<T>,
    next: usize,
}

impl<T: Decode> Cursor<T> {
    fn new(name: &'static str) -> Self {
        let chunk = ChunkPlan { physical: 0, codec: 0, optional: false, start: 0, end: 0 };
        Cursor { name, chunk, offset: 0, rows_left: 0, dictionary: None, values: Vec::new(), valid: Vec::new(), dense: Vec::new(), next: 0 }
    }

    fn start(&mut self, chunk: &ChunkPlan, rows: u64) {
        self.chunk = chunk.clone();
        self.offset = chunk.start;
        self.rows_left = rows;
        self.dictionary = None;
        self.values.clear();
        self.valid.clear();
        self.next = 0;
    }

    fn buffered(&self) -> usize {
        self.values.len() - self.next
    }

    /// Decodes pages until at least one row is buffered (or the chunk is used up).
    fn fill(&mut self, file: &File, scratch: &mut Scratch, runs: &mut RunCoder) -> Result<()> {
        while self.buffered() == 0 && self.rows_left > 0 {
            self.values.clear();
            self.valid.clear();
            self.next = 0;
            self.read_page(file, scratch, runs).map_err(|e| match e {
                DirectError::Corrupt(what) => corrupt(format!("column `{}`: {what}", self.name)),
                other => other,
            })?;
        }
        Ok(())
    }

    fn read_page(&mut self, file: &File, scratch: &mut Scratch, runs: &mut RunCoder) -> Result<()> {
        let remaining =
            self.chunk.end.checked_sub(self.offset).filter(|&r| r > 0).ok_or_else(|| corrupt("pages end before the rows do"))?;
        let (header, header_length) = read_header(file, self.offset, remaining, &mut scratch.header)?;
        let body_length = usize::try_from(header.compressed_size).map_err(|_| corrupt("a page has a negative size"))?;
        let uncompressed = usize::try_from(header.uncompressed_size).map_err(|_| corrupt("a page has a negative size"))?;
        // A page is a few MiB at most in practice; a larger size is more likely damage than data.
        if uncompressed > 1 << 30 {
            return Err(corrupt(format!("a page claims {uncompressed} bytes uncompressed")));
        }
        let body_start = self.offset + header_length as u64;
        if body_start + body_length as u64 > self.chunk.end {
            return Err(corrupt("a page reaches past its column chunk"));
        }
        self.offset = body_start + body_length as u64;
        let mut compressed = std::mem::take(&mut scratch.compressed);
        let mut page = std::mem::take(&mut scratch.page);
        compressed.resize(body_length, 0);
        let result = match file.read_exact_at(&mut compressed, body_start) {
            Ok(()) => self.decode_page(&header, &compressed, &mut page, uncompressed, scratch, runs),
            Err(error) => Err(error.into()),
        };
        scratch.compressed = compressed;
        scratch.page = page;
        result
    }

    fn decode_page(
        &mut self,
        header: &PageHeader,
        compressed: &[u8],
        page: &mut Vec<u8>,
        uncompressed: usize,
        scratch: &mut Scratch,
        runs: &mut RunCoder,
    ) -> Result<()> {
        match header.page_type {
            page_type::DICTIONARY_PAGE => {
                let header = header.dictionary.as_ref().ok_or_else(|| corrupt("a dictionary page has no dictionary header"))?;
                if !matches!(header.encoding, encoding::PLAIN | encoding::PLAIN_DICTIONARY) {
                    return Err(unsupported(format!("dictionary encoding {}", header.encoding)));
                }
                scratch.decompressors.decompress(self.chunk.codec, compressed, uncompressed, page)?;
                let count = usize::try_from(header.num_values).map_err(|_| corrupt("a negative dictionary size"))?;
                let mut dictionary = self.dictionary.take().unwrap_or_default();
                dictionary.clear();
                T::plain(self.chunk.physical, page, count, &mut dictionary, runs)?;
                self.dictionary = Some(dictionary);
            }
            page_type::DATA_PAGE => {
                let header = header.data.as_ref().ok_or_else(|| corrupt("a data page has no data header"))?;
                scratch.levels.clear();
                scratch.decompressors.decompress(self.chunk.codec, compressed, uncompressed, page)?;
                let rows = self.page_rows(header.num_values)?;
                let mut body: &[u8] = page;
                if self.chunk.optional {
                    if header.definition_level_encoding != encoding::RLE {
                        return Err(unsupported(format!("definition level encoding {}", header.definition_level_encoding)));
                    }
                    let length = body.get(..4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize);
                    let levels =
                        length.and_then(|length| body.get(4..4 + length)).ok_or_else(|| corrupt("definition levels run past the page"))?;
                    read_levels(levels, rows, &mut scratch.levels)?;
                    body = &body[4 + levels.len()..];
                }
                self.decode_values(header.encoding, body, rows, scratch, runs)?;
            }
            page_type::DATA_PAGE_V2 => {
                let header = header.data_v2.as_ref().ok_or_else(|| corrupt("a data page has no data header"))?;
                let rows = self.page_rows(header.num_values)?;
                if header.repetition_levels_length != 0 {
                    return Err(unsupported("repetition levels"));
                }
                let levels_length = usize::try_from(header.definition_levels_length).map_err(|_| corrupt("negative level length"))?;
                let levels = compressed.get(..levels_length).ok_or_else(|| corrupt("definition levels run past the page"))?;
                scratch.levels.clear();
                if self.chunk.optional && header.num_nulls != 0 {
                    read_levels(levels, rows, &mut scratch.levels)?;
                }
                let size = uncompressed.checked_sub(levels_length).ok_or_else(|| corrupt("levels are longer than the page"))?;
                let codec = if header.is_compressed { self.chunk.codec } else { codec::UNCOMPRESSED };
                scratch.decompressors.decompress(codec, &compressed[levels_length..], size, page)?;
                self.decode_values(header.encoding, page, rows, scratch, runs)?;
            }
            // Index pages and page types from newer writers carry no rows.
            _ => {}
        }
        Ok(())
    }

    fn page_rows(&self, num_values: i32) -> Result<usize> {
        let rows = u64::try_from(num_values).map_err(|_| corrupt("a page has a negative value count"))?;
        if rows > self.rows_left {
            return Err(corrupt("a page holds more rows than its row group"));
        }
        Ok(rows as usize)
    }

    /// Decodes a page's values; `scratch.levels` holds its definition levels when the column is
    /// optional and some rows may be null, and is empty when every row has a value.
    fn decode_values(&mut self, value_encoding: i32, body: &[u8], rows: usize, scratch: &mut Scratch, runs: &mut RunCoder) -> Result<()> {
        let present = if scratch.levels.is_empty() { rows } else { scratch.levels.iter().filter(|&&level| level == 1).count() };
        let all_present = present == rows;
        // Values are decoded densely, then spread over the rows when some are null.
        let mut dense = std::mem::take(&mut self.dense);
        dense.clear();
        let out = if all_present { &mut self.values } else { &mut dense };
        match value_encoding {
            encoding::PLAIN => T::plain(self.chunk.physical, body, present, out, runs)?,
            encoding::PLAIN_DICTIONARY | encoding::RLE_DICTIONARY => {
                let dictionary =
                    self.dictionary.as_ref().ok_or_else(|| corrupt("a dictionary-encoded page comes before its dictionary"))?;
                let (&bit_width, indices) = body.split_first().ok_or_else(|| corrupt("a dictionary page has no bit width"))?;
                scratch.indices.clear();
                if present > 0 {
                    decode_hybrid(indices, u32::from(bit_width), present, &mut scratch.indices)?;
                }
                if scratch.indices.iter().any(|&index| index as usize >= dictionary.len()) {
                    return Err(corrupt("a dictionary index is out of range"));
                }
                out.extend(scratch.indices.iter().map(|&index| dictionary[index as usize]));
            }
            other => return Err(unsupported(format!("encoding {other}"))),
        }
        if all_present {
            self.valid.resize(self.values.len(), true);
        } else {
            let start = self.values.len();
            self.values.resize(start + rows, T::default());
            self.valid.extend(scratch.levels.iter().map(|&level| level == 1));
            let mut dense_values = dense.iter();
            for (slot, &level) in self.values[start..].iter_mut().zip(&scratch.levels) {
                if level == 1 {
                    *slot = *dense_values.next().expect("counted above");
                }
            }
        }
        self.dense = dense;
        self.rows_left -= rows as u64;
        Ok(())
    }

    /// The next `length` buffered rows.
    fn window(&self, length: usize) -> Window<'_, T> {
        let range = self.next..self.next + length;
        Window { values: &self.values[range.clone()], valid: &self.valid[range] }
    }
}

/// Equal-length slices of values and validity, so the row loop indexes without surprises.
#[derive(Clone, Copy)]
struct Window<'a, T> {
    values: &'a [T],
    valid: &'a [bool],
}

impl<T: Copy> Window<'_, T> {
    #[inline(always)]
    fn get(&self, i: usize) -> Option<T> {
        if self.valid[i] {
            Some(self.values[i])
        } else {
            None
        }
    }
}

/// Reads the page header at `offset`, growing the read window until the header fits.
fn read_header(file: &File, offset: u64, remaining: u64, buffer: &mut Vec<u8>) -> Result<(PageHeader, usize)> {
    let mut window = 256u64.min(remaining);
    loop {
        buffer.resize(window as usize, 0);
        file.read_exact_at(buffer, offset)?;
        match PageHeader::parse(buffer) {
            Ok(parsed) => return Ok(parsed),
            Err(_) if window < remaining => window = (window * 4).min(remaining),
            Err(error) => return Err(corrupt(format!("page header: {error}"))),
        }
    }
}

/// Where [`Columns::read_group`] hands the rows.
pub trait Rows {
    /// False when `seq` and `scheduled_ms` are not needed (they then read as 0 and `sent_ms`).
    fn needs_all_columns(&self) -> bool;
    /// One row as read, before the row checks.
    fn row(&mut self, row: &RawRow, place: RowPlace, runs: &RunCoder);
    /// Clean rows of one known run, the first at `first`.
    fn batch(&mut self, batch: &RowBatch, first: RowPlace);
}

/// The end of the clean rows from `from`: every column has a value and `same(j)` holds.
#[inline]
fn clean_rows(from: usize, to: usize, valid: [&[bool]; 6], same: impl Fn(usize) -> bool) -> usize {
    let mut end = from;
    while end < to && valid.iter().all(|column| column[end]) && same(end) {
        end += 1;
    }
    end
}

/// One row as read, before the row checks.
pub struct RawRow {
    pub run: Option<u32>,
    pub seq: Option<i64>,
    pub scheduled_ms: Option<f64>,
    pub sent_ms: Option<f64>,
    pub latency_ms: Option<f64>,
    pub status: Option<i64>,
}

/// The six column cursors of one worker.
pub struct Columns {
    run_id: Cursor<u32>,
    seq: Cursor<i64>,
    scheduled_ms: Cursor<f64>,
    sent_ms: Cursor<f64>,
    latency_ms: Cursor<f64>,
    status: Cursor<i64>,
    /// Stand-ins for `seq` when a reader does not need it: zeros, all present.
    zeros: Vec<i64>,
    present: Vec<bool>,
}

impl Columns {
    pub fn new() -> Self {
        Columns {
            run_id: Cursor::new("run_id"),
            seq: Cursor::new("seq"),
            scheduled_ms: Cursor::new("scheduled_ms"),
            sent_ms: Cursor::new("sent_ms"),
            latency_ms: Cursor::new("latency_ms"),
            status: Cursor::new("status"),
            zeros: Vec::new(),
            present: Vec::new(),
        }
    }

    /// Hands every row of row group `group` to `rows`, in order, with its 1-based place: runs of
    /// clean rows (one known run, one status, every value present and plausible) as batches, the
    /// others one by one.
    pub fn read_group(
        &mut self,
        file: &File,
        plan: &Plan,
        group: usize,
        scratch: &mut Scratch,
        runs: &mut RunCoder,
        rows_to: &mut impl Rows,
    ) -> Result<()> {
        let rows = plan.group_rows[group];
        let chunks = &plan.chunks[group];
        runs.next_group();
        // A reader that needs neither seq nor the schedule (the figures pass, on a file already
        // checked) is spared decompressing them.
        let all = rows_to.needs_all_columns();
        self.run_id.start(&chunks[0], rows);
        if all {
            self.seq.start(&chunks[1], rows);
            self.scheduled_ms.start(&chunks[2], rows);
        }
        self.sent_ms.start(&chunks[3], rows);
        self.latency_ms.start(&chunks[4], rows);
        self.status.start(&chunks[5], rows);
        let mut done = 0u64;
        while done < rows {
            self.run_id.fill(file, scratch, runs)?;
            if all {
                self.seq.fill(file, scratch, runs)?;
                self.scheduled_ms.fill(file, scratch, runs)?;
            }
            self.sent_ms.fill(file, scratch, runs)?;
            self.latency_ms.fill(file, scratch, runs)?;
            self.status.fill(file, scratch, runs)?;
            let mut window = [self.run_id.buffered(), self.sent_ms.buffered(), self.latency_ms.buffered(), self.status.buffered()]
                .into_iter()
                .min()
                .expect("four columns");
            if all {
                window = window.min(self.seq.buffered()).min(self.scheduled_ms.buffered());
            }
            if window == 0 {
                return Err(corrupt("a column has fewer rows than its row group"));
            }
            let (run_id, sent_ms, latency_ms, status) =
                (self.run_id.window(window), self.sent_ms.window(window), self.latency_ms.window(window), self.status.window(window));
            let (seq, scheduled_ms) = if all {
                (self.seq.window(window), self.scheduled_ms.window(window))
            } else {
                if self.zeros.len() < window {
                    self.zeros.resize(window, 0);
                    self.present.resize(window, true);
                }
                // The schedule stands in as the send time: no lag, and the checks see finite values.
                (Window { values: &self.zeros[..window], valid: &self.present[..window] }, sent_ms)
            };
            let place = |i: usize| RowPlace { block: group as u32, within: done + i as u64 + 1 };
            let mut i = 0;
            while i < window {
                let end = clean_rows(
                    i,
                    window,
                    [run_id.valid, seq.valid, scheduled_ms.valid, sent_ms.valid, latency_ms.valid, status.valid],
                    |j| {
                        run_id.values[j] == run_id.values[i]
                            && status.values[j] == status.values[i]
                            && plausible(Some(latency_ms.values[j]), status.values[j], scheduled_ms.values[j], sent_ms.values[j], None)
                    },
                );
                if end > i && !is_unknown(run_id.values[i]) && run_id.values[i] != RunIndex::IGNORED {
                    let batch = RowBatch {
                        run: run_id.values[i],
                        seq: &seq.values[i..end],
                        scheduled_ms: &scheduled_ms.values[i..end],
                        sent_ms: &sent_ms.values[i..end],
                        latency_ms: &latency_ms.values[i..end],
                        status: &status.values[i..end],
                    };
                    rows_to.batch(&batch, place(i));
                    i = end;
                    continue;
                }
                let row = RawRow {
                    run: run_id.get(i),
                    seq: seq.get(i),
                    scheduled_ms: scheduled_ms.get(i),
                    sent_ms: sent_ms.get(i),
                    latency_ms: latency_ms.get(i),
                    status: status.get(i),
                };
                rows_to.row(&row, place(i), runs);
                i += 1;
            }
            self.run_id.next += window;
            if all {
                self.seq.next += window;
                self.scheduled_ms.next += window;
            }
            self.sent_ms.next += window;
            self.latency_ms.next += window;
            self.status.next += window;
            done += window as u64;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hybrid_decodes_runs_and_packed_groups() {
        // RLE run of 3 × 5 (bit width 3), then one bit-packed group of 0..8.
        // Bit-packed 0..7 at width 3: 0b10001000, 0b11000110, 0b11111010 (LSB first).
        let bytes = [0x06, 0x05, 0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
        let mut out = Vec::new();
        decode_hybrid(&bytes, 3, 11, &mut out).unwrap();
        assert_eq!(out, vec![5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn hybrid_stops_at_the_count_inside_a_group_and_rejects_short_data() {
        let bytes = [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
        let mut out = Vec::new();
        decode_hybrid(&bytes, 3, 5, &mut out).unwrap();
        assert_eq!(out, vec![0, 1, 2, 3, 4]);
        assert!(decode_hybrid(&bytes[..2], 3, 8, &mut Vec::new()).is_err());
        assert!(decode_hybrid(&[], 1, 1, &mut Vec::new()).is_err());
    }

    #[test]
    fn hybrid_reads_wide_values() {
        // RLE run of 2 × 70000 at bit width 17 (3 value bytes).
        let bytes = [0x04, 0x70, 0x11, 0x01];
        let mut out = Vec::new();
        decode_hybrid(&bytes, 17, 2, &mut out).unwrap();
        assert_eq!(out, vec![70000, 70000]);
    }

    #[test]
    fn unknown_ids_past_the_kept_few_are_unknown_without_a_text() {
        let index = RunIndex::new(["a"]);
        let mut coder = RunCoder::new(&index);
        let codes: Vec<u32> = (0..KEPT_UNKNOWN + 2).map(|i| coder.code(format!("x{i}").as_bytes())).collect();
        assert!(codes.iter().all(|&code| is_unknown(code)));
        assert_eq!(coder.unknown_text(codes[KEPT_UNKNOWN - 1]), Some(format!("x{}", KEPT_UNKNOWN - 1).as_str()));
        assert_eq!(coder.unknown_text(codes[KEPT_UNKNOWN + 1]), None, "never another id's text");
        coder.next_group();
        let code = coder.code(b"y");
        assert_eq!(coder.unknown_text(code), Some("y"));
    }

    #[test]
    fn levels_of_one_run_of_ones_mean_no_nulls() {
        let mut levels = vec![7];
        // 300 rows of 1: header 600 = 0xd8 0x04.
        read_levels(&[0xd8, 0x04, 0x01], 300, &mut levels).unwrap();
        assert!(levels.is_empty());
        // Two rows of 1, then two of 0: decoded.
        read_levels(&[0x04, 0x01, 0x04, 0x00], 4, &mut levels).unwrap();
        assert_eq!(levels, vec![1, 1, 0, 0]);
    }

    #[test]
    fn run_coder_keeps_unknown_ids_for_messages() {
        let index = RunIndex::new(["a", "b"]);
        let mut coder = RunCoder::new(&index);
        let mut out = Vec::new();
        let bytes = [&1u32.to_le_bytes()[..], b"b", &1u32.to_le_bytes(), b"b", &1u32.to_le_bytes(), b"x"].concat();
        u32::plain(physical::BYTE_ARRAY, &bytes, 3, &mut out, &mut coder).unwrap();
        assert_eq!(&out[..2], &[1, 1]);
        assert!(is_unknown(out[2]));
        assert!(!is_unknown(RunIndex::IGNORED) && !is_unknown(1));
        assert_eq!(coder.unknown_text(out[2]), Some("x"));
        assert!(u32::plain(physical::BYTE_ARRAY, &bytes[..6], 2, &mut Vec::new(), &mut coder).is_err(), "a truncated string");
    }
}
