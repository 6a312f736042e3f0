//! `runner gtp --game othello`: the project's Othello engine over the Go Text Protocol, on
//! stdin/stdout (`README.md` beside this file), for GTP controllers and `runner play`.
//!
//! | module | concept |
//! | --- | --- |
//! | `session` | the command loop |
//! | `crate::served` | the options and the engine, shared with `runner engine` |

mod session;

use anyhow::Result;
use clap::Args;
use games::{Game, GameId, GameInfo, GameVisitor};

use crate::served::ServedArgs;
use lab::input_error::input;

/// Arguments of `runner gtp`.
#[derive(Debug, Args)]
pub struct GtpArgs {
    /// The engine and its options.
    #[command(flatten)]
    pub engine: ServedArgs,
    /// Search every move to this depth instead of the time per move of `time_settings`.
    #[arg(long)]
    pub depth: Option<u32>,
}

/// Runs the engine on stdin and stdout until `quit` or the end of the input.
pub fn run(args: &GtpArgs) -> Result<()> {
    let game: GameId = args.engine.game.parse().map_err(|e| input("--game", e))?;
    let Some(board) = lab::per_game::of(game).gtp_board else {
        let games: Vec<&str> = GameId::ALL
            .iter()
            .filter(|g| lab::per_game::of(**g).gtp_board.is_some())
            .map(|g| g.name())
            .collect();
        return Err(input(
            "--game",
            format!("GTP plays {}, not {game}", games.join(", ")),
        ));
    };
    if let Some(d) = args.depth {
        if d == 0 || d > control::search::MAX_DEPTH {
            return Err(input(
                "--depth",
                format!(
                    "{d} is out of range; use 1 to {}",
                    control::search::MAX_DEPTH
                ),
            ));
        }
    }
    let options = args.engine.options()?;
    struct Run(u32, crate::uci::options::Options, Option<u32>);
    impl GameVisitor for Run {
        type Output = ();
        fn visit<G: Game>(self, _: &'static GameInfo) {
            let mut s = session::Session::<G, _>::new(std::io::stdout(), self.0, self.1, self.2);
            s.run(std::io::stdin().lock());
        }
    }
    game.visit(Run(board, options, args.depth));
    Ok(())
}
