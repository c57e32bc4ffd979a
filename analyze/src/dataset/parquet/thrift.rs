//! The part of Thrift's compact protocol that Parquet's footer and page headers use.
//!
//! Structs are read field by field; a field we do not need is skipped by its wire type, so newer
//! writers' extra fields cost nothing.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThriftError(pub String);

impl fmt::Display for ThriftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub type Result<T> = std::result::Result<T, ThriftError>;

fn truncated() -> ThriftError {
    ThriftError("metadata ends in the middle of a value".to_string())
}

/// Wire types of the compact protocol.
pub mod wire {
    pub const STOP: u8 = 0;
    pub const TRUE: u8 = 1;
    pub const FALSE: u8 = 2;
    pub const BYTE: u8 = 3;
    pub const I16: u8 = 4;
    pub const I32: u8 = 5;
    pub const I64: u8 = 6;
    pub const DOUBLE: u8 = 7;
    pub const BINARY: u8 = 8;
    pub const LIST: u8 = 9;
    pub const SET: u8 = 10;
    pub const MAP: u8 = 11;
    pub const STRUCT: u8 = 12;
}

/// Nesting deeper than this is not Parquet metadata; it stops a hostile file from recursing forever.
const MAX_DEPTH: u32 = 64;

pub struct Reader<'a> {
    bytes: &'a [u8],
    position: usize,
}

/// One field header: its id and wire type.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub id: i16,
    pub kind: u8,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, position: 0 }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.position
    }

    fn byte(&mut self) -> Result<u8> {
        let byte = *self.bytes.get(self.position).ok_or_else(truncated)?;
        self.position += 1;
        Ok(byte)
    }

    fn varint(&mut self) -> Result<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(ThriftError("a varint is longer than 10 bytes".to_string()))
    }

    pub fn i64(&mut self) -> Result<i64> {
        let raw = self.varint()?;
        Ok((raw >> 1) as i64 ^ -((raw & 1) as i64))
    }

    pub fn i32(&mut self) -> Result<i32> {
        i32::try_from(self.i64()?).map_err(|_| ThriftError("an i32 field is out of range".to_string()))
    }

    pub fn binary(&mut self) -> Result<&'a [u8]> {
        let length = usize::try_from(self.varint()?).map_err(|_| truncated())?;
        let end = self.position.checked_add(length).filter(|&end| end <= self.bytes.len()).ok_or_else(truncated)?;
        let value = &self.bytes[self.position..end];
        self.position = end;
        Ok(value)
    }

    pub fn string(&mut self) -> Result<String> {
        Ok(String::from_utf8_lossy(self.binary()?).into_owned())
    }

    /// The next field of the struct being read, or `None` at its end. `last_id` is the previous
    /// field's id in the same struct (ids are delta-encoded).
    pub fn field(&mut self, last_id: &mut i16) -> Result<Option<Field>> {
        let header = self.byte()?;
        let kind = header & 0x0f;
        if kind == wire::STOP {
            return Ok(None);
        }
        let delta = header >> 4;
        let id = if delta == 0 {
            i16::try_from(self.i64()?).map_err(|_| ThriftError("a field id is out of range".to_string()))?
        } else {
            last_id.wrapping_add(i16::from(delta))
        };
        *last_id = id;
        Ok(Some(Field { id, kind }))
    }

    /// A list's element type and length.
    pub fn list(&mut self) -> Result<(u8, usize)> {
        let header = self.byte()?;
        let short = usize::from(header >> 4);
        let length = if short == 15 { usize::try_from(self.varint()?).map_err(|_| truncated())? } else { short };
        // Every element takes at least one byte, so a longer list cannot fit in what is left.
        if length > self.bytes.len() - self.position {
            return Err(truncated());
        }
        Ok((header & 0x0f, length))
    }

    /// A boolean field's value lives in its wire type.
    pub fn bool_of(field: Field) -> bool {
        field.kind == wire::TRUE
    }

    pub fn skip(&mut self, kind: u8) -> Result<()> {
        self.skip_at(kind, 0)
    }

    fn skip_at(&mut self, kind: u8, depth: u32) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(ThriftError("metadata is nested too deeply".to_string()));
        }
        match kind {
            wire::TRUE | wire::FALSE => {}
            wire::BYTE => {
                self.byte()?;
            }
            wire::I16 | wire::I32 | wire::I64 => {
                self.varint()?;
            }
            wire::DOUBLE => {
                self.position = self.position.checked_add(8).filter(|&end| end <= self.bytes.len()).ok_or_else(truncated)?;
            }
            wire::BINARY => {
                self.binary()?;
            }
            wire::LIST | wire::SET => {
                let (element, length) = self.list()?;
                for _ in 0..length {
                    if element == wire::TRUE || element == wire::FALSE {
                        self.byte()?;
                    } else {
                        self.skip_at(element, depth + 1)?;
                    }
                }
            }
            wire::MAP => {
                let length = self.varint()?;
                if length > 0 {
                    let kinds = self.byte()?;
                    for _ in 0..length {
                        self.skip_at(kinds >> 4, depth + 1)?;
                        self.skip_at(kinds & 0x0f, depth + 1)?;
                    }
                }
            }
            wire::STRUCT => {
                let mut last = 0;
                while let Some(field) = self.field(&mut last)? {
                    self.skip_at(field.kind, depth + 1)?;
                }
            }
            other => return Err(ThriftError(format!("unknown compact-protocol type {other}"))),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_zigzag_varints() {
        // 1 → -1, 2 → 1, 0xac 0x02 = 300 → 150.
        let mut reader = Reader::new(&[0x01, 0x02, 0xac, 0x02]);
        assert_eq!(reader.i64().unwrap(), -1);
        assert_eq!(reader.i64().unwrap(), 1);
        assert_eq!(reader.i64().unwrap(), 150);
        assert!(reader.i64().is_err(), "nothing is left");
    }

    #[test]
    fn reads_fields_with_delta_and_long_ids_and_skips_nested_values() {
        // field 1 i32 = 7; field 3 (delta 2) list<i64> [1, -1]; field 20 (long form) binary "ab";
        // field 21 struct { field 1 true }; stop.
        let bytes = [0x15, 0x0e, 0x29, 0x26, 0x02, 0x01, 0x08, 0x28, 0x02, b'a', b'b', 0x1c, 0x11, 0x00, 0x00];
        let mut reader = Reader::new(&bytes);
        let mut last = 0;
        let field = reader.field(&mut last).unwrap().unwrap();
        assert_eq!((field.id, field.kind), (1, wire::I32));
        assert_eq!(reader.i32().unwrap(), 7);
        let field = reader.field(&mut last).unwrap().unwrap();
        assert_eq!((field.id, field.kind), (3, wire::LIST));
        reader.skip(field.kind).unwrap();
        let field = reader.field(&mut last).unwrap().unwrap();
        assert_eq!((field.id, field.kind), (20, wire::BINARY));
        assert_eq!(reader.binary().unwrap(), b"ab");
        let field = reader.field(&mut last).unwrap().unwrap();
        assert_eq!((field.id, field.kind), (21, wire::STRUCT));
        reader.skip(field.kind).unwrap();
        assert!(reader.field(&mut last).unwrap().is_none());
        assert_eq!(reader.position(), bytes.len());
    }

    #[test]
    fn a_length_past_the_end_is_an_error_not_a_panic() {
        assert!(Reader::new(&[0x0a, b'x']).binary().is_err());
        assert!(Reader::new(&[0xf9, 0xff, 0xff, 0x7f]).list().is_err());
        assert!(Reader::new(&[0x80; 12]).i64().is_err());
    }
}
