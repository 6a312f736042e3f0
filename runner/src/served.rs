//! What `runner engine` (the line protocol) and `runner gtp` share: the engine options (the UCI
//! engine's [`Options`], set from the command line and, in the line protocol, by `setoption`),
//! the engine itself (`control::engine::Player`, as in `runner uci`, `runner play` and
//! `runner search`), and one move chosen under a [`Budget`].

use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use games::Game;

use crate::uci::options::{Change, Options};
use control::engine::{Budget, Event, Player, Stop, Thought, WallClock};
use lab::input_error::input;

/// The engine options of `runner engine` and `runner gtp`.
#[derive(Debug, Args)]
pub struct ServedArgs {
    /// The game (see `runner list`).
    #[arg(long)]
    pub game: String,
    /// Processors of a parallel algorithm (with --algo auto, more than 1 plays abdada).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table in MiB (per processor for parallel algorithms).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// auto (pvs on one thread, abdada on more), pvs, alphabeta, or a parallel algorithm.
    #[arg(long, default_value = "auto")]
    pub algo: String,
    /// play (every enhancement) or research (the fixed-depth tree of the experiments).
    #[arg(long, default_value = "play")]
    pub setting: String,
    /// Milliseconds kept back from every move's time for the pipes.
    #[arg(long, default_value_t = 0)]
    pub move_overhead_ms: u64,
}

impl ServedArgs {
    /// The options these flags set.
    ///
    /// # Errors
    /// An input error naming the flag and the accepted values.
    pub fn options(&self) -> Result<Options> {
        let mut o = Options::default();
        for (flag, name, value) in [
            ("--threads", "Threads", self.threads.to_string()),
            ("--hash", "Hash", self.hash.to_string()),
            ("--algo", "Algorithm", self.algo.clone()),
            ("--setting", "Setting", self.setting.clone()),
            (
                "--move-overhead-ms",
                "Move Overhead",
                self.move_overhead_ms.to_string(),
            ),
        ] {
            o.set(name, Some(&value)).map_err(|e| input(flag, e))?;
        }
        Ok(o)
    }
}

/// The engine of a protocol session: its options and, once built, its player.
pub struct Served<G: Game> {
    /// The option values.
    pub options: Options,
    player: Option<Player<G>>,
}

impl<G: Game> Served<G> {
    /// An engine with `options`, built on first use.
    pub fn new(options: Options) -> Self {
        Served {
            options,
            player: None,
        }
    }

    /// Applies `setoption`; a message names a bad option or value.
    ///
    /// # Errors
    /// The message.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        match self.options.set(name, value)? {
            Change::Rebuild => self.player = None,
            Change::Kept => {}
            Change::ClearHash => self.forget(),
        }
        Ok(())
    }

    /// Forgets what earlier games taught (a new game).
    pub fn forget(&mut self) {
        if let Some(p) = &mut self.player {
            p.clear();
        }
    }

    /// Builds the player unless it is built (`isready` does, so that `go` does not pay for the
    /// table). Returns a note when `Threads` has no effect.
    ///
    /// # Errors
    /// When the player cannot be built (the table).
    pub fn build(&mut self) -> Result<Option<String>, String> {
        if self.player.is_some() {
            return Ok(None);
        }
        let (method, config, note) = self.options.method();
        let player = Player::new(method, config)
            .map_err(|e| format!("cannot build the engine: {e}; lower Hash"))?;
        self.player = Some(player);
        Ok(note)
    }

    /// The budget of a move with `time` to think (less the Move Overhead, at least 1 ms; no
    /// depth starts after half of it, as in `runner search --time-ms` and `runner play`), and at
    /// most `depth` plies and `nodes` nodes.
    pub fn budget(&self, time: Option<Duration>, depth: Option<u32>, nodes: Option<u64>) -> Budget {
        Budget {
            depth,
            nodes,
            time: time.map(|t| {
                t.saturating_sub(self.options.overhead)
                    .max(Duration::from_millis(1))
            }),
            fixed_time: false,
        }
    }

    /// Chooses a move in `pos` within `budget`, the clock started by the caller when the request
    /// arrived; `report` sees each completed depth.
    ///
    /// # Errors
    /// When the player cannot be built or the search fails.
    pub fn think(
        &mut self,
        pos: &G,
        budget: &Budget,
        clock: WallClock,
        report: &mut dyn FnMut(Event<G::Move>),
    ) -> Result<Thought<G::Move>, String> {
        self.build()?;
        let Some(player) = &mut self.player else {
            return Err("no engine".into());
        };
        player
            .think(pos, budget, clock, &Stop::new(), report)
            .map_err(|e| format!("search failed: {e}"))
    }
}

/// Writes one line and flushes it; a closed output is ignored (the client is gone).
pub fn line(out: &mut impl Write, text: &str) {
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}
