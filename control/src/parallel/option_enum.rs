//! `option_enum!`: an option of a parallel algorithm with a name per value (`--ybw-rule star`).
//! It declares the enum (its default marked `#[default]`), `name()` (the name the flag takes),
//! `FromStr` (an [`crate::search::UnknownName`] listing the valid names, each with what it
//! means), `Display` (the name), and serde's and clap's readings of the name
//! (`named_value.rs`).

macro_rules! option_enum {
    (
        $(#[$doc:meta])*
        $name:ident, flag $flag:literal, what $what:literal, valid $valid:literal, {
            $($(#[$vattr:meta])* $variant:ident => $text:literal),* $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub enum $name {
            $($(#[$vattr])* $variant,)*
        }

        impl $name {
            /// Every value, in the order the help text lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            #[doc = concat!("The name `", $flag, "` takes.")]
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
                        valid: $valid,
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
}

pub(crate) use option_enum;
