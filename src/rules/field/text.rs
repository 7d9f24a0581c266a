//! Formatting numbers the way buf prints them (Go's `%v`), so messages read the same; strings
//! are quoted by `rules::quote::quote`.

/// A float formatted like Go's `%v`: the shortest digits that round-trip at the given width,
/// in exponent form when the decimal exponent is below -4 or at least 6 (`1e+06`, `1.5e-05`),
/// `+Inf`, `-Inf` and `NaN` for the special values.
pub fn go_float(value: f64, single: bool) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    if value.is_infinite() {
        return if value > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if value == 0.0 {
        return if value.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "-1.23123e2".
    let sci = if single {
        format!("{:e}", value as f32)
    } else {
        format!("{value:e}")
    };
    let (negative, sci) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci.as_str()),
    };
    let Some((mantissa, exp)) = sci.split_once('e') else {
        return sci.to_string();
    };
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.unsigned_abs()));
        return out;
    }
    // Position of the decimal point relative to the digits.
    let point = exp + 1;
    let nd = digits.len() as i32;
    if point <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat((-point) as usize));
        out.push_str(&digits);
    } else if point >= nd {
        out.push_str(&digits);
        out.push_str(&"0".repeat((point - nd) as usize));
    } else {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_like_go() {
        assert_eq!(go_float(123.123, true), "123.123");
        assert_eq!(go_float(123.123, false), "123.123");
        assert_eq!(go_float(100.0, false), "100");
        assert_eq!(go_float(123456.0, false), "123456");
        assert_eq!(go_float(1e6, false), "1e+06");
        assert_eq!(go_float(1234567.0, false), "1.234567e+06");
        assert_eq!(go_float(0.0001, false), "0.0001");
        assert_eq!(go_float(0.000015, false), "1.5e-05");
        assert_eq!(go_float(-2.5, false), "-2.5");
        assert_eq!(go_float(f64::INFINITY, false), "+Inf");
        assert_eq!(go_float(f64::NEG_INFINITY, true), "-Inf");
        assert_eq!(go_float(f64::NAN, false), "NaN");
        assert_eq!(go_float(0.1f32 as f64, true), "0.1");
    }
}
