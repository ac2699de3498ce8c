//! The two players of a two-player game.

use serde::Serialize;
use std::fmt;

/// One of the two players. `A` moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Player {
    /// The player who moves first.
    A,
    /// The player who moves second.
    B,
}

impl Player {
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }

    /// 0 for `A`, 1 for `B`: an index into per-player arrays such as scores.
    pub fn index(self) -> usize {
        match self {
            Player::A => 0,
            Player::B => 1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::A => "A",
            Player::B => "B",
        })
    }
}

/// Who wins a finished two-player scored game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Winner {
    /// The first player scored more.
    A,
    /// The second player scored more.
    B,
    /// Equal scores.
    #[serde(rename = "tie")]
    Tie,
}

impl Winner {
    /// The winner given the final margin of `A` over `B`.
    pub fn from_margin_a(margin_a: i64) -> Winner {
        match margin_a.cmp(&0) {
            std::cmp::Ordering::Greater => Winner::A,
            std::cmp::Ordering::Less => Winner::B,
            std::cmp::Ordering::Equal => Winner::Tie,
        }
    }
}

/// The final margin of `A` over `B` when play continues perfectly from a position whose future is
/// worth `value` to `to_move`, after `score` points already won by `[A, B]`.
pub fn final_margin_a(score: [u32; 2], to_move: Player, value: i32) -> i64 {
    let so_far = score[0] as i64 - score[1] as i64;
    match to_move {
        Player::A => so_far + value as i64,
        Player::B => so_far - value as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_and_winners() {
        assert_eq!(final_margin_a([1, 0], Player::A, -3), -2);
        assert_eq!(final_margin_a([1, 0], Player::B, -3), 4);
        assert_eq!(Winner::from_margin_a(-2), Winner::B);
        assert_eq!(Winner::from_margin_a(0), Winner::Tie);
        assert_eq!(Player::A.other(), Player::B);
    }
}
