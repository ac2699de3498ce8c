//! Which lane of the gate each request takes ([`Cost`]), from its checked shape before any work:
//! cheap when it is sure to take well under a few milliseconds. A rough bound is enough here (the
//! refusal of work over the limits is the game's own cost model); erring towards expensive only
//! costs a request a place in the shorter queue.

use crate::gate::Cost;
use ply::games::dice_race::request::{CompareRequest, PicksRequest};
use ply::games::magic_board::request::{GenerateRequest, MagicBoardRequest};
use ply::games::solitaire::request::SolitaireRequest;
use ply::input::number_list::NumberList;

/// Cheap when `sure` holds.
fn lane(sure: bool) -> Cost {
    if sure {
        Cost::Cheap
    } else {
        Cost::Expensive
    }
}

/// How many numbers a list holds (counted, not parsed).
fn count(list: &NumberList) -> usize {
    match list {
        NumberList::Text(text) => ply::input::number::items(text).count(),
        NumberList::Numbers(numbers) => numbers.len(),
    }
}

/// Number Solitaire: the best path is a few nanoseconds a square; the exact distribution grows
/// fast with the squares.
pub fn solitaire(r: &SolitaireRequest) -> Cost {
    let squares = count(&r.squares);
    lane(squares <= 100_000 && (!r.distribution || squares <= 24))
}

/// A dice race: small lists on a few small dice race in microseconds.
pub fn compare(r: &CompareRequest) -> Cost {
    lane(count(&r.first).max(count(&r.second)) <= 6 && r.dice * r.sides <= 18)
}

/// The best list or the equilibrium: a search over all lists, cheap only for a pick or two on
/// small dice.
pub fn picks(r: &PicksRequest) -> Cost {
    lane(r.picks <= 2 && r.dice * r.sides <= 12)
}

/// A MagicBoard: a breadth-first search over its squares, cheap up to a thousand or so.
pub fn magic_board(r: &MagicBoardRequest) -> Cost {
    lane(r.board.len() <= 4096)
}

/// A generated MagicBoard: drawing and solving, cheap for small sizes.
pub fn generate(r: &GenerateRequest) -> Cost {
    lane(r.size <= 32)
}
