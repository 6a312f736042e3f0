//! An experiment's `runner compare` flags as a TOML table ([`Flags`]): each key a flag's long
//! name, in the order the command line gives them. Overlays (a variant's, `--quick`'s) are laid
//! over it key by key; the table reads into [`CompareArgs`] (serde, clap's defaults) and so
//! into a checked [`Plan`], and the command printed on the pages is written from the same
//! table, in its order.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::OnceLock;

use anyhow::{Context as _, Result};

use crate::cli::CompareArgs;
use crate::compare::plan::Plan;

/// Flags as a table: key (the flag's long name) to value, in the file's order.
pub type Flags = toml::Table;

/// Lays `over` over `flags`: a key of the overlay replaces the value where the key stands, a
/// new key is appended. A depth and a time per position exclude each other in `runner
/// compare`: setting one drops the other (a quick run's `depth` replaces a variant's
/// `time-ms`).
pub fn overlay(flags: &mut Flags, over: &Flags) {
    for (key, value) in over {
        let excluded = match key.as_str() {
            "depth" => Some("time-ms"),
            "time-ms" => Some("depth"),
            _ => None,
        };
        if let Some(other) = excluded {
            flags.remove(other);
        }
        flags.insert(key.clone(), value.clone());
    }
}

/// The long names of `runner compare`'s switches (flags without a value).
fn switches() -> &'static [String] {
    static SWITCHES: OnceLock<Vec<String>> = OnceLock::new();
    SWITCHES.get_or_init(|| {
        let command = <CompareArgs as clap::Args>::augment_args(clap::Command::new("compare"));
        command
            .get_arguments()
            .filter(|a| !a.get_action().takes_values())
            .filter_map(|a| a.get_long().map(str::to_string))
            .collect()
    })
}

/// The `runner compare` command of `flags` writing into `out`, in the table's order: a switch
/// as `--key` (nothing when false), a list as the flag once per item, any other value as
/// `--key value`.
#[must_use]
pub fn command_line(flags: &Flags, out: &Path) -> String {
    let mut s = String::from("runner compare");
    for (key, value) in flags {
        match value {
            toml::Value::Boolean(on) if switches().contains(key) => {
                if *on {
                    let _ = write!(s, " --{key}");
                }
            }
            toml::Value::Array(items) => {
                for item in items {
                    let _ = write!(s, " --{key} {}", text(item));
                }
            }
            other => {
                let _ = write!(s, " --{key} {}", text(other));
            }
        }
    }
    let _ = write!(s, " --out {}", out.display());
    s
}

/// A value as the command line gives it.
fn text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `flags` as `runner compare`'s arguments writing into `out`.
///
/// # Errors
/// A key that is no flag of `runner compare`, or a value of the wrong type.
pub fn compare_args(flags: &Flags, out: &Path) -> Result<CompareArgs, toml::de::Error> {
    let mut args = CompareArgs::from_table(flags.clone())?;
    args.out = Some(out.to_path_buf());
    Ok(args)
}

/// `flags` as a checked comparison writing into `out`.
///
/// # Errors
/// Flags that do not read (a bug in the experiment's file: the catalog checks them when it
/// reads it), or that `runner compare` refuses.
pub fn plan(flags: &Flags, out: &Path) -> Result<Plan> {
    let args = compare_args(flags, out).with_context(|| {
        format!(
            "the experiment's flags {} (a bug in its file)",
            command_line(flags, out)
        )
    })?;
    Plan::parse(&args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Flags {
        toml::from_str(text).expect("a table")
    }

    /// A key of the overlay keeps its place; a new one comes last; a depth drops a time limit
    /// and the other way round, as `runner compare` takes one of the two.
    #[test]
    fn an_overlay_replaces_in_place_and_appends() {
        let mut flags = table("game = \"othello\"\ndepth = 15\nprocs = \"1,16\"");
        overlay(
            &mut flags,
            &table("game = \"checkers\"\ntime-ms = 75000\naphid-tt = \"local\""),
        );
        let keys: Vec<&str> = flags.keys().map(String::as_str).collect();
        assert_eq!(keys, ["game", "procs", "time-ms", "aphid-tt"]);
        assert_eq!(flags["game"].as_str(), Some("checkers"));
        overlay(&mut flags, &table("depth = 5"));
        let keys: Vec<&str> = flags.keys().map(String::as_str).collect();
        assert_eq!(keys, ["game", "procs", "aphid-tt", "depth"]);
    }

    /// The command is the table in its order; switches stand alone, lists repeat the flag; and
    /// clap reads the command as serde reads the table.
    #[test]
    fn the_command_line_is_the_table_in_order() {
        let flags = table(
            "game = \"chess\"\nrefutation-table = true\nunsorted = false\ndepth = 5\nmwf-wait = false\nsim-set = [\"latency_ns=1\", \"node_ns=2\"]",
        );
        let out = Path::new("dir");
        let line = command_line(&flags, out);
        assert_eq!(
            line,
            "runner compare --game chess --refutation-table --depth 5 --mwf-wait false --sim-set latency_ns=1 --sim-set node_ns=2 --out dir"
        );
        let parsed =
            crate::cli::parse_compare(line.split_whitespace().skip(1)).expect("clap reads it");
        let read = compare_args(&flags, out).expect("serde reads it");
        assert_eq!(format!("{parsed:?}"), format!("{read:?}"));
    }
}
