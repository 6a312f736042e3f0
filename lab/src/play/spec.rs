//! Engine specifications of `runner play --a/--b`: comma-separated `key=value` pairs, e.g.
//! `algo=pvs,setting=play,tt-mb=16` or `algo=ybw,procs=2,backend=threads`.
//!
//! | key | values | default |
//! | --- | --- | --- |
//! | `algo` | a sequential algorithm (pvs, alphabeta, minimax) or, with `procs`, a parallel one of `runner list` | pvs |
//! | `procs` | processors of a parallel algorithm (1 to 4096); a parallel-only name implies 1 | sequential |
//! | `backend` | threads, or sim (the simulator: the engine's time per move is virtual, on the simulated machine) | threads |
//! | `preset` | with `backend=sim`: the simulated machine, a preset name or a cost-model file (`runner list`) | shared-memory |
//! | `seed` | with `backend=sim`: the simulator's seed | 1 |
//! | `setting` | research or play | play |
//! | `tt-mb` | transposition table MiB (per processor for parallel algorithms) | 16 |
//! | `play-features` | the play setting's enhancements, `+`-separated (`runner search --play-features` names), or none | the defaults |
//! | `without` | enhancements taken off the defaults, `+`-separated | none |
//! | `name` | the name in the report and the records | the spec itself |

use control::engine::{EngineError, Method, Player};
use control::parallel::{ParallelAlgo, ParallelOptions};
use control::search::{
    Algorithm, PlayFeature, PlayFeatures, SearchConfig, Setting, tt::MAX_TT_MIB,
};
use dib::{Backend, SimConfig};
use games::Game;

use crate::dib_flags::MAX_PROCS;

/// A parsed engine specification.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The name shown in reports and records.
    pub name: String,
    /// How it searches.
    pub method: Method,
    /// Its search configuration (setting, table size).
    pub config: SearchConfig,
    /// The simulated machine of a simulated engine (`None` on real threads).
    pub sim: Option<SimConfig>,
}

impl Spec {
    /// The engine.
    ///
    /// # Errors
    /// When a table cannot be built or the algorithm refuses its options.
    pub fn player<G: Game>(&self) -> Result<Player<G>, EngineError> {
        match self.method {
            Method::Parallel { algo, procs, .. } => {
                let backend = match &self.sim {
                    Some(c) => Backend::Sim(c.clone()),
                    None => Backend::Threads { seed: 1 },
                };
                let mut options = ParallelOptions::for_algo(algo, 1, procs, backend);
                options.search = self.config;
                Player::parallel(algo, &options)
            }
            Method::Sequential(_) => Player::new(self.method, self.config),
        }
    }
}

/// Parses `text`; the error names the bad key or value and what is accepted.
pub fn parse(text: &str) -> Result<Spec, String> {
    let mut algo = None;
    let mut procs = None;
    let mut simulated = false;
    let mut setting = Setting::Play;
    let mut tt_mib = 16;
    let mut name = None;
    let mut preset = None;
    let mut seed = 1;
    let mut features = PlayFeatures::default();
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(format!("'{pair}' is not key=value (keys: {KEYS})"));
        };
        let (key, value) = (key.trim(), value.trim());
        match key {
            "algo" => algo = Some(value.to_string()),
            "procs" => {
                let n: usize = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_PROCS).contains(n))
                    .ok_or_else(|| format!("procs={value}: use 1 to {MAX_PROCS}"))?;
                procs = Some(n);
            }
            "backend" => {
                simulated = match value {
                    "threads" => false,
                    "sim" => true,
                    _ => return Err(format!("backend={value}: use threads or sim")),
                }
            }
            "setting" => setting = value.parse().map_err(|e| format!("{e}"))?,
            "tt-mb" => {
                tt_mib = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_TT_MIB).contains(n))
                    .ok_or_else(|| format!("tt-mb={value}: use 1 to {MAX_TT_MIB}"))?;
            }
            "name" => name = Some(value.to_string()),
            "play-features" => {
                features = PlayFeatures::NONE;
                if value != "none" {
                    set_features(&mut features, key, value, true)?;
                }
            }
            "without" => set_features(&mut features, key, value, false)?,
            "preset" => preset = Some(value.to_string()),
            "seed" => {
                seed = value
                    .parse()
                    .map_err(|_| format!("seed={value}: give a whole number"))?;
            }
            _ => {
                return Err(format!("unknown key '{key}'; the keys are {KEYS}"));
            }
        }
    }
    let algo = algo.unwrap_or_else(|| Algorithm::Pvs.name().to_string());
    let sequential = algo.parse::<Algorithm>().ok();
    let method = match (sequential, procs) {
        (Some(a), None) => {
            if simulated {
                return Err("backend=sim needs a parallel algorithm and procs=N".into());
            }
            Method::Sequential(a)
        }
        _ => {
            let parallel: ParallelAlgo = algo.parse().map_err(|e| {
                format!("{e} (or a sequential one without procs: pvs, alphabeta, minimax)")
            })?;
            Method::Parallel {
                algo: parallel,
                procs: procs.unwrap_or(1),
                simulated,
            }
        }
    };
    let mut config = SearchConfig::for_setting(setting);
    config.tt_mib = tt_mib;
    if features != PlayFeatures::default() && setting != Setting::Play {
        return Err("play-features= and without= need setting=play".into());
    }
    config.play_features = features;
    let sim = if simulated {
        let model = crate::dib_flags::cost_model(preset.as_deref().unwrap_or("shared-memory"))
            .map_err(|e| format!("preset: {e:#}"))?;
        Some(SimConfig::new(model, seed))
    } else {
        if preset.is_some() {
            return Err("preset= needs backend=sim".into());
        }
        None
    };
    Ok(Spec {
        name: name.unwrap_or_else(|| text.to_string()),
        method,
        config,
        sim,
    })
}

/// Sets each `+`-separated play feature of `list` (given for `key`) to `on`.
fn set_features(
    features: &mut PlayFeatures,
    key: &str,
    list: &str,
    on: bool,
) -> Result<(), String> {
    for name in list.split('+').map(str::trim) {
        let feature: PlayFeature = name.parse().map_err(|e| format!("{key}={list}: {e}"))?;
        *features.switch(feature) = on;
    }
    Ok(())
}

/// The keys of a specification.
const KEYS: &str =
    "algo, procs, backend, preset, seed, setting, tt-mb, play-features, without, name";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_and_parallel_specs() {
        let s = parse("algo=pvs,setting=play,tt-mb=8").unwrap();
        assert_eq!(s.method, Method::Sequential(Algorithm::Pvs));
        assert_eq!(s.config.setting, Setting::Play);
        assert_eq!(s.config.tt_mib, 8);
        assert_eq!(s.name, "algo=pvs,setting=play,tt-mb=8");
        let s = parse("algo=ybw,procs=2,backend=threads,setting=research,name=ybw2").unwrap();
        assert_eq!(
            s.method,
            Method::Parallel {
                algo: ParallelAlgo::DelaySplit,
                procs: 2,
                simulated: false
            }
        );
        assert_eq!(s.config.setting, Setting::Research);
        assert_eq!(s.name, "ybw2");
        // A name that is both: sequential without procs, parallel with.
        assert_eq!(
            parse("algo=alphabeta").unwrap().method,
            Method::Sequential(Algorithm::AlphaBeta)
        );
        assert!(matches!(
            parse("algo=alphabeta,procs=3").unwrap().method,
            Method::Parallel { procs: 3, .. }
        ));
        assert!(matches!(
            parse("algo=mwf").unwrap().method,
            Method::Parallel { procs: 1, .. }
        ));
        assert_eq!(
            parse("").unwrap().method,
            Method::Sequential(Algorithm::Pvs)
        );
    }

    #[test]
    fn play_features_are_chosen_in_full_or_taken_off_the_defaults() {
        let s = parse("play-features=null-move+lmr").unwrap();
        let f = s.config.play_features;
        assert!(f.null_move && f.late_move_reductions && !f.check_extensions && !f.delta);
        assert_eq!(
            parse("play-features=none").unwrap().config.play_features,
            PlayFeatures::NONE
        );
        let f = parse("without=delta+mate-distance")
            .unwrap()
            .config
            .play_features;
        assert!(!f.delta && !f.mate_distance && f.null_move && f.see_ordering);
        assert!(parse("without=fly").unwrap_err().contains("without=fly"));
        assert!(
            parse("setting=research,without=lmr")
                .unwrap_err()
                .contains("setting=play")
        );
    }

    #[test]
    fn bad_specs_name_the_problem() {
        assert!(parse("algo").unwrap_err().contains("not key=value"));
        assert!(
            parse("colour=red")
                .unwrap_err()
                .contains("unknown key 'colour'")
        );
        assert!(parse("procs=0").unwrap_err().contains("use 1 to"));
        assert!(
            parse("algo=pvs,procs=2")
                .unwrap_err()
                .contains("unknown parallel algorithm")
        );
        assert!(parse("backend=mpi").unwrap_err().contains("threads or sim"));
        assert!(
            parse("backend=sim")
                .unwrap_err()
                .contains("needs a parallel")
        );
        assert!(parse("tt-mb=0").unwrap_err().contains("tt-mb=0"));
        assert!(parse("setting=fast").unwrap_err().contains("research"));
    }
}
