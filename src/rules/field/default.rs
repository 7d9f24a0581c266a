//! Field default values as buf compares them (field_default.go): the explicit `default = ...`
//! parsed by the field's kind, else the implied zero value (an enum's first value), compared
//! leniently across kinds (numbers with numbers, strings with bytes).

use crate::model::{Enum, FieldType};

use super::side::FieldSide;
use super::text::go_float;
use crate::rules::quote::quote_bytes;

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Uint(u64),
    F32(f32),
    F64(f64),
    /// string and bytes defaults, both compared as byte strings.
    Text(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldDefault {
    pub value: Value,
    /// How buf prints it: Go `%v` of the value, `%q` for strings, `[0x61,...]` for bytes,
    /// `Enum.VALUE` for enums.
    pub printable: String,
}

impl FieldDefault {
    /// Go's `reflect.Value.IsZero` of the comparable value (-0.0 is not zero).
    pub fn is_zero(&self) -> bool {
        match &self.value {
            Value::Bool(b) => !b,
            Value::Int(i) => *i == 0,
            Value::Uint(u) => *u == 0,
            Value::F32(f) => f.to_bits() == 0,
            Value::F64(f) => f.to_bits() == 0,
            Value::Text(t) => t.is_empty(),
        }
    }
}

/// Whether the field can have a default at all: singular, not a message, group or map.
pub fn can_have_default(side: &FieldSide) -> bool {
    !side.is_list()
        && !side.is_map()
        && !matches!(side.kind(), FieldType::Message | FieldType::Group)
}

/// The default value of a field that [`can_have_default`].
pub fn field_default(side: &FieldSide) -> FieldDefault {
    let written = side.field().default_value();
    let kind = side.kind();
    if kind == FieldType::Enum {
        return enum_default(side.enum_type(), written);
    }
    let value = written_bytes(side)
        .filter(|_| matches!(kind, FieldType::String | FieldType::Bytes))
        .map(Value::Text)
        .or_else(|| written.and_then(|text| parse_default(kind, text)))
        .unwrap_or_else(|| zero_value(kind));
    let printable = printable(kind, &value);
    FieldDefault { value, printable }
}

/// The exact bytes of a string or bytes `default = "..."`, as the lexer decoded them (the
/// descriptor-form `default_value` of a string field is UTF-8 text, so not exact).
fn written_bytes(side: &FieldSide) -> Option<Vec<u8>> {
    let entry = side.field().options.get("default")?;
    entry.value.as_bytes().map(<[u8]>::to_vec)
}

fn enum_default(enum_type: Option<&Enum>, written: Option<&str>) -> FieldDefault {
    let Some(e) = enum_type else {
        return FieldDefault {
            value: Value::Int(0),
            printable: "0".into(),
        };
    };
    // An explicit default names a value; otherwise (or if it names none) the first value.
    let number = written
        .and_then(|name| e.values.iter().find(|v| v.name == name))
        .or_else(|| e.values.first())
        .map_or(0, |v| v.number);
    let printable = match e.values.iter().find(|v| v.number == number) {
        Some(v) => format!("{}.{}", e.name, v.name),
        None => format!("{}.{}(?)", e.name, number),
    };
    FieldDefault {
        value: Value::Int(number),
        printable,
    }
}

fn zero_value(kind: FieldType) -> Value {
    use FieldType::*;
    match kind {
        Bool => Value::Bool(false),
        Uint32 | Fixed32 | Uint64 | Fixed64 => Value::Uint(0),
        Float => Value::F32(0.0),
        Double => Value::F64(0.0),
        String | Bytes => Value::Text(Vec::new()),
        _ => Value::Int(0),
    }
}

/// Parses `FieldDescriptorProto.default_value` for the kind; None when it does not parse (buf
/// then falls back to the zero value).
pub fn parse_default(kind: FieldType, text: &str) -> Option<Value> {
    use FieldType::*;
    Some(match kind {
        Bool => match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return None,
        },
        String => Value::Text(text.as_bytes().to_vec()),
        Bytes => Value::Text(c_unescape(text)),
        // Parsed at float precision directly: rounding via f64 could differ in the last bit.
        Float => Value::F32(
            text.parse::<f32>()
                .ok()
                .or_else(|| parse_float(text).map(|f| f as f32))?,
        ),
        Double => Value::F64(parse_float(text)?),
        Int32 | Sint32 | Sfixed32 => Value::Int(i32::try_from(parse_int(text)?).ok()? as i64),
        Int64 | Sint64 | Sfixed64 => Value::Int(i64::try_from(parse_int(text)?).ok()?),
        Uint32 | Fixed32 => Value::Uint(u32::try_from(parse_int(text)?).ok()? as u64),
        Uint64 | Fixed64 => Value::Uint(u64::try_from(parse_int(text)?).ok()?),
        Enum | Message | Group => return None,
    })
}

/// Decimal integers as protoc writes them; hex and octal accepted too in case the text is the
/// literal as written.
fn parse_int(text: &str) -> Option<i128> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let magnitude = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i128::from_str_radix(hex, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i128::from_str_radix(&body[1..], 8).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// Floats, including protoc's `inf`, `-inf` and `nan` spellings.
fn parse_float(text: &str) -> Option<f64> {
    let lower = text.to_ascii_lowercase();
    match lower.trim_start_matches(['+', '-']) {
        "inf" | "infinity" => {
            return Some(if lower.starts_with('-') {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            })
        }
        "nan" => return Some(f64::NAN),
        _ => {}
    }
    text.parse::<f64>()
        .ok()
        .or_else(|| parse_int(text).map(|i| i as f64))
}

/// Reverses protoc's C escaping of `bytes` defaults (`\n`, `\x41`, `\101`, `\u00e9`...).
pub fn c_unescape(text: &str) -> Vec<u8> {
    let s = text.as_bytes();
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' || i + 1 >= s.len() {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let c = s[i + 1];
        let mut next = i + 2;
        match c {
            b'x' | b'X' => {
                let n = count_prefix(&s[i + 2..], 2, |b| b.is_ascii_hexdigit());
                if n == 0 {
                    out.extend_from_slice(&s[i..i + 2]);
                } else {
                    out.push(hex_value(&s[i + 2..i + 2 + n]) as u8);
                    next = i + 2 + n;
                }
            }
            b'0'..=b'7' => {
                let n = 1 + count_prefix(&s[i + 2..], 2, |b| (b'0'..=b'7').contains(&b));
                let v = s[i + 1..i + 1 + n]
                    .iter()
                    .fold(0u32, |acc, d| acc * 8 + u32::from(d - b'0'));
                if v > 0xff {
                    out.extend_from_slice(&s[i..i + 1 + n]);
                } else {
                    out.push(v as u8);
                }
                next = i + 1 + n;
            }
            b'u' | b'U' => {
                let width = if c == b'u' { 4 } else { 8 };
                if s.len() < i + 2 + width {
                    out.extend_from_slice(&s[i..]);
                    next = s.len();
                } else {
                    let digits = &s[i + 2..i + 2 + width];
                    match (digits.iter().all(u8::is_ascii_hexdigit))
                        .then(|| char::from_u32(hex_value(digits)))
                        .flatten()
                    {
                        Some(ch) => {
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        None => out.extend_from_slice(&s[i..i + 2 + width]),
                    }
                    next = i + 2 + width;
                }
            }
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'f' => out.push(0x0c),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(0x0b),
            b'\\' | b'\'' | b'"' | b'?' => out.push(c),
            _ => out.extend_from_slice(&s[i..i + 2]),
        }
        i = next;
    }
    out
}

fn count_prefix(s: &[u8], limit: usize, accept: impl Fn(u8) -> bool) -> usize {
    s.iter().take(limit).take_while(|b| accept(**b)).count()
}

fn hex_value(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |acc, d| {
        acc.wrapping_mul(16) + (*d as char).to_digit(16).unwrap_or(0)
    })
}

fn printable(kind: FieldType, value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::F32(f) => go_float(f64::from(*f), true),
        Value::F64(f) => go_float(*f, false),
        Value::Text(t) if kind == FieldType::Bytes => {
            let parts: Vec<String> = t.iter().map(|b| format!("0x{b:X}")).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Text(t) => quote_bytes(t),
    }
}

/// buf's `defaultsEqual`: strings/bytes compare as byte strings and never equal a number;
/// float vs double compare at float precision; all other numbers (and bools as 0/1) compare
/// exactly by value.
pub fn defaults_equal(previous: &Value, current: &Value) -> bool {
    match (previous, current) {
        (Value::Text(a), Value::Text(b)) => return a == b,
        (Value::Text(_), _) | (_, Value::Text(_)) => return false,
        (Value::F32(a), Value::F64(b)) => return (a.is_nan() && b.is_nan()) || *a == *b as f32,
        (Value::F64(a), Value::F32(b)) => return (a.is_nan() && b.is_nan()) || *a as f32 == *b,
        _ => {}
    }
    match (Number::of(previous), Number::of(current)) {
        (Number::NaN, Number::NaN) => true,
        (Number::NaN, _) | (_, Number::NaN) => false,
        (Number::Int(a), Number::Int(b)) => a == b,
        (Number::Float(a), Number::Float(b)) => a == b,
        (Number::Int(i), Number::Float(f)) | (Number::Float(f), Number::Int(i)) => {
            float_equals_int(f, i)
        }
    }
}

/// A numeric value in a form that compares exactly (bools count as 0 and 1).
enum Number {
    Int(i128),
    Float(f64),
    NaN,
}

impl Number {
    fn of(value: &Value) -> Number {
        match value {
            Value::Bool(b) => Number::Int(i128::from(*b)),
            Value::Int(i) => Number::Int(i128::from(*i)),
            Value::Uint(u) => Number::Int(i128::from(*u)),
            Value::F32(f) if f.is_nan() => Number::NaN,
            Value::F64(f) if f.is_nan() => Number::NaN,
            Value::F32(f) => Number::Float(f64::from(*f)),
            Value::F64(f) => Number::Float(*f),
            Value::Text(_) => Number::NaN,
        }
    }
}

fn float_equals_int(f: f64, i: i128) -> bool {
    // Every i64/u64 lies well inside this range, where the conversion below is exact.
    f.is_finite() && f.fract() == 0.0 && f.abs() < 1e30 && f as i128 == i
}

#[cfg(test)]
mod tests {
    use super::*;
    use FieldType::{Bool, Bytes, Double, Float, Int32, Uint32, Uint64};

    fn parsed(kind: FieldType, text: &str) -> Value {
        parse_default(kind, text).expect("parses")
    }

    #[test]
    fn parses_by_kind() {
        assert_eq!(parsed(Int32, "123"), Value::Int(123));
        assert_eq!(parsed(Int32, "-2147483648"), Value::Int(-2147483648));
        assert!(parse_default(Int32, "2147483648").is_none());
        assert_eq!(
            parsed(Uint64, "18446744073709551615"),
            Value::Uint(u64::MAX)
        );
        assert!(parse_default(Uint32, "-1").is_none());
        assert_eq!(parsed(Bool, "true"), Value::Bool(true));
        assert!(parse_default(Bool, "1").is_none());
        assert_eq!(parsed(Double, "inf"), Value::F64(f64::INFINITY));
        assert_eq!(parsed(Double, "-inf"), Value::F64(f64::NEG_INFINITY));
        assert!(matches!(parsed(Float, "nan"), Value::F32(f) if f.is_nan()));
        assert_eq!(parsed(Float, "123.123"), Value::F32(123.123));
        assert_eq!(
            parsed(Bytes, "a\\x62\\143\\n"),
            Value::Text(b"abc\n".to_vec())
        );
        assert_eq!(
            parsed(FieldType::String, "a\\x62"),
            Value::Text(b"a\\x62".to_vec())
        );
    }

    #[test]
    fn compares_leniently_across_kinds() {
        // int32 123 == uint64 123 == double 123.0; bool true == 1.
        assert!(defaults_equal(&Value::Int(123), &Value::Uint(123)));
        assert!(defaults_equal(&Value::Int(123), &Value::F64(123.0)));
        assert!(defaults_equal(&Value::Bool(true), &Value::Int(1)));
        assert!(!defaults_equal(&Value::Int(123), &Value::F64(123.5)));
        // float vs double compare at float precision.
        assert!(defaults_equal(&Value::F32(123.123), &Value::F64(123.123)));
        assert!(defaults_equal(&Value::F64(123.123), &Value::F32(123.123)));
        // but double vs double is exact.
        assert!(!defaults_equal(
            &Value::F64(0.1),
            &Value::F64(f64::from(0.1f32))
        ));
        // NaN equals NaN here.
        assert!(defaults_equal(&Value::F64(f64::NAN), &Value::F32(f32::NAN)));
        assert!(defaults_equal(&Value::F64(f64::NAN), &Value::F64(f64::NAN)));
        assert!(!defaults_equal(&Value::F64(f64::NAN), &Value::Int(0)));
        // strings and bytes compare as bytes, never equal to numbers.
        assert!(defaults_equal(
            &Value::Text(b"abc".to_vec()),
            &Value::Text(b"abc".to_vec())
        ));
        assert!(!defaults_equal(&Value::Text(b"0".to_vec()), &Value::Int(0)));
        assert!(!defaults_equal(
            &Value::Text(Vec::new()),
            &Value::Bool(false)
        ));
    }

    #[test]
    fn zero_values() {
        assert!(FieldDefault {
            value: Value::F64(0.0),
            printable: String::new()
        }
        .is_zero());
        assert!(!FieldDefault {
            value: Value::F64(-0.0),
            printable: String::new()
        }
        .is_zero());
        assert!(!FieldDefault {
            value: Value::F64(f64::NAN),
            printable: String::new()
        }
        .is_zero());
        assert!(FieldDefault {
            value: Value::Text(Vec::new()),
            printable: String::new()
        }
        .is_zero());
    }

    #[test]
    fn prints_like_buf() {
        assert_eq!(
            printable(Bytes, &Value::Text(b"xyz".to_vec())),
            "[0x78,0x79,0x7A]"
        );
        assert_eq!(printable(Bytes, &Value::Text(vec![1, 0xab])), "[0x1,0xAB]");
        assert_eq!(printable(Bytes, &Value::Text(Vec::new())), "[]");
        assert_eq!(
            printable(FieldType::String, &Value::Text(b"abc".to_vec())),
            "\"abc\""
        );
        assert_eq!(printable(Float, &Value::F32(123.123)), "123.123");
    }
}
