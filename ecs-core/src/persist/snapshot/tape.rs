//! A column's values recorded as serde calls, then played into any format.
//!
//! A human-readable format must see each value as what it is (a struct of
//! numbers, a string), so it cannot take a packed column (see
//! [`packed`](super::packed)). Written through a type-erased serializer,
//! every field of every value would pay a dynamic call; instead the values
//! are recorded here by code monomorphised for their type, each serde call
//! one [`Token`] in a flat list, and the list is played into the format by
//! code monomorphised for the format. The erased layer is crossed once per
//! column, and the format sees exactly the calls the values would make.

use core::cell::Cell;
use core::fmt;

use serde::Serialize;
use serde::ser::{
    self, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};

/// One serde call. A compound (sequence, tuple, map, struct and their
/// variants) is its opening token, its elements (a struct's each behind a
/// [`Token::Field`] or as a [`Token::Skip`]; a map's as key then value),
/// then [`Token::End`]. `NewtypeStruct`, `NewtypeVariant` and `Some` are
/// followed by their one value.
///
/// Tokens are 32 bytes: wide numbers and variants' names live beside them.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    /// An `i128` at this place of the tape's wide numbers, as bits.
    I128(usize),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    /// A `u128` at this place of the tape's wide numbers.
    U128(usize),
    F32(f32),
    F64(f64),
    Char(char),
    /// Text at `start..end` of the tape's text.
    Str(usize, usize),
    /// Bytes at `start..end` of the tape's bytes.
    Bytes(usize, usize),
    None,
    Some,
    Unit,
    UnitStruct(&'static str),
    /// The variant at this place of the tape's variants, and so on below.
    UnitVariant(usize),
    NewtypeStruct(&'static str),
    NewtypeVariant(usize),
    Seq(Option<usize>),
    Tuple(usize),
    TupleStruct(&'static str, usize),
    TupleVariant(usize, usize),
    Map(Option<usize>),
    Struct(&'static str, usize),
    StructVariant(usize, usize),
    Field(&'static str),
    Skip(&'static str),
    End,
}

/// An enum variant as serde names it: the enum, the variant's index and name.
type Variant = (&'static str, u32, &'static str);

/// Recorded values: their tokens, and what the tokens point into (kept
/// apart so a token stays small).
#[derive(Default)]
pub(super) struct Tape {
    tokens: Vec<Token>,
    text: String,
    bytes: Vec<u8>,
    wide: Vec<u128>,
    variants: Vec<Variant>,
    /// How many values were recorded at the top level.
    values: usize,
    /// What `is_human_readable` answers while recording: the format's answer.
    readable: bool,
}

/// A value's own error while recording, in its words (boxed, so that a
/// recording call's result fits in a register).
#[derive(Debug)]
pub(super) struct RecordError(Box<str>);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

impl ser::Error for RecordError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string().into())
    }
}

impl Tape {
    /// An empty tape that records for a format answering `readable` to
    /// `is_human_readable`.
    pub(super) fn new(readable: bool) -> Self {
        Self {
            readable,
            ..Self::default()
        }
    }

    /// Records each of `values`.
    pub(super) fn record<T: Serialize>(&mut self, values: &[T]) -> Result<(), RecordError> {
        let Some((first, rest)) = values.split_first() else {
            return Ok(());
        };
        first.serialize(&mut *self)?;
        self.values += 1;
        // Values of one type mostly take as many tokens as the first.
        self.tokens.reserve(self.tokens.len() * rest.len());
        for value in rest {
            value.serialize(&mut *self)?;
            self.values += 1;
        }
        Ok(())
    }

    /// The recorded values, as a sequence that serializes into any format.
    pub(super) fn as_seq(&self) -> TapeSeq<'_> {
        TapeSeq(self)
    }

    #[inline]
    fn push(&mut self, token: Token) -> Result<(), RecordError> {
        self.tokens.push(token);
        Ok(())
    }

    /// Keeps a variant's names; returns where.
    fn variant(&mut self, name: &'static str, index: u32, variant: &'static str) -> usize {
        self.variants.push((name, index, variant));
        self.variants.len() - 1
    }
}

/// The recorded values as one sequence.
pub(super) struct TapeSeq<'t>(&'t Tape);

impl Serialize for TapeSeq<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rest = Cell::new(&self.0.tokens[..]);
        let mut seq = serializer.serialize_seq(Some(self.0.values))?;
        for _ in 0..self.0.values {
            seq.serialize_element(&Play {
                tape: self.0,
                rest: &rest,
            })?;
        }
        seq.end()
    }
}

/// Plays the one value that `rest` starts with, leaving `rest` past it.
struct Play<'t> {
    tape: &'t Tape,
    rest: &'t Cell<&'t [Token]>,
}

impl Play<'_> {
    /// The next token, consumed.
    #[inline]
    fn next(&self) -> Token {
        let (&token, rest) = (self.rest.get())
            .split_first()
            .expect("a recorded value's tokens are whole");
        self.rest.set(rest);
        token
    }

    /// Whether the next token closes the compound being played (consumed if so).
    #[inline]
    fn at_end(&self) -> bool {
        match self.rest.get() {
            [Token::End, rest @ ..] => {
                self.rest.set(rest);
                true
            }
            _ => false,
        }
    }

    /// Plays a compound's elements up to its `End` through `element`.
    fn elements<E>(&self, mut element: impl FnMut(&Self) -> Result<(), E>) -> Result<(), E> {
        while !self.at_end() {
            element(self)?;
        }
        Ok(())
    }

    /// The next field of a struct: its key, or `Err` with the key of a skipped one.
    fn field(&self) -> Result<&'static str, &'static str> {
        match self.next() {
            Token::Field(key) => Ok(key),
            Token::Skip(key) => Err(key),
            token => unreachable!("a struct field token, not {token:?}"),
        }
    }
}

impl Serialize for Play<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tape = self.tape;
        match self.next() {
            Token::Bool(v) => serializer.serialize_bool(v),
            Token::I8(v) => serializer.serialize_i8(v),
            Token::I16(v) => serializer.serialize_i16(v),
            Token::I32(v) => serializer.serialize_i32(v),
            Token::I64(v) => serializer.serialize_i64(v),
            Token::I128(at) => serializer.serialize_i128(tape.wide[at] as i128),
            Token::U8(v) => serializer.serialize_u8(v),
            Token::U16(v) => serializer.serialize_u16(v),
            Token::U32(v) => serializer.serialize_u32(v),
            Token::U64(v) => serializer.serialize_u64(v),
            Token::U128(at) => serializer.serialize_u128(tape.wide[at]),
            Token::F32(v) => serializer.serialize_f32(v),
            Token::F64(v) => serializer.serialize_f64(v),
            Token::Char(v) => serializer.serialize_char(v),
            Token::Str(start, end) => serializer.serialize_str(&tape.text[start..end]),
            Token::Bytes(start, end) => serializer.serialize_bytes(&tape.bytes[start..end]),
            Token::None => serializer.serialize_none(),
            Token::Some => serializer.serialize_some(self),
            Token::Unit => serializer.serialize_unit(),
            Token::UnitStruct(name) => serializer.serialize_unit_struct(name),
            Token::UnitVariant(at) => {
                let (name, index, variant) = tape.variants[at];
                serializer.serialize_unit_variant(name, index, variant)
            }
            Token::NewtypeStruct(name) => serializer.serialize_newtype_struct(name, self),
            Token::NewtypeVariant(at) => {
                let (name, index, variant) = tape.variants[at];
                serializer.serialize_newtype_variant(name, index, variant, self)
            }
            Token::Seq(len) => {
                let mut out = serializer.serialize_seq(len)?;
                self.elements(|play| out.serialize_element(play))?;
                out.end()
            }
            Token::Tuple(len) => {
                let mut out = serializer.serialize_tuple(len)?;
                self.elements(|play| out.serialize_element(play))?;
                out.end()
            }
            Token::TupleStruct(name, len) => {
                let mut out = serializer.serialize_tuple_struct(name, len)?;
                self.elements(|play| out.serialize_field(play))?;
                out.end()
            }
            Token::TupleVariant(at, len) => {
                let (name, index, variant) = tape.variants[at];
                let mut out = serializer.serialize_tuple_variant(name, index, variant, len)?;
                self.elements(|play| out.serialize_field(play))?;
                out.end()
            }
            Token::Map(len) => {
                let mut out = serializer.serialize_map(len)?;
                self.elements(|play| {
                    out.serialize_key(play)?;
                    out.serialize_value(play)
                })?;
                out.end()
            }
            Token::Struct(name, len) => {
                let mut out = serializer.serialize_struct(name, len)?;
                self.elements(|play| match play.field() {
                    Ok(key) => out.serialize_field(key, play),
                    Err(key) => out.skip_field(key),
                })?;
                out.end()
            }
            Token::StructVariant(at, len) => {
                let (name, index, variant) = tape.variants[at];
                let mut out = serializer.serialize_struct_variant(name, index, variant, len)?;
                self.elements(|play| match play.field() {
                    Ok(key) => out.serialize_field(key, play),
                    Err(key) => out.skip_field(key),
                })?;
                out.end()
            }
            token @ (Token::Field(_) | Token::Skip(_) | Token::End) => {
                unreachable!("a value starts with {token:?}")
            }
        }
    }
}

impl Serializer for &mut Tape {
    type Ok = ();
    type Error = RecordError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn is_human_readable(&self) -> bool {
        self.readable
    }

    fn serialize_bool(self, v: bool) -> Result<(), RecordError> {
        self.push(Token::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), RecordError> {
        self.push(Token::I8(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), RecordError> {
        self.push(Token::I16(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), RecordError> {
        self.push(Token::I32(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), RecordError> {
        self.push(Token::I64(v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), RecordError> {
        self.wide.push(v as u128);
        self.push(Token::I128(self.wide.len() - 1))
    }
    fn serialize_u8(self, v: u8) -> Result<(), RecordError> {
        self.push(Token::U8(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), RecordError> {
        self.push(Token::U16(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), RecordError> {
        self.push(Token::U32(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), RecordError> {
        self.push(Token::U64(v))
    }
    fn serialize_u128(self, v: u128) -> Result<(), RecordError> {
        self.wide.push(v);
        self.push(Token::U128(self.wide.len() - 1))
    }
    fn serialize_f32(self, v: f32) -> Result<(), RecordError> {
        self.push(Token::F32(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), RecordError> {
        self.push(Token::F64(v))
    }
    fn serialize_char(self, v: char) -> Result<(), RecordError> {
        self.push(Token::Char(v))
    }
    fn serialize_str(self, v: &str) -> Result<(), RecordError> {
        let start = self.text.len();
        self.text.push_str(v);
        self.push(Token::Str(start, self.text.len()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), RecordError> {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(v);
        self.push(Token::Bytes(start, self.bytes.len()))
    }
    fn serialize_none(self) -> Result<(), RecordError> {
        self.push(Token::None)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), RecordError> {
        self.push(Token::Some)?;
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), RecordError> {
        self.push(Token::Unit)
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<(), RecordError> {
        self.push(Token::UnitStruct(name))
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<(), RecordError> {
        let at = self.variant(name, index, variant);
        self.push(Token::UnitVariant(at))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), RecordError> {
        self.push(Token::NewtypeStruct(name))?;
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), RecordError> {
        let at = self.variant(name, index, variant);
        self.push(Token::NewtypeVariant(at))?;
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, RecordError> {
        self.push(Token::Seq(len))?;
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, RecordError> {
        self.push(Token::Tuple(len))?;
        Ok(self)
    }
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self, RecordError> {
        self.push(Token::TupleStruct(name, len))?;
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, RecordError> {
        let at = self.variant(name, index, variant);
        self.push(Token::TupleVariant(at, len))?;
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, RecordError> {
        self.push(Token::Map(len))?;
        Ok(self)
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self, RecordError> {
        self.push(Token::Struct(name, len))?;
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, RecordError> {
        let at = self.variant(name, index, variant);
        self.push(Token::StructVariant(at, len))?;
        Ok(self)
    }
}

/// Implements a compound's element call (recording the value) and `end`.
macro_rules! record_compound {
    ($trait:ident, $method:ident) => {
        impl $trait for &mut Tape {
            type Ok = ();
            type Error = RecordError;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), RecordError> {
                value.serialize(&mut **self)
            }

            fn end(self) -> Result<(), RecordError> {
                self.push(Token::End)
            }
        }
    };
}

record_compound!(SerializeSeq, serialize_element);
record_compound!(SerializeTuple, serialize_element);
record_compound!(SerializeTupleStruct, serialize_field);
record_compound!(SerializeTupleVariant, serialize_field);

impl SerializeMap for &mut Tape {
    type Ok = ();
    type Error = RecordError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), RecordError> {
        key.serialize(&mut **self)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), RecordError> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), RecordError> {
        self.push(Token::End)
    }
}

/// Implements a struct's field calls (key token, then the value) and `end`.
macro_rules! record_struct {
    ($trait:ident) => {
        impl $trait for &mut Tape {
            type Ok = ();
            type Error = RecordError;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), RecordError> {
                self.push(Token::Field(key))?;
                value.serialize(&mut **self)
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), RecordError> {
                self.push(Token::Skip(key))
            }

            fn end(self) -> Result<(), RecordError> {
                self.push(Token::End)
            }
        }
    };
}

record_struct!(SerializeStruct);
record_struct!(SerializeStructVariant);

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::Tape;

    #[derive(Serialize, Clone)]
    enum Shape {
        Dot,
        Circle(f32),
        Pair(i8, u128),
        Rect { w: f64, h: f64 },
    }

    #[derive(Serialize, Clone)]
    struct Everything {
        flag: bool,
        small: (i16, u16, i64, i128),
        letter: char,
        name: String,
        bytes: serde_bytes_like::Bytes,
        maybe: Option<u32>,
        nothing: Option<u8>,
        unit: (),
        shapes: Vec<Shape>,
        table: BTreeMap<String, u64>,
        wrapped: Wrapped,
        marker: Marker,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
    }

    #[derive(Serialize, Clone)]
    struct Wrapped(u8);

    #[derive(Serialize, Clone)]
    struct Marker;

    /// A byte string, serialized with `serialize_bytes`.
    mod serde_bytes_like {
        #[derive(Clone)]
        pub struct Bytes(pub Vec<u8>);

        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    fn sample(i: u8) -> Everything {
        Everything {
            flag: i.is_multiple_of(2),
            small: (-3, 4, i64::MIN, i128::MAX),
            letter: 'é',
            name: format!("unit \"{i}\""),
            bytes: serde_bytes_like::Bytes(vec![i, 0, 255]),
            maybe: Some(u32::from(i)),
            nothing: None,
            unit: (),
            shapes: vec![
                Shape::Dot,
                Shape::Circle(0.1),
                Shape::Pair(-1, u128::MAX),
                Shape::Rect { w: 1.5, h: -0.0 },
            ],
            table: [("a".to_owned(), 1), ("b".to_owned(), u64::MAX)].into(),
            wrapped: Wrapped(i),
            marker: Marker,
            skipped: None,
        }
    }

    /// Played into JSON and postcard, a tape writes exactly what the values
    /// write themselves.
    #[test]
    fn a_played_tape_writes_what_the_values_write() {
        let values: Vec<Everything> = (0..3).map(sample).collect();
        let mut readable = Tape::new(true);
        readable.record(&values).unwrap();
        assert_eq!(
            serde_json::to_string(&readable.as_seq()).unwrap(),
            serde_json::to_string(&values).unwrap()
        );
        let mut binary = Tape::new(false);
        binary.record(&values).unwrap();
        assert_eq!(
            postcard::to_allocvec(&binary.as_seq()).unwrap(),
            postcard::to_allocvec(&values).unwrap()
        );
    }

    #[test]
    fn a_token_is_four_words() {
        assert_eq!(size_of::<super::Token>(), 32);
    }

    /// A value's own error comes back in its words.
    #[test]
    fn a_value_that_refuses_to_serialize_is_an_error() {
        struct Refuses;
        impl Serialize for Refuses {
            fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("not today"))
            }
        }
        let error = Tape::new(true).record(&[Refuses]).unwrap_err();
        assert_eq!(error.to_string(), "not today");
    }
}
