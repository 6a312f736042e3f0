//! The games crate's integration tests, one binary (`cargo test -p games --test it`): each module is one
//! concern. `no_alloc` stays a binary of its own: its counting global allocator would count the
//! allocations of every other test of the binary.

mod checkers_games;
mod chess_differential;
mod othello_crate;
mod othello_games_testset;
mod perft;
mod properties;
mod tictactoe_facts;
