//! `ply play heaps`: lowest-heap Nim against the perfect player, who wins as fast as it can and, when
//! it cannot win, makes the game last as long as it can.

use super::session::{self, Match};
use super::{First, Players};
use crate::failure::Failure;
use plysolve::engine::impartial::Convention;
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::Player;
use plysolve::games::heaps::player::{choose_heap_move, heap_moves, HeapMove};
use plysolve::games::heaps::request::PlayHeapsRequest;
use plysolve::input::number_list::NumberList;
use std::fmt::Write;

/// Plays lowest-heap Nim from the heaps written in `sizes`: the position is the one
/// `POST /api/play/heaps` reads from the same request, and its replies are the perfect player's.
pub fn play(sizes: &str, misere: bool, players: &Players) -> Result<(), Failure> {
    let request = PlayHeapsRequest {
        heaps: NumberList::text(sizes),
        misere,
        seed: super::seed_or_clock(players.seed),
    };
    let position = request.validate().map_err(Failure::bad)?;
    let seed = request.seed;
    let mut game = HeapsMatch {
        heaps: position.sizes,
        to_move: Player::A,
        last_mover: None,
        convention: position.convention,
        chooser: Chooser::new(seed),
        user: (!players.watch).then_some(match players.first {
            First::Me => Player::A,
            First::Ply => Player::B,
        }),
    };
    session::run(&mut game, players, seed)
}

#[derive(Clone)]
struct State {
    heaps: Vec<u64>,
    to_move: Player,
    last_mover: Option<Player>,
}

struct HeapsMatch {
    heaps: Vec<u64>,
    to_move: Player,
    last_mover: Option<Player>,
    convention: Convention,
    chooser: Chooser,
    user: Option<Player>,
}

impl HeapsMatch {
    fn who(&self, player: Player) -> &'static str {
        if Some(player) == self.user {
            "you"
        } else {
            "ply"
        }
    }

    /// The lowest non-empty heap (0-based).
    fn lowest(&self) -> Option<usize> {
        self.heaps.iter().position(|&h| h > 0)
    }

    fn take(&mut self, count: u64) -> String {
        let heap = self.lowest().expect("a game that is not over has a heap");
        self.heaps[heap] -= count;
        let mover = self.to_move;
        self.last_mover = Some(mover);
        self.to_move = mover.other();
        format!(
            "{mover} ({}) takes {count} from heap {}",
            self.who(mover),
            heap + 1
        )
    }

    fn verdict(m: &HeapMove) -> String {
        let plural = if m.remoteness == 1 { "move" } else { "moves" };
        if m.wins {
            format!("wins, {} {plural} to the end", m.remoteness)
        } else {
            format!("loses, {} {plural} to the end", m.remoteness)
        }
    }
}

impl Match for HeapsMatch {
    fn show(&mut self) -> Result<String, Failure> {
        let lowest = self.lowest();
        let mut out = String::from("\n");
        for (i, &h) in self.heaps.iter().enumerate() {
            let sticks = if h <= 40 {
                "|".repeat(h as usize)
            } else {
                format!("{}…", "|".repeat(40))
            };
            let mark = if Some(i) == lowest {
                "   <- take from here"
            } else {
                ""
            };
            let _ = writeln!(out, "heap {}: {h:>3} {sticks}{mark}", i + 1);
        }
        if !self.over() {
            let _ = writeln!(
                out,
                "{} to move ({}).",
                self.to_move,
                self.who(self.to_move)
            );
        }
        Ok(out)
    }

    fn over(&self) -> bool {
        self.lowest().is_none()
    }

    fn user_to_move(&self) -> bool {
        Some(self.to_move) == self.user
    }

    fn perfect_move(&mut self) -> Result<String, Failure> {
        let choice = choose_heap_move(&self.heaps, self.convention, &mut self.chooser)
            .expect("a game that is not over has a move");
        let did = self.take(choice.take);
        Ok(format!("{did} ({})", Self::verdict(&choice.class)))
    }

    fn user_move(&mut self, text: &str) -> Result<String, String> {
        let heap = self.lowest().expect("a game that is not over has a heap");
        let left = self.heaps[heap];
        let word = text.trim_start_matches("take").trim();
        let count = if word == "all" {
            left
        } else {
            word.parse::<u64>()
                .map_err(|_| format!("`{}` is not a number of counters", session::cut(text)))?
        };
        if count == 0 || count > left {
            return Err(if left == 1 {
                format!("heap {} has 1 counter: take 1", heap + 1)
            } else {
                format!("heap {} has {left} counters: take 1 to {left}", heap + 1)
            });
        }
        Ok(self.take(count))
    }

    fn hint(&mut self) -> Result<String, Failure> {
        let moves = heap_moves(&self.heaps, self.convention);
        let mut out = format!(
            "Moves for {} ({}), best first:\n",
            self.to_move,
            self.who(self.to_move)
        );
        for m in &moves {
            let take = if m.take_min == m.take_max {
                format!("take {}", m.take_min)
            } else {
                format!("take {} to {}", m.take_min, m.take_max)
            };
            let _ = writeln!(out, "  {take:<16} {}", Self::verdict(m));
        }
        Ok(out)
    }

    fn snapshot(&self) -> Box<dyn std::any::Any> {
        Box::new(State {
            heaps: self.heaps.clone(),
            to_move: self.to_move,
            last_mover: self.last_mover,
        })
    }

    fn restore(&mut self, snapshot: Box<dyn std::any::Any>) {
        if let Ok(state) = snapshot.downcast::<State>() {
            self.heaps = state.heaps;
            self.to_move = state.to_move;
            self.last_mover = state.last_mover;
        }
    }

    fn result(&mut self) -> Result<String, Failure> {
        let last = self.last_mover.unwrap_or(Player::B);
        let (winner, why) = match self.convention {
            Convention::Normal => (last, "took the last counter"),
            Convention::Misere => (last.other(), "did not take the last counter"),
        };
        Ok(format!(
            "Game over: {winner} ({}) wins: {why}.\n",
            self.who(winner)
        ))
    }

    fn move_example(&self) -> &'static str {
        "a number of counters to take (or all)"
    }
}
