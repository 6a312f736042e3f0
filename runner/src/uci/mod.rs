//! `runner uci`: the engine speaks the Universal Chess Interface on stdin/stdout, so chess GUIs
//! (cutechess, Arena, ...) and libraries (python-chess) can use any search of this workspace.
//! See `README.md` beside this file for the options, time management and the parallel
//! algorithms' iterative deepening.
//!
//! | module | concept |
//! | --- | --- |
//! | `protocol` | one line of text into a command |
//! | `options` | the options `uci` announces and `setoption` changes (also `runner engine`'s and `runner gtp`'s) |
//! | `time` | how long to think |
//! | `engine` | the search thread, the stop flag and the shared output |
//! | `info` | `info` and `bestmove` lines |
//! | `session` | the command loop |
//! | `bench` | the console commands `bench` and `d` |

mod bench;
mod engine;
mod info;
pub(crate) mod options;
mod protocol;
mod session;
#[cfg(test)]
mod tests;
mod time;

use anyhow::Result;

pub use engine::Output;
pub use session::Session;

/// Runs the engine on stdin and stdout until `quit` or the end of the input.
pub fn run() -> Result<()> {
    let mut session = Session::new(Output::new(std::io::stdout()));
    session.run(std::io::stdin().lock());
    Ok(())
}
