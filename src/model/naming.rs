//! Names protoc derives from a field name (the map entry message, the default JSON name), and
//! the PascalCase form of `UPPER_SNAKE` names.

/// protoc's name of the message synthesized for a map field: `foo_bar` -> `FooBarEntry`.
pub fn map_entry_name(field: &str) -> String {
    camel_case(field, true) + "Entry"
}

/// protoc's default JSON name: drop underscores, upper-case the letter after each.
pub fn default_json_name(field: &str) -> String {
    camel_case(field, false)
}

/// `FOO_BAR` -> `FooBar`: words split on `_`, first letter upper-cased, the rest lower-cased.
pub fn pascal_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for word in name.split('_') {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.extend(chars.flat_map(char::to_lowercase));
        }
    }
    out
}

/// Drops underscores and upper-cases the letter after each (and the first if `upper_first`).
fn camel_case(field: &str, upper_first: bool) -> String {
    if field.is_ascii() {
        return ascii_camel_case(field, upper_first);
    }
    let mut out = String::with_capacity(field.len() + 5);
    let mut upper_next = upper_first;
    for c in field.chars() {
        if c == '_' {
            upper_next = true;
        } else if upper_next {
            out.push(c.to_ascii_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// [`camel_case`] of an ASCII name, byte by byte (every field's JSON name is derived: the
/// per-`char` loop was a visible part of lowering).
fn ascii_camel_case(field: &str, upper_first: bool) -> String {
    let mut out = Vec::with_capacity(field.len() + 5);
    let mut upper_next = upper_first;
    for &b in field.as_bytes() {
        if b == b'_' {
            upper_next = true;
        } else {
            out.push(if upper_next {
                b.to_ascii_uppercase()
            } else {
                b
            });
            upper_next = false;
        }
    }
    String::from_utf8(out).expect("ASCII in, ASCII out")
}

#[cfg(test)]
mod tests {
    use super::{default_json_name, map_entry_name};

    #[test]
    fn ascii_and_other_names_derive_alike() {
        assert_eq!(default_json_name("foo_bar_baz"), "fooBarBaz");
        assert_eq!(default_json_name("_foo__bar_"), "FooBar");
        assert_eq!(default_json_name("foo_1x"), "foo1x");
        assert_eq!(map_entry_name("foo_bar"), "FooBarEntry");
        assert_eq!(default_json_name("été_ça"), "étéça");
        assert_eq!(default_json_name("x_été"), "xété");
    }
}
