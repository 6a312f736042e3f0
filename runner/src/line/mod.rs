//! `runner engine --game G`: the project's engine for any registered game over the line
//! protocol, on stdin/stdout (`README.md` beside this file), so that `runner play` and other
//! referees can run it as an outside program.
//!
//! | module | concept |
//! | --- | --- |
//! | `session` | the command loop |
//! | `crate::served` | the options and the engine, shared with `runner gtp` |

mod session;

use anyhow::Result;
use games::{Game, GameId, GameInfo, GameVisitor};

use crate::served::ServedArgs;
use lab::input_error::input;

/// Runs the engine on stdin and stdout until `quit` or the end of the input.
pub fn run(args: &ServedArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    let options = args.options()?;
    struct Run(crate::uci::options::Options);
    impl GameVisitor for Run {
        type Output = ();
        fn visit<G: Game>(self, info: &'static GameInfo) {
            let mut s = session::Session::<G, _>::new(std::io::stdout(), info, self.0);
            s.run(std::io::stdin().lock());
        }
    }
    game.visit(Run(options));
    Ok(())
}
