//! The engine's options: what `uci` (and the line protocol's `hello`) announces and what
//! `setoption` changes; `runner engine` and `runner gtp` set them from their command line.

use std::time::Duration;

use control::parallel::ParallelAlgo;
use control::search::{Algorithm, SearchConfig, Setting, tt::MAX_TT_MIB};

use control::engine::Method;

/// The sequential algorithms offered (minimax is only an oracle).
const SEQUENTIAL: [Algorithm; 2] = [Algorithm::Pvs, Algorithm::AlphaBeta];

/// The `Algorithm` value that picks by `Threads`: [`Algorithm::Pvs`] on one thread,
/// [`AUTO_PARALLEL`] on more.
pub const AUTO: &str = "auto";

/// The parallel algorithm `auto` takes for `Threads` above 1: the strongest for chess on two
/// threads on the strength page (`docs/results/strength/`), ABDADA.
pub const AUTO_PARALLEL: ParallelAlgo = ParallelAlgo::Abdada;

/// The most threads accepted.
pub const MAX_THREADS: usize = 256;

/// The largest Move Overhead in milliseconds.
const MAX_OVERHEAD_MS: u64 = 5_000;

/// The option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Threads`: processors of a parallel algorithm.
    pub threads: usize,
    /// `Hash`: transposition table in MiB (per processor for parallel algorithms).
    pub hash_mib: usize,
    /// `Algorithm`: [`AUTO`], a sequential algorithm name or a parallel one.
    pub algorithm: String,
    /// `Setting`: research or play.
    pub setting: Setting,
    /// `Move Overhead`: time kept back per move for the GUI and the pipes (default 10 ms: the
    /// engine answers within about a millisecond of its deadline, see the README's "Time
    /// management"; a GUI on a loaded machine can ask for more).
    pub overhead: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            hash_mib: 16,
            algorithm: AUTO.to_string(),
            setting: Setting::Play,
            overhead: Duration::from_millis(10),
        }
    }
}

/// What a `setoption` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A value changed; the search must be rebuilt.
    Rebuild,
    /// A value changed that the search does not hold (Move Overhead).
    Kept,
    /// The `Clear Hash` button.
    ClearHash,
}

/// The parallel algorithm names offered (those not also a sequential name).
fn parallel_names() -> Vec<&'static str> {
    ParallelAlgo::ALL
        .iter()
        .map(|a| a.name())
        .filter(|n| SEQUENTIAL.iter().all(|s| s.name() != *n))
        .collect()
}

impl Options {
    /// The `option` lines of the `uci` answer, with these values as the defaults.
    pub fn declare(&self) -> Vec<String> {
        let d = self;
        let mut algos = format!("option name Algorithm type combo default {}", d.algorithm);
        let names = std::iter::once(AUTO)
            .chain(SEQUENTIAL.iter().map(|a| a.name()))
            .chain(parallel_names());
        for name in names {
            algos.push_str(" var ");
            algos.push_str(name);
        }
        vec![
            format!(
                "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                d.threads
            ),
            format!(
                "option name Hash type spin default {} min 1 max {MAX_TT_MIB}",
                d.hash_mib
            ),
            "option name Clear Hash type button".to_string(),
            algos,
            format!(
                "option name Setting type combo default {} var research var play",
                d.setting
            ),
            format!(
                "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD_MS}",
                d.overhead.as_millis()
            ),
        ]
    }

    /// Applies `setoption name <name> value <value>` (names are case-insensitive).
    ///
    /// # Errors
    /// A message naming the option and the accepted values.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, String> {
        let key = name.to_ascii_lowercase();
        if key == "clear hash" {
            return Ok(Change::ClearHash);
        }
        let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
            return Err(format!("option '{name}' needs 'value <x>'"));
        };
        let spin = |max: u64, min: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .ok_or_else(|| {
                    format!("{name} must be a whole number from {min} to {max}, got '{value}'")
                })
        };
        match key.as_str() {
            "threads" => {
                self.threads = usize::try_from(spin(MAX_THREADS as u64, 1)?).unwrap_or(1);
                Ok(Change::Rebuild)
            }
            "hash" => {
                self.hash_mib = usize::try_from(spin(MAX_TT_MIB as u64, 1)?).unwrap_or(16);
                Ok(Change::Rebuild)
            }
            "algorithm" => {
                let known = value == AUTO
                    || SEQUENTIAL.iter().any(|a| a.name() == value)
                    || value.parse::<ParallelAlgo>().is_ok();
                if !known {
                    return Err(format!(
                        "unknown Algorithm '{value}'; use one of: {AUTO} {} {}",
                        SEQUENTIAL.map(|a| a.name()).join(" "),
                        parallel_names().join(" ")
                    ));
                }
                self.algorithm = value.to_string();
                Ok(Change::Rebuild)
            }
            "setting" => {
                self.setting = value.parse::<Setting>().map_err(|e| e.to_string())?;
                Ok(Change::Rebuild)
            }
            "move overhead" => {
                self.overhead = Duration::from_millis(spin(MAX_OVERHEAD_MS, 0)?);
                Ok(Change::Kept)
            }
            _ => Err(format!(
                "unknown option '{name}'; the options are Threads, Hash, Clear Hash, Algorithm, Setting, Move Overhead"
            )),
        }
    }

    /// The search method and configuration, with a note when Threads has no effect.
    pub fn method(&self) -> (Method, SearchConfig, Option<String>) {
        let mut config = SearchConfig::for_setting(self.setting);
        config.tt_mib = self.hash_mib;
        if self.algorithm == AUTO {
            let method = if self.threads > 1 {
                Method::Parallel {
                    algo: AUTO_PARALLEL,
                    procs: self.threads,
                    simulated: false,
                }
            } else {
                Method::Sequential(Algorithm::Pvs)
            };
            return (method, config, None);
        }
        if let Some(&seq) = SEQUENTIAL.iter().find(|a| a.name() == self.algorithm) {
            let note = (self.threads > 1).then(|| {
                format!(
                    "Threads {} has no effect: {} is sequential; set Algorithm to a parallel one ({}) to use them",
                    self.threads,
                    seq.name(),
                    parallel_names().join(", ")
                )
            });
            return (Method::Sequential(seq), config, note);
        }
        match self.algorithm.parse::<ParallelAlgo>() {
            Ok(algo) => (
                Method::Parallel {
                    algo,
                    procs: self.threads,
                    simulated: false,
                },
                config,
                None,
            ),
            // `set` lets only known names through; keep the default should that ever change.
            Err(e) => (
                Method::Sequential(Algorithm::Pvs),
                config,
                Some(format!("{e}; searching with pvs")),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_declared_with_its_default() {
        let lines = Options::default().declare();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("option name Threads type spin default 1"))
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("option name Hash type spin default 16"))
        );
        let algo = lines.iter().find(|l| l.contains("name Algorithm")).unwrap();
        assert!(algo.contains("default auto var auto var pvs"), "{algo}");
        for name in ["pvs", "alphabeta", "delaysplit", "mwf"] {
            assert!(algo.contains(&format!(" var {name}")), "{algo}");
        }
        assert_eq!(algo.matches(" var alphabeta").count(), 1);
    }

    #[test]
    fn setting_options_checks_names_and_ranges() {
        let mut o = Options::default();
        assert_eq!(o.set("threads", Some("4")), Ok(Change::Rebuild));
        assert_eq!(o.threads, 4);
        assert!(
            o.set("Threads", Some("0"))
                .unwrap_err()
                .contains("1 to 256")
        );
        assert!(o.set("Threads", Some("many")).is_err());
        assert!(o.set("Hash", None).unwrap_err().contains("needs 'value"));
        assert_eq!(o.set("Move Overhead", Some("100")), Ok(Change::Kept));
        assert_eq!(o.overhead, Duration::from_millis(100));
        assert_eq!(o.set("Clear Hash", None), Ok(Change::ClearHash));
        assert!(
            o.set("Algorithm", Some("magic"))
                .unwrap_err()
                .contains("delaysplit")
        );
        assert!(
            o.set("Setting", Some("blitz"))
                .unwrap_err()
                .contains("research")
        );
        assert!(
            o.set("Ponder", Some("true"))
                .unwrap_err()
                .contains("unknown option")
        );
        assert_eq!(
            o,
            Options {
                threads: 4,
                overhead: Duration::from_millis(100),
                ..Options::default()
            }
        );
    }

    #[test]
    fn methods_follow_algorithm_and_threads() {
        let mut o = Options::default();
        let (m, config, note) = o.method();
        assert_eq!(m, Method::Sequential(Algorithm::Pvs));
        assert_eq!(config.setting, Setting::Play);
        assert!(note.is_none());
        // Algorithm left at auto: more threads take the parallel algorithm.
        o.set("Threads", Some("3")).unwrap();
        let (m, _, note) = o.method();
        assert_eq!(
            m,
            Method::Parallel {
                algo: AUTO_PARALLEL,
                procs: 3,
                simulated: false
            }
        );
        assert!(note.is_none());
        // An explicit sequential algorithm keeps one thread and says so.
        o.set("Algorithm", Some("pvs")).unwrap();
        let (m, _, note) = o.method();
        assert_eq!(m, Method::Sequential(Algorithm::Pvs));
        assert!(note.unwrap().contains("no effect"));
        o.set("Algorithm", Some("ybw")).unwrap();
        let (m, _, note) = o.method();
        assert_eq!(
            m,
            Method::Parallel {
                algo: ParallelAlgo::DelaySplit,
                procs: 3,
                simulated: false
            }
        );
        assert!(note.is_none());
    }
}
