//! `ply play heaps`: lowest-heap Nim against the perfect player, who wins as fast as it can and, when
//! it cannot win, makes the game last as long as it can.

use super::session::{self, Match, Unplayed};
use super::{First, Players};
use crate::failure::Failure;
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::Player;
use plysolve::games::heaps::play::HeapsGame;
use plysolve::games::heaps::player::HeapMove;
use plysolve::games::heaps::request::PlayHeapsRequest;
use plysolve::input::number_list::NumberList;
use std::fmt::Write;

/// `ply play heaps …`
#[derive(clap::Args)]
pub struct HeapsPlayArgs {
    /// Heap sizes from heap 1 (spaces or commas between them), each at least 1.
    #[arg(required = true)]
    sizes: Vec<String>,
    /// Misère play: whoever takes the last counter loses.
    #[arg(long)]
    misere: bool,
    #[command(flatten)]
    players: Players,
}

/// Runs `ply play heaps`.
pub fn run(args: HeapsPlayArgs) -> Result<(), Failure> {
    play(&args.sizes.join(" "), args.misere, &args.players)
}

/// Plays lowest-heap Nim from the heaps written in `sizes`: the position is the one
/// `POST /api/play/heaps` reads from the same request, and its replies are the perfect player's. Every
/// rule — which heap, how many, whose turn, the end and the winner — is the home's [`HeapsGame`].
fn play(sizes: &str, misere: bool, players: &Players) -> Result<(), Failure> {
    let request = PlayHeapsRequest {
        heaps: NumberList::text(sizes),
        misere,
        seed: super::seed_or_clock(players.seed),
    };
    let position = request.validate().map_err(Failure::bad)?;
    let seed = request.seed;
    let mut game = HeapsMatch {
        game: HeapsGame::new(&position),
        chooser: Chooser::new(seed),
        user: (!players.watch).then_some(match players.first {
            First::Me => Player::A,
            First::Ply => Player::B,
        }),
    };
    session::run(&mut game, players, seed)
}

struct HeapsMatch {
    game: HeapsGame,
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

    /// Takes `count` counters (already read by the game) and says so.
    fn take(&mut self, count: u64) -> String {
        let played = self
            .game
            .take(count)
            .expect("a take read by the game is allowed");
        format!(
            "{} ({}) takes {count} from heap {}",
            played.player,
            self.who(played.player),
            played.heap
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
        let lowest = self.game.lowest().map(|(heap, _)| heap);
        let mut out = String::from("\n");
        for (i, &h) in self.game.heaps().iter().enumerate() {
            let sticks = if h <= 40 {
                "|".repeat(h as usize)
            } else {
                format!("{}…", "|".repeat(40))
            };
            let mark = if Some(i + 1) == lowest {
                "   <- take from here"
            } else {
                ""
            };
            let _ = writeln!(out, "heap {}: {h:>3} {sticks}{mark}", i + 1);
        }
        if !self.over() {
            let to_move = self.game.to_move();
            let _ = writeln!(out, "{to_move} to move ({}).", self.who(to_move));
        }
        Ok(out)
    }

    fn over(&self) -> bool {
        self.game.is_over()
    }

    fn user_to_move(&self) -> bool {
        Some(self.game.to_move()) == self.user
    }

    fn perfect_move(&mut self) -> Result<String, Failure> {
        let choice = self
            .game
            .perfect_take(&mut self.chooser)
            .expect("a game that is not over has a move");
        let did = self.take(choice.take);
        Ok(format!("{did} ({})", Self::verdict(&choice.class)))
    }

    fn user_move(&mut self, text: &str) -> Result<String, Unplayed> {
        let count = self.game.read_take(text).map_err(|e| e.to_string())?;
        Ok(self.take(count))
    }

    fn hint(&mut self) -> Result<String, Failure> {
        let to_move = self.game.to_move();
        let mut out = format!("Moves for {to_move} ({}), best first:\n", self.who(to_move));
        for m in &self.game.moves() {
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
        Box::new(self.game.clone())
    }

    fn restore(&mut self, snapshot: Box<dyn std::any::Any>) {
        if let Ok(game) = snapshot.downcast::<HeapsGame>() {
            self.game = *game;
        }
    }

    fn result(&mut self) -> Result<String, Failure> {
        let winner = self.game.winner().expect("a game over has a winner");
        Ok(format!(
            "Game over: {winner} ({}) wins: {}.\n",
            self.who(winner),
            self.game.ending()
        ))
    }

    fn move_example(&self) -> &'static str {
        "a number of counters to take (or all)"
    }
}
