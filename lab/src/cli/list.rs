//! Comma-separated lists (`--procs 1,2,4`, `--algos mwf,er`): clap splits them at the commas
//! (`value_delimiter`); a TOML table gives them as one string in the same form, or as an
//! array, and [`comma`] reads either.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::Deserializer;
use serde::de::{self, SeqAccess, Visitor};

/// One processor count of a list (`--procs`): a whole number, spaces around it allowed.
///
/// # Errors
/// The item, and what a list looks like.
pub fn count(item: &str) -> Result<usize, String> {
    item.trim()
        .parse()
        .map_err(|_| format!("'{item}' is not a processor count; give a list such as 1,2,4,8"))
}

/// Reads a list: a string of comma-separated items (each trimmed, empty ones dropped), a
/// number (a list of one), or an array; each item by its type's `FromStr`.
///
/// # Errors
/// An item its type does not read, with that type's message.
pub fn comma<'de, D, T>(d: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    d.deserialize_any(Items(PhantomData)).map(Some)
}

struct Items<T>(PhantomData<T>);

fn item<T, E>(text: &str) -> Result<T, E>
where
    T: FromStr,
    T::Err: fmt::Display,
    E: de::Error,
{
    text.trim()
        .parse()
        .map_err(|e| E::custom(format!("'{}': {e}", text.trim())))
}

impl<'de, T> Visitor<'de> for Items<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a comma-separated list (\"1,2,4\") or an array")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Vec<T>, E> {
        text.split(',')
            .filter(|s| !s.trim().is_empty())
            .map(item)
            .collect()
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Vec<T>, E> {
        item(&n.to_string()).map(|one| vec![one])
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Vec<T>, E> {
        item(&n.to_string()).map(|one| vec![one])
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::new();
        while let Some(text) = seq.next_element::<toml::Value>()? {
            let text = match text {
                toml::Value::String(s) => s,
                other => other.to_string(),
            };
            out.push(item(&text)?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Flags {
        #[serde(default, deserialize_with = "comma")]
        procs: Option<Vec<usize>>,
    }

    fn read(text: &str) -> Result<Option<Vec<usize>>, toml::de::Error> {
        toml::from_str::<Flags>(text).map(|f| f.procs)
    }

    #[test]
    fn a_list_is_a_string_a_number_or_an_array() {
        assert_eq!(read("procs = \"1, 2,,4\"").unwrap(), Some(vec![1, 2, 4]));
        assert_eq!(read("procs = 8").unwrap(), Some(vec![8]));
        assert_eq!(read("procs = [1, \"16\"]").unwrap(), Some(vec![1, 16]));
        assert_eq!(read("").unwrap(), None);
        let err = read("procs = \"1,two\"").expect_err("not a count");
        assert!(err.message().contains("'two'"), "{err}");
        assert_eq!(count(" 12 "), Ok(12));
        assert!(
            count("x")
                .unwrap_err()
                .contains("'x' is not a processor count")
        );
    }
}
