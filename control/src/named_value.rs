//! `named_value!`: the option enums whose values have names (`--sort ec`, `aphid-tt = "shared"`)
//! read the same way from a command line and from a TOML file. For each type that has an `ALL`
//! list and a `name()` it implements serde's `Deserialize` (a string, read by the type's
//! `FromStr`, so a misspelt value gets the same message as on the command line) and `Serialize`
//! (the name), and, with the `clap` feature, clap's `ValueEnum` (the names, which `--help` lists
//! and clap checks).
//!
//! `named_value!(clap: T)` gives only `ValueEnum` (for a type that derives its own
//! `Deserialize`), `named_value!(serde: T)` only `Deserialize` (for a type whose `ValueEnum`
//! also takes other spellings, written beside it: the algorithms' aliases).

macro_rules! named_value {
    (clap: $($t:ty),* $(,)?) => {
        $(
            #[cfg(feature = "clap")]
            impl clap::ValueEnum for $t {
                fn value_variants<'a>() -> &'a [Self] {
                    Self::ALL
                }

                fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                    Some(clap::builder::PossibleValue::new(self.name()))
                }
            }
        )*
    };
    (serde: $($t:ty),* $(,)?) => {
        $(
            impl<'de> serde::Deserialize<'de> for $t {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    let text = String::deserialize(d)?;
                    text.parse().map_err(serde::de::Error::custom)
                }
            }
        )*
    };
    (serialize: $($t:ty),* $(,)?) => {
        $(
            impl serde::Serialize for $t {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.serialize_str(self.name())
                }
            }
        )*
    };
    ($($t:ty),* $(,)?) => {
        $crate::named_value::named_value!(clap: $($t),*);
        $crate::named_value::named_value!(serde: $($t),*);
        $crate::named_value::named_value!(serialize: $($t),*);
    };
}

pub(crate) use named_value;

/// `named_enum!`: an enum whose values have names. It declares the enum, `ALL` (every value in
/// the order the help text lists them), `name()`, `FromStr` (an [`crate::search::UnknownName`]
/// naming what was asked for and the valid names), `Display` (the name) and, through
/// [`named_value!`], serde's and clap's readings of the name.
///
/// Two forms: `Name, "what", { Variant => "name", ... }` lists the valid names in the error;
/// `Name, flag "--flag", what "what", valid "name (meaning), ...", { ... }` is an option of a
/// parallel algorithm: its default value marked `#[default]` (the enum derives `Default`), the
/// error listing the valid names with what each means.
macro_rules! named_enum {
    (@define [$($derive:ident)*] $(#[$doc:meta])* $name:ident, $what:literal, $valid:expr,
        $name_doc:expr, { $($(#[$vattr:meta])* $variant:ident => $text:literal),* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash $(, $derive)*)]
        pub enum $name {
            $($(#[$vattr])* $variant,)*
        }

        impl $name {
            /// Every value, in the order the help text lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            #[doc = $name_doc]
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::search::UnknownName;

            fn from_str(s: &str) -> Result<Self, $crate::search::UnknownName> {
                match s {
                    $($text => Ok($name::$variant),)*
                    _ => Err($crate::search::UnknownName {
                        what: $what,
                        given: s.to_string(),
                        valid: std::borrow::Cow::Borrowed($valid),
                    }),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        $crate::named_value::named_value!($name);
    };
    (
        $(#[$doc:meta])*
        $name:ident, flag $flag:literal, what $what:literal, valid $valid:literal, {
            $($(#[$vattr:meta])* $variant:ident => $text:literal),* $(,)?
        }
    ) => {
        $crate::named_value::named_enum!(@define [Default] $(#[$doc])* $name, $what, $valid,
            concat!("The name `", $flag, "` takes."), { $($(#[$vattr])* $variant => $text),* });
    };
    (
        $(#[$doc:meta])*
        $name:ident, $what:literal, {
            $($(#[$vattr:meta])* $variant:ident => $text:literal),* $(,)?
        }
    ) => {
        $crate::named_value::named_enum!(@define [] $(#[$doc])* $name, $what,
            concat!($($text, " "),*).trim_ascii_end(), "The name used on the command line.",
            { $($(#[$vattr])* $variant => $text),* });
    };
}

pub(crate) use named_enum;

#[cfg(test)]
mod tests {
    use crate::parallel::aphid::TtSharing;
    use crate::parallel::delaysplit::YbwRule;
    use crate::parallel::split_ab::SplitTables;
    use crate::search::{Setting, SortRegime, TtMode, TtReplace};

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "kebab-case")]
    struct Flags {
        sort: SortRegime,
        tt: TtMode,
        tt_replace: TtReplace,
        setting: Setting,
        split_tables: SplitTables,
        aphid_tt: TtSharing,
        ybw_rule: YbwRule,
    }

    /// A table reads each value by its command-line name, and a misspelt one gets the
    /// type's own message.
    #[test]
    fn values_read_by_their_names() {
        let f: Flags = toml::from_str(
            "sort = \"ec\"\ntt = \"exact\"\ntt-replace = \"deeper\"\nsetting = \"play\"\n\
             split-tables = \"local\"\naphid-tt = \"shared\"\nybw-rule = \"star\"",
        )
        .expect("every value is a name");
        assert_eq!(f.sort, SortRegime::EldestChild);
        assert_eq!(f.tt, TtMode::ExactDepth);
        assert_eq!(f.tt_replace, TtReplace::Deeper);
        assert_eq!(f.setting, Setting::Play);
        assert_eq!(f.split_tables, SplitTables::Local);
        assert_eq!(f.aphid_tt, TtSharing::Shared);
        assert_eq!(f.ybw_rule, YbwRule::Star);
        let err = toml::from_str::<Flags>("sort = \"ecc\"").expect_err("no such regime");
        assert!(
            err.message()
                .contains("unknown sorting regime 'ecc'; use one of: none tn pvr ec tt"),
            "{err}"
        );
    }

    /// With the `clap` feature, every value's name is one clap accepts.
    #[cfg(feature = "clap")]
    #[test]
    fn clap_takes_every_name() {
        use clap::ValueEnum;
        for r in SortRegime::ALL {
            assert_eq!(SortRegime::from_str(r.name(), false), Ok(*r));
        }
        assert_eq!(
            TtMode::value_variants()
                .iter()
                .map(|m| m.to_possible_value().expect("named").get_name().to_string())
                .collect::<Vec<_>>(),
            ["off", "exact", "normal"]
        );
    }
}
