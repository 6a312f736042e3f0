//! Moving serde values between ranks outside a run: gathering one value per rank at rank 0, and
//! giving rank 0's value to every rank.
//!
//! A receiving rank waits as an idle rank does during a run (probing, yielding the core for a
//! while, then sleeping between probes), not in a blocking receive: Open MPI's blocking receive
//! spins on a core, and rank 0 may compute for seconds before it sends (`runner compare` runs
//! its one-processor cells on rank 0 alone), which on a machine with fewer cores than ranks
//! would slow rank 0 down by the spinning ranks' share of its core.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::transport::{MAX_IDLE_SLEEP, SPIN, TAG_COLLECT};
use super::{MpiError, Wire, world};

fn encode<T: Serialize>(rank: usize, value: &T) -> Result<Vec<u8>, MpiError> {
    postcard::to_allocvec(value).map_err(|e| MpiError::Codec {
        rank,
        detail: format!("cannot encode a collected value: {e}"),
    })
}

fn decode<T: DeserializeOwned>(rank: usize, from: usize, bytes: &[u8]) -> Result<T, MpiError> {
    postcard::from_bytes(bytes).map_err(|e| MpiError::Codec {
        rank,
        detail: format!(
            "cannot decode a value from rank {from} ({e}): are all ranks running the same build?"
        ),
    })
}

/// Waits until a collected value from rank `from` is pending, without holding a core for long.
fn wait_for(world: &dyn Wire, from: usize) {
    let begin = Instant::now();
    let mut sleep = Duration::from_micros(10);
    while !world.pending_from(from, TAG_COLLECT) {
        if begin.elapsed() < SPIN {
            std::thread::yield_now();
        } else {
            std::thread::sleep(sleep);
            sleep = (sleep * 2).min(MAX_IDLE_SLEEP);
        }
    }
}

/// Every rank's `value`, in rank order, at rank 0 (`Some` there, `None` elsewhere). Every rank
/// must call it.
///
/// # Errors
/// [`MpiError::NotInitialized`] without a session; [`MpiError::Codec`] when a value cannot be
/// encoded or decoded.
pub fn gather_at_root<T: Serialize + DeserializeOwned>(
    value: T,
) -> Result<Option<Vec<T>>, MpiError> {
    let world = world()?;
    let world = &*world;
    let rank = world.rank();
    let size = world.size();
    if rank != 0 {
        let bytes = encode(rank, &value)?;
        world.send(0, TAG_COLLECT, &bytes);
        return Ok(None);
    }
    let mut all = Vec::with_capacity(size);
    all.push(value);
    for r in 1..size {
        wait_for(world, r);
        let bytes = world.receive_from(r, TAG_COLLECT);
        all.push(decode(rank, r, &bytes)?);
    }
    Ok(Some(all))
}

/// Rank 0's `value` on every rank. Rank 0 passes `Some`; the others' argument is ignored.
/// Every rank must call it.
///
/// # Errors
/// [`MpiError::NotInitialized`] without a session; [`MpiError::Codec`] when the value cannot be
/// encoded or decoded, or rank 0 passed `None`.
pub fn broadcast_from_root<T: Serialize + DeserializeOwned>(
    value: Option<T>,
) -> Result<T, MpiError> {
    let world = world()?;
    let world = &*world;
    let rank = world.rank();
    if rank != 0 {
        wait_for(world, 0);
        let bytes = world.receive_from(0, TAG_COLLECT);
        return decode::<Option<T>>(rank, 0, &bytes)?.ok_or_else(|| MpiError::Codec {
            rank,
            detail: "rank 0 had no value to broadcast".to_string(),
        });
    }
    let bytes = encode(rank, &value)?;
    for r in 1..world.size() {
        world.send(r, TAG_COLLECT, &bytes);
    }
    value.ok_or_else(|| MpiError::Codec {
        rank,
        detail: "rank 0 had no value to broadcast".to_string(),
    })
}
