//! Names protoc derives from a field name: the map entry message and the default JSON name.

/// protoc's name of the message synthesized for a map field: `foo_bar` -> `FooBarEntry`.
pub fn map_entry_name(field: &str) -> String {
    camel_case(field, true) + "Entry"
}

/// protoc's default JSON name: drop underscores, upper-case the letter after each.
pub fn default_json_name(field: &str) -> String {
    camel_case(field, false)
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
