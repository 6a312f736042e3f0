//! endgame
