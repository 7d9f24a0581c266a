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
