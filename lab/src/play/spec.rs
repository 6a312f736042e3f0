//! Engine specifications of `runner play --a/--b`: one of the project's engines, in process, as
//! comma-separated `key=value` pairs (`algo=pvs,setting=play,tt-mb=16`,
//! `algo=ybw,procs=2,backend=threads`), or an outside program speaking a protocol, as
//! `PROTOCOL:COMMAND` followed by comma-separated keys
//! (`uci:/usr/games/stockfish,option.UCI_Elo=2300,name=sf`).
//!
//! The project's engines:
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
//!
//! Outside programs: `uci:COMMAND` (chess engines speaking UCI), `gtp:COMMAND` (Othello
//! engines speaking GTP, on the games whose row in [`crate::per_game`] has a GTP board) or
//! `line:COMMAND` (the line protocol of `runner engine`, any game; `runner/src/line/README.md`).
//! `COMMAND` is the program and its arguments, separated by spaces (quote an argument with
//! spaces in `'` or `"`); it ends at the first comma, so neither may hold one.
//!
//! | key | values | default |
//! | --- | --- | --- |
//! | `option.NAME` | `option.NAME=VALUE` sets the engine's option NAME (spaces allowed) at start: `setoption` in UCI and the line protocol; GTP engines take theirs on their command line | the engine's |
//! | `name` | the name in the report and the records | the command, the program without its folder |

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

/// The protocol an outside engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The Universal Chess Interface.
    Uci,
    /// The Go Text Protocol (for Othello).
    Gtp,
    /// The line protocol of `runner engine`.
    Line,
}

impl Protocol {
    /// Its prefix in a specification, without the colon.
    #[must_use]
    pub fn prefix(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Gtp => "gtp",
            Protocol::Line => "line",
        }
    }

    const ALL: [Protocol; 3] = [Protocol::Uci, Protocol::Gtp, Protocol::Line];
}

/// An outside engine: a program speaking a protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutsideSpec {
    /// The name shown in reports and records.
    pub name: String,
    /// The protocol.
    pub protocol: Protocol,
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The options set at start, `(NAME, VALUE)` in the order given.
    pub options: Vec<(String, String)>,
}

/// An engine of a match: one of the project's, in process, or an outside program.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineSpec {
    /// In process.
    Own(Box<Spec>),
    /// An outside program.
    Outside(OutsideSpec),
}

impl EngineSpec {
    /// The name shown in reports and records.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            EngineSpec::Own(s) => &s.name,
            EngineSpec::Outside(o) => &o.name,
        }
    }
}

/// Parses an engine of `--a`/`--b`: `uci:`, `gtp:` or `line:` and a command, or else the
/// project's engine of [`parse`]. The error names the bad part and what is accepted.
pub fn parse_engine(text: &str) -> Result<EngineSpec, String> {
    let trimmed = text.trim();
    for protocol in Protocol::ALL {
        let Some(rest) = trimmed
            .strip_prefix(protocol.prefix())
            .and_then(|r| r.strip_prefix(':'))
        else {
            continue;
        };
        return parse_outside(protocol, rest).map(EngineSpec::Outside);
    }
    if let Some((word, _)) = trimmed.split_once(':') {
        if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!(
                "unknown protocol '{word}:'; outside engines are uci:COMMAND, gtp:COMMAND or line:COMMAND"
            ));
        }
    }
    parse(text).map(|s| EngineSpec::Own(Box::new(s)))
}

/// The keys of an outside engine's specification.
const OUTSIDE_KEYS: &str = "option.NAME=VALUE, name";

fn parse_outside(protocol: Protocol, text: &str) -> Result<OutsideSpec, String> {
    let prefix = protocol.prefix();
    let (command, keys) = text.split_once(',').unwrap_or((text, ""));
    let mut words = split_command(command).map_err(|e| format!("{prefix}: {e}"))?;
    if words.is_empty() {
        return Err(format!(
            "{prefix}: give the program to run, e.g. {prefix}:/usr/games/engine --flag"
        ));
    }
    let program = words.remove(0);
    let mut name = None;
    let mut options = Vec::new();
    for pair in keys.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(format!("'{pair}' is not key=value (keys: {OUTSIDE_KEYS})"));
        };
        let (key, value) = (key.trim(), value.trim());
        if key == "name" {
            name = Some(value.to_string());
        } else if let Some(option) = key.strip_prefix("option.") {
            if option.is_empty() {
                return Err(format!("'{pair}': give the option's name after 'option.'"));
            }
            if protocol == Protocol::Gtp {
                return Err(format!(
                    "'{pair}': GTP has no options; give the engine's settings on its command line"
                ));
            }
            options.push((option.to_string(), value.to_string()));
        } else {
            return Err(format!(
                "unknown key '{key}' for an outside engine; the keys are {OUTSIDE_KEYS}"
            ));
        }
    }
    let shown = std::iter::once(program.rsplit('/').next().unwrap_or(&program).to_string())
        .chain(words.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    Ok(OutsideSpec {
        name: name.unwrap_or(shown),
        protocol,
        program,
        args: words,
        options,
    })
}

/// Splits a command line into words at spaces; `'...'` and `"..."` hold spaces.
fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("the command '{}' has an unclosed {q}", text.trim()));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

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
    fn outside_engines_with_arguments_options_and_names() {
        let EngineSpec::Outside(s) = parse_engine(
            "uci:/usr/games/stockfish,option.UCI_LimitStrength=true,option.Move Overhead=10,name=sf",
        )
        .unwrap() else {
            panic!("an outside engine");
        };
        assert_eq!(s.protocol, Protocol::Uci);
        assert_eq!(s.program, "/usr/games/stockfish");
        assert!(s.args.is_empty());
        assert_eq!(
            s.options,
            vec![
                ("UCI_LimitStrength".to_string(), "true".to_string()),
                ("Move Overhead".to_string(), "10".to_string())
            ]
        );
        assert_eq!(s.name, "sf");
        let EngineSpec::Outside(s) = parse_engine("gtp:/usr/games/gtp-rhino -l 4 -m 8").unwrap()
        else {
            panic!("an outside engine");
        };
        assert_eq!(
            (s.protocol, s.program.as_str()),
            (Protocol::Gtp, "/usr/games/gtp-rhino")
        );
        assert_eq!(s.args, ["-l", "4", "-m", "8"]);
        assert_eq!(s.name, "gtp-rhino -l 4 -m 8");
        let EngineSpec::Outside(s) =
            parse_engine("line:runner engine --game 'my game' \"a b\"c").unwrap()
        else {
            panic!("an outside engine");
        };
        assert_eq!(s.args, ["engine", "--game", "my game", "a bc"]);
        assert!(matches!(
            parse_engine("algo=pvs").unwrap(),
            EngineSpec::Own(_)
        ));
    }

    #[test]
    fn bad_outside_specs_name_the_problem() {
        for (text, needle) in [
            ("uci:", "give the program"),
            ("uci: ,name=x", "give the program"),
            ("line:eng 'open", "unclosed '"),
            (
                "uci:sf,depth=3",
                "unknown key 'depth' for an outside engine",
            ),
            ("uci:sf,option.=3", "option's name"),
            ("uci:sf,Hash", "not key=value"),
            ("gtp:rhino,option.Level=3", "GTP has no options"),
        ] {
            let e = parse_engine(text).unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
        // Anything else is the project's engine and its own errors.
        assert!(
            parse_engine("xboard:crafty")
                .unwrap_err()
                .contains("unknown protocol 'xboard:'")
        );
        assert!(parse_engine("algo").unwrap_err().contains("not key=value"));
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
