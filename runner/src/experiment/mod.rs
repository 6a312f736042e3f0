//! `runner experiment`: named reproductions of the papers' figures and tables.

use anyhow::Result;

use crate::cli::ExperimentArgs;

/// Runs `runner experiment`.
pub fn run(_args: &ExperimentArgs) -> Result<()> {
    Ok(())
}
