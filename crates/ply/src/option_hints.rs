//! Faults worded with the option that asked for what is refused.
//!
//! The library's errors say what is wrong without naming any front end's options. The `ply` command
//! names them by its flags, and the web API by its keys, which are the same long names (`explain`,
//! `picks`, `any_size` ↔ `--explain`, `--picks`, `--any-size`): both front ends word these faults
//! here, so that the terminal and the page say the same thing.

use crate::games::dice_race::search::SearchError;
use crate::games::magic_board::SizeFault;
use crate::games::solitaire::{SolitaireError, DISTRIBUTION_LIMIT};
use std::fmt::Display;

/// A Solitaire fault, naming `--explain` or `--distribution` where one of them asked for too much.
pub fn solitaire(e: &SolitaireError) -> String {
    match e {
        SolitaireError::ExplainTooLong(limit) => format!("--explain {limit}"),
        SolitaireError::DistributionTooLong(limit) => format!("--distribution {limit}"),
        SolitaireError::TooManyTotals(totals) => {
            format!("{totals}; --distribution lists at most {DISTRIBUTION_LIMIT}")
        }
        e => e.to_string(),
    }
}

/// A pick search's fault, naming `--picks` when there are none to pick.
pub fn pick_search(e: &SearchError) -> String {
    match e {
        SearchError::NoPicks => "--picks must be at least 1".to_string(),
        e => e.to_string(),
    }
}

/// A MagicBoard fault (`e`); a size outside the seed's rule (`size`) names `--any-size`, which lifts it.
pub fn board_size(e: &impl Display, size: Option<&SizeFault>) -> String {
    match size {
        Some(fault) => fault.lifted_by("--any-size"),
        None => e.to_string(),
    }
}
