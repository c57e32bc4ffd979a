//! Reading the parts of a command plan serde's derive cannot: `[factors]` in the order the plan writes
//! them (a map would sort them), a level that is a string or an integer, one level or a list of them, and
//! a load setting that is a number or a template string.

use super::load::Param;
use super::{Factors, Levels};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// One level: a string, or an integer written as its digits.
struct Level(String);

struct LevelVisitor;

impl<'de> Visitor<'de> for LevelVisitor {
    type Value = Level;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a level: a string or an integer")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Level, E> {
        Ok(Level(v.to_string()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Level, E> {
        Ok(Level(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Level, E> {
        Ok(Level(v.to_string()))
    }
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        d.deserialize_any(LevelVisitor)
    }
}

struct LevelsVisitor;

impl<'de> Visitor<'de> for LevelsVisitor {
    type Value = Levels;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of levels (strings or integers), or one level")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Levels, E> {
        Ok(Levels(vec![v.to_string()]))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Levels, E> {
        Ok(Levels(vec![v.to_string()]))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Levels, E> {
        Ok(Levels(vec![v.to_string()]))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Levels, A::Error> {
        let mut out = Vec::new();
        while let Some(Level(level)) = seq.next_element()? {
            out.push(level);
        }
        Ok(Levels(out))
    }
}

impl<'de> Deserialize<'de> for Levels {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Levels, D::Error> {
        d.deserialize_any(LevelsVisitor)
    }
}

struct FactorsVisitor;

impl<'de> Visitor<'de> for FactorsVisitor {
    type Value = Factors;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a table of factors, each a list of levels")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Factors, A::Error> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        while let Some((name, levels)) = map.next_entry::<String, Levels>()? {
            out.push((name, levels.0));
        }
        Ok(Factors(out))
    }
}

impl<'de> Deserialize<'de> for Factors {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Factors, D::Error> {
        d.deserialize_map(FactorsVisitor)
    }
}

struct ParamVisitor;

impl<'de> Visitor<'de> for ParamVisitor {
    type Value = Param;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a positive integer, or a string such as \"{concurrency}\" naming a factor")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Param, E> {
        Ok(Param::Template(v.to_string()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Param, E> {
        u64::try_from(v).map(Param::Fixed).map_err(|_| E::custom(format!("{v} is negative; it must be positive")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Param, E> {
        Ok(Param::Fixed(v))
    }
}

impl<'de> Deserialize<'de> for Param {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Param, D::Error> {
        d.deserialize_any(ParamVisitor)
    }
}
