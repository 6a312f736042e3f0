//! The options of single parallel algorithms, each family's a struct in its algorithm's module
//! ([`MwfOptions`], [`DmwfOptions`], [`YbwOptions`], [`ErOptions`], [`TreeOptions`],
//! [`PvOptions`]), gathered here in [`AlgoOptions`]. A field is the option as given (`None`:
//! not given); the family's methods answer its value, the default where none was given. Each
//! struct derives clap's `Args` (with the `clap` feature) and serde's `Deserialize` and
//! `Serialize` once, with the field's name as the flag's long name and the table's key
//! (`ybw_rule` is `--ybw-rule`, `ybw-rule = "star"`), so `runner search`, `runner compare` and
//! the experiments' TOML flatten [`AlgoOptions`] and read every option the same way, and the
//! runner writes fingerprints and JSON from [`AlgoOptions::given`] and
//! [`AlgoOptions::resolved`] without naming an option.
//!
//! Adding an option is one field (with its doc comment, the help text) and one accessor in its
//! family's struct, and the test of its effect.

use serde::{Deserialize, Serialize};

use super::ParallelAlgo;
use super::delaysplit::YbwOptions;
use super::dmwf::DmwfOptions;
use super::er::ErOptions;
use super::mwf::MwfOptions;
use super::pvsplit::PvOptions;
use super::treesplit::TreeOptions;

/// A family of options: the algorithms they apply to and every value resolved.
pub trait OptionFamily: Serialize + Default {
    /// The algorithms these options apply to.
    const APPLIES_TO: &'static [ParallelAlgo];

    /// Every option of the family with its value (the default where none was given).
    #[must_use]
    fn resolved(&self) -> Self;
}

/// The options of every algorithm family, as given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct AlgoOptions {
    /// MWF's and DMWF's options.
    #[cfg_attr(feature = "clap", command(flatten))]
    #[serde(flatten)]
    pub mwf: MwfOptions,
    /// DMWF's options.
    #[cfg_attr(feature = "clap", command(flatten))]
    #[serde(flatten)]
    pub dmwf: DmwfOptions,
    /// Delay splitting's options.
    #[cfg_attr(feature = "clap", command(flatten))]
    #[serde(flatten)]
    pub ybw: YbwOptions,
    /// ER's options.
    #[cfg_attr(feature = "clap", command(flatten))]
    #[serde(flatten)]
    pub er: ErOptions,
    /// Tree splitting's and PV splitting's options.
    #[cfg_attr(feature = "clap", command(flatten))]
    #[serde(flatten)]
    pub tree: TreeOptions,
    /// PV splitting's options.
    #[cfg_attr(feature = "clap", command(flatten))]
    #[serde(flatten)]
    pub pv: PvOptions,
}

/// An option's value outside what it accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{flag}: {message}")]
pub struct BadAlgoOption {
    /// The flag (`--split-width`).
    pub flag: &'static str,
    /// What is wrong and what is accepted.
    pub message: String,
}

/// The keys `family` serialises to, each as its flag (`--ybw-rule`).
fn flags_of<F: OptionFamily>(family: &F) -> Vec<String> {
    match toml::Value::try_from(family) {
        Ok(toml::Value::Table(t)) => t
            .keys()
            .map(|k| format!("--{}", k.replace('_', "-")))
            .collect(),
        _ => Vec::new(),
    }
}

impl AlgoOptions {
    /// The options given, each as its flag with the algorithms it applies to, family by family
    /// in declaration order.
    #[must_use]
    pub fn given(&self) -> Vec<(String, &'static [ParallelAlgo])> {
        fn of<F: OptionFamily>(f: &F) -> impl Iterator<Item = (String, &'static [ParallelAlgo])> {
            flags_of(f).into_iter().map(|flag| (flag, F::APPLIES_TO))
        }
        of(&self.mwf)
            .chain(of(&self.dmwf))
            .chain(of(&self.ybw))
            .chain(of(&self.er))
            .chain(of(&self.tree))
            .chain(of(&self.pv))
            .collect()
    }

    /// Every option with its value: the given ones as given, the others their defaults.
    #[must_use]
    pub fn resolved(&self) -> AlgoOptions {
        AlgoOptions {
            mwf: self.mwf.resolved(),
            dmwf: self.dmwf.resolved(),
            ybw: self.ybw.resolved(),
            er: self.er.resolved(),
            tree: self.tree.resolved(),
            pv: self.pv.resolved(),
        }
    }

    /// The given options whose value is not the default: what changes a run's result.
    #[must_use]
    pub fn changed(&self) -> AlgoOptions {
        let defaults = AlgoOptions::default().resolved();
        let mut changed = *self;
        changed.mwf.keep_changed(&defaults.mwf);
        changed.dmwf.keep_changed(&defaults.dmwf);
        changed.ybw.keep_changed(&defaults.ybw);
        changed.er.keep_changed(&defaults.er);
        changed.tree.keep_changed(&defaults.tree);
        changed.pv.keep_changed(&defaults.pv);
        changed
    }

    /// Checks the values that have a range.
    ///
    /// # Errors
    /// [`BadAlgoOption`] naming the flag and the range.
    pub fn check(&self) -> Result<(), BadAlgoOption> {
        self.tree.check()
    }

    /// These options over `base`: each option given here replaces `base`'s.
    #[must_use]
    pub fn over(&self, base: &AlgoOptions) -> AlgoOptions {
        AlgoOptions {
            mwf: self.mwf.over(&base.mwf),
            dmwf: self.dmwf.over(&base.dmwf),
            ybw: self.ybw.over(&base.ybw),
            er: self.er.over(&base.er),
            tree: self.tree.over(&base.tree),
            pv: self.pv.over(&base.pv),
        }
    }
}

/// Declares a family's struct of optional fields (`field => getter: Type = default`, an
/// optional `@arg(...)` adding clap settings to the field's `#[arg(long)]`), one getter per
/// field answering the value or its default, the [`OptionFamily`] implementation and the
/// field-by-field helpers of [`AlgoOptions`] (`keep_changed`, `over`).
macro_rules! option_family {
    (
        $(#[$doc:meta])*
        $name:ident applies to [$($algo:ident),*] {
            $(
                $(#[$fdoc:meta])*
                $(@arg($($arg:tt)*))?
                $field:ident => $getter:ident: $ty:ty = $default:expr
            ),* $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "clap", derive(clap::Args))]
        #[serde(rename_all = "kebab-case")]
        pub struct $name {
            $(
                $(#[$fdoc])*
                #[cfg_attr(feature = "clap", arg(long $(, $($arg)*)?))]
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }

        impl $crate::parallel::algo_options::OptionFamily for $name {
            const APPLIES_TO: &'static [$crate::parallel::ParallelAlgo] =
                &[$($crate::parallel::ParallelAlgo::$algo),*];

            fn resolved(&self) -> Self {
                $name {
                    $($field: Some(self.$getter()),)*
                }
            }
        }

        impl $name {
            $(
                #[doc = concat!("`", stringify!($field), "`, or its default where not given.")]
                #[must_use]
                pub fn $getter(&self) -> $ty {
                    self.$field.unwrap_or($default)
                }
            )*

            /// Drops each given value equal to `defaults`'.
            pub(crate) fn keep_changed(&mut self, defaults: &Self) {
                $(
                    if self.$field == defaults.$field {
                        self.$field = None;
                    }
                )*
            }

            /// These options over `base`'s.
            pub(crate) fn over(&self, base: &Self) -> Self {
                $name {
                    $($field: self.$field.or(base.$field),)*
                }
            }
        }
    };
}

pub(crate) use option_family;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::delaysplit::YbwRule;

    /// A table reads each option by its flag's name; the flags given are named with the
    /// algorithms they apply to; the defaults fill what was not given.
    #[test]
    fn options_read_by_their_flags_names() {
        let o: AlgoOptions =
            toml::from_str("ybw-rule = \"star\"\nsplit-width = 4\nmwf-wait = false")
                .expect("reads");
        assert_eq!(o.ybw.rule(), YbwRule::Star);
        assert_eq!(o.tree.width(), 4);
        assert!(!o.mwf.wait());
        let given: Vec<_> = o.given().into_iter().map(|(f, _)| f).collect();
        assert_eq!(given, ["--mwf-wait", "--ybw-rule", "--split-width"]);
        assert_eq!(
            o.given()[1].1,
            &[ParallelAlgo::DelaySplit],
            "--ybw-rule applies to delay splitting"
        );
        let r = AlgoOptions::default().resolved();
        assert_eq!(r.tree.split_width, Some(10));
        assert_eq!(r.mwf.mwf_wait, Some(true));
        assert!(toml::from_str::<AlgoOptions>("ybw-rule = \"starr\"").is_err());
    }

    /// Only values other than the default change a run.
    #[test]
    fn changed_keeps_what_is_not_the_default() {
        let o: AlgoOptions =
            toml::from_str("ybw-rule = \"plain\"\nybw-windows = \"by-value\"\nsplit-width = 10")
                .expect("reads");
        let c = o.changed();
        assert_eq!(c.ybw.ybw_rule, None);
        assert!(c.ybw.ybw_windows.is_some());
        assert_eq!(c.tree.split_width, None);
        assert_eq!(c.given().len(), 1);
    }

    /// A width of 0 or above 1000 is refused with the range.
    #[test]
    fn the_width_has_a_range() {
        for (w, ok) in [(0, false), (1, true), (1000, true), (1001, false)] {
            let o = AlgoOptions {
                tree: TreeOptions {
                    split_width: Some(w),
                    ..TreeOptions::default()
                },
                ..AlgoOptions::default()
            };
            assert_eq!(o.check().is_ok(), ok, "{w}");
        }
        let o = AlgoOptions {
            tree: TreeOptions {
                split_width: Some(0),
                ..TreeOptions::default()
            },
            ..AlgoOptions::default()
        };
        assert_eq!(
            o.check().unwrap_err().to_string(),
            "--split-width: 0 is out of range; use 1 to 1000"
        );
    }
}
