//! Moving serde values between ranks outside a run: gathering one value per rank at rank 0, and
//! giving rank 0's value to every rank.

use mpi::point_to_point::{Destination, Source};
use mpi::topology::Communicator;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::transport::TAG_COLLECT;
use super::{MpiError, world};

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
    let rank = usize::try_from(world.rank()).unwrap_or(0);
    let size = world.size();
    if rank != 0 {
        let bytes = encode(rank, &value)?;
        world
            .process_at_rank(0)
            .send_with_tag(&bytes[..], TAG_COLLECT);
        return Ok(None);
    }
    let mut all = Vec::with_capacity(usize::try_from(size).unwrap_or(1));
    all.push(value);
    for r in 1..size {
        let (bytes, _) = world
            .process_at_rank(r)
            .receive_vec_with_tag::<u8>(TAG_COLLECT);
        all.push(decode(rank, usize::try_from(r).unwrap_or(0), &bytes)?);
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
    let rank = usize::try_from(world.rank()).unwrap_or(0);
    if rank != 0 {
        let (bytes, _) = world
            .process_at_rank(0)
            .receive_vec_with_tag::<u8>(TAG_COLLECT);
        return decode::<Option<T>>(rank, 0, &bytes)?.ok_or_else(|| MpiError::Codec {
            rank,
            detail: "rank 0 had no value to broadcast".to_string(),
        });
    }
    let bytes = encode(rank, &value)?;
    for r in 1..world.size() {
        world
            .process_at_rank(r)
            .send_with_tag(&bytes[..], TAG_COLLECT);
    }
    value.ok_or_else(|| MpiError::Codec {
        rank,
        detail: "rank 0 had no value to broadcast".to_string(),
    })
}
