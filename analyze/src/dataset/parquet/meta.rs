//! The footer and page headers of a Parquet file: only the fields the direct reader needs.
//!
//! Field ids and enum values are those of parquet-format's `parquet.thrift`.

use super::thrift::{wire, Field, Reader, Result, ThriftError};

pub mod physical {
    pub const INT32: i32 = 1;
    pub const INT64: i32 = 2;
    pub const FLOAT: i32 = 4;
    pub const DOUBLE: i32 = 5;
    pub const BYTE_ARRAY: i32 = 6;
}

pub mod repetition {
    pub const REQUIRED: i32 = 0;
    pub const OPTIONAL: i32 = 1;
}

pub mod encoding {
    pub const PLAIN: i32 = 0;
    pub const PLAIN_DICTIONARY: i32 = 2;
    pub const RLE: i32 = 3;
    pub const RLE_DICTIONARY: i32 = 8;
}

pub mod codec {
    pub const UNCOMPRESSED: i32 = 0;
    pub const SNAPPY: i32 = 1;
    pub const GZIP: i32 = 2;
    pub const BROTLI: i32 = 4;
    pub const ZSTD: i32 = 6;
    pub const LZ4_RAW: i32 = 7;
}

pub mod page_type {
    pub const DATA_PAGE: i32 = 0;
    pub const DICTIONARY_PAGE: i32 = 2;
    pub const DATA_PAGE_V2: i32 = 3;
}

pub mod converted {
    pub const UTF8: i32 = 0;
    pub const DECIMAL: i32 = 5;
    pub const INT_8: i32 = 15;
    pub const INT_16: i32 = 16;
    pub const INT_32: i32 = 17;
    pub const INT_64: i32 = 18;
}

/// A column's logical type, reduced to what decides how polars would read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Logical {
    String,
    Integer { signed: bool },
    Decimal,
    Other,
}

#[derive(Debug, Clone, Default)]
pub struct SchemaElement {
    pub physical: Option<i32>,
    pub repetition: Option<i32>,
    pub name: String,
    pub num_children: i32,
    pub converted: Option<i32>,
    pub logical: Option<Logical>,
}

#[derive(Debug, Clone, Default)]
pub struct ColumnMeta {
    pub physical: i32,
    pub encodings: Vec<i32>,
    pub path: Vec<String>,
    pub codec: i32,
    pub num_values: i64,
    pub total_compressed_size: i64,
    pub data_page_offset: i64,
    pub dictionary_page_offset: Option<i64>,
}

#[derive(Debug, Clone, Default)]
pub struct ColumnChunk {
    /// Set when the chunk lives in another file.
    pub file_path: Option<String>,
    /// Missing when the column is encrypted.
    pub meta: Option<ColumnMeta>,
}

#[derive(Debug, Clone, Default)]
pub struct RowGroup {
    pub num_rows: i64,
    pub columns: Vec<ColumnChunk>,
}

#[derive(Debug, Clone, Default)]
pub struct FileMeta {
    pub num_rows: i64,
    pub schema: Vec<SchemaElement>,
    pub row_groups: Vec<RowGroup>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DataPage {
    pub num_values: i32,
    pub encoding: i32,
    pub definition_level_encoding: i32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataPageV2 {
    pub num_values: i32,
    pub num_nulls: i32,
    pub encoding: i32,
    pub definition_levels_length: i32,
    pub repetition_levels_length: i32,
    pub is_compressed: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DictionaryPage {
    pub num_values: i32,
    pub encoding: i32,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageHeader {
    pub page_type: i32,
    pub uncompressed_size: i32,
    pub compressed_size: i32,
    pub data: Option<DataPage>,
    pub dictionary: Option<DictionaryPage>,
    pub data_v2: Option<DataPageV2>,
}

fn expect(field: Field, kind: u8) -> Result<()> {
    if field.kind == kind || (kind == wire::TRUE && field.kind == wire::FALSE) {
        Ok(())
    } else {
        Err(ThriftError(format!("field {} has wire type {} where {} was expected", field.id, field.kind, kind)))
    }
}

/// Calls `each` for every field of the struct at the reader; `each` returns false for a field
/// it does not read, which is then skipped.
fn fields<'a>(reader: &mut Reader<'a>, mut each: impl FnMut(&mut Reader<'a>, Field) -> Result<bool>) -> Result<()> {
    let mut last = 0;
    while let Some(field) = reader.field(&mut last)? {
        if !each(reader, field)? {
            reader.skip(field.kind)?;
        }
    }
    Ok(())
}

fn list<'a, T>(reader: &mut Reader<'a>, field: Field, mut item: impl FnMut(&mut Reader<'a>) -> Result<T>) -> Result<Vec<T>> {
    expect(field, wire::LIST)?;
    let (_, length) = reader.list()?;
    (0..length).map(|_| item(reader)).collect()
}

fn i32_field(reader: &mut Reader, field: Field) -> Result<i32> {
    expect(field, wire::I32)?;
    reader.i32()
}

fn i64_field(reader: &mut Reader, field: Field) -> Result<i64> {
    expect(field, wire::I64)?;
    reader.i64()
}

fn struct_field<'a, T>(reader: &mut Reader<'a>, field: Field, read: impl FnOnce(&mut Reader<'a>) -> Result<T>) -> Result<T> {
    expect(field, wire::STRUCT)?;
    read(reader)
}

impl FileMeta {
    pub fn parse(bytes: &[u8]) -> Result<FileMeta> {
        let mut meta = FileMeta::default();
        fields(&mut Reader::new(bytes), |r, f| {
            match f.id {
                2 => meta.schema = list(r, f, schema_element)?,
                3 => meta.num_rows = i64_field(r, f)?,
                4 => meta.row_groups = list(r, f, row_group)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(meta)
    }
}

fn schema_element(reader: &mut Reader) -> Result<SchemaElement> {
    let mut element = SchemaElement::default();
    fields(reader, |r, f| {
        match f.id {
            1 => element.physical = Some(i32_field(r, f)?),
            3 => element.repetition = Some(i32_field(r, f)?),
            4 => {
                expect(f, wire::BINARY)?;
                element.name = r.string()?;
            }
            5 => element.num_children = i32_field(r, f)?,
            6 => element.converted = Some(i32_field(r, f)?),
            10 => element.logical = Some(struct_field(r, f, logical_type)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(element)
}

/// LogicalType is a union: the one field present names the type.
fn logical_type(reader: &mut Reader) -> Result<Logical> {
    let mut logical = Logical::Other;
    fields(reader, |r, f| match f.id {
        1 => {
            logical = Logical::String;
            Ok(false)
        }
        10 => {
            let mut signed = false;
            struct_field(r, f, |r| {
                fields(r, |_, f| {
                    if f.id == 2 {
                        expect(f, wire::TRUE)?;
                        signed = Reader::bool_of(f);
                        return Ok(true);
                    }
                    Ok(false)
                })
            })?;
            logical = Logical::Integer { signed };
            Ok(true)
        }
        _ => Ok(false),
    })?;
    Ok(logical)
}

fn row_group(reader: &mut Reader) -> Result<RowGroup> {
    let mut group = RowGroup::default();
    fields(reader, |r, f| {
        match f.id {
            1 => group.columns = list(r, f, column_chunk)?,
            3 => group.num_rows = i64_field(r, f)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(group)
}

fn column_chunk(reader: &mut Reader) -> Result<ColumnChunk> {
    let mut chunk = ColumnChunk::default();
    fields(reader, |r, f| {
        match f.id {
            1 => {
                expect(f, wire::BINARY)?;
                chunk.file_path = Some(r.string()?);
            }
            3 => chunk.meta = Some(struct_field(r, f, column_meta)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(chunk)
}

fn column_meta(reader: &mut Reader) -> Result<ColumnMeta> {
    let mut meta = ColumnMeta::default();
    fields(reader, |r, f| {
        match f.id {
            1 => meta.physical = i32_field(r, f)?,
            2 => meta.encodings = list(r, f, |r| r.i32())?,
            3 => meta.path = list(r, f, |r| r.string())?,
            4 => meta.codec = i32_field(r, f)?,
            5 => meta.num_values = i64_field(r, f)?,
            7 => meta.total_compressed_size = i64_field(r, f)?,
            9 => meta.data_page_offset = i64_field(r, f)?,
            11 => meta.dictionary_page_offset = Some(i64_field(r, f)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(meta)
}

impl PageHeader {
    /// Parses a page header; returns it and its length in bytes.
    pub fn parse(bytes: &[u8]) -> Result<(PageHeader, usize)> {
        let mut header = PageHeader::default();
        let mut reader = Reader::new(bytes);
        fields(&mut reader, |r, f| {
            match f.id {
                1 => header.page_type = i32_field(r, f)?,
                2 => header.uncompressed_size = i32_field(r, f)?,
                3 => header.compressed_size = i32_field(r, f)?,
                5 => header.data = Some(struct_field(r, f, data_page)?),
                7 => header.dictionary = Some(struct_field(r, f, dictionary_page)?),
                8 => header.data_v2 = Some(struct_field(r, f, data_page_v2)?),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok((header, reader.position()))
    }
}

fn data_page(reader: &mut Reader) -> Result<DataPage> {
    let mut page = DataPage::default();
    fields(reader, |r, f| {
        match f.id {
            1 => page.num_values = i32_field(r, f)?,
            2 => page.encoding = i32_field(r, f)?,
            3 => page.definition_level_encoding = i32_field(r, f)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(page)
}

fn dictionary_page(reader: &mut Reader) -> Result<DictionaryPage> {
    let mut page = DictionaryPage::default();
    fields(reader, |r, f| {
        match f.id {
            1 => page.num_values = i32_field(r, f)?,
            2 => page.encoding = i32_field(r, f)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(page)
}

fn data_page_v2(reader: &mut Reader) -> Result<DataPageV2> {
    let mut page = DataPageV2 {
        num_values: 0,
        num_nulls: 0,
        encoding: 0,
        definition_levels_length: 0,
        repetition_levels_length: 0,
        is_compressed: true,
    };
    fields(reader, |r, f| {
        match f.id {
            1 => page.num_values = i32_field(r, f)?,
            2 => page.num_nulls = i32_field(r, f)?,
            4 => page.encoding = i32_field(r, f)?,
            5 => page.definition_levels_length = i32_field(r, f)?,
            6 => page.repetition_levels_length = i32_field(r, f)?,
            7 => {
                expect(f, wire::TRUE)?;
                page.is_compressed = Reader::bool_of(f);
            }
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(page)
}
