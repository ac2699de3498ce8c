//! `ply play triangles|boxes`: a dots game against the perfect player. Values come from one solver
//! kept for the whole game (the table when the board allows it, else a memo that keeps what it learnt).

use super::session::{self, Match};
use super::Players;
use crate::failure::Failure;
use ply::engine::scored::choose::{with_solver, SolveOptions};
use ply::engine::scored::search::TieOrder;
use ply::engine::scored::{Solver, Strategy};
use ply::engine::{MemoryBudget, Player, Winner};
use ply::games::dots::geometry::BuiltBoard;
use ply::games::dots::notation::{parse_moves, play_checked};
use ply::games::dots::report::{report_from, Detail, DotsReport};
use ply::games::dots::{DotsBoard, Geometry, Position};
use ply::play::{choose_dots_move, Chooser};
use std::fmt::Write;

/// Plays a dots game on `geometry`.
pub fn play(geometry: Geometry, players: &Players) -> Result<(), Failure> {
    let built = geometry.build().map_err(Failure::bad)?;
    let budget = MemoryBudget::from_system();
    let edges = built.board.edge_count() as u32;
    let strategy = match Strategy::auto(&built.board, edges, budget) {
        Strategy::Table => Strategy::Table,
        _ => Strategy::Memo,
    };
    let options = SolveOptions {
        budget,
        progress: None,
        search_status: None,
        free_items: edges,
        tie_order: TieOrder::default(),
    };
    let seed = super::seed_or_clock(players.seed);
    with_solver(&built.board, strategy, options, |solver| {
        let mut game = DotsMatch {
            built: &built,
            position: Position::new(&built.board),
            solver,
            strategy,
            chooser: Chooser::new(seed),
            user: if players.watch {
                None
            } else {
                Some(players.first)
            },
        };
        Ok(session::run(&mut game, players, seed))
    })
    .map_err(|e| Failure::solve(e, strategy))?
}

struct DotsMatch<'a> {
    built: &'a BuiltBoard,
    position: Position,
    solver: &'a mut dyn Solver<DotsBoard>,
    strategy: Strategy,
    chooser: Chooser,
    /// Who the user is (`None` when watching).
    user: Option<super::First>,
}

impl DotsMatch<'_> {
    fn board(&self) -> &DotsBoard {
        &self.built.board
    }

    fn report(&mut self) -> Result<DotsReport, Failure> {
        report_from(
            self.built,
            &self.position,
            &mut *self.solver,
            self.strategy,
            Detail::Moves,
        )
        .map_err(|e| Failure::solve(e, self.strategy))
    }

    /// Who plays `player`: "you", "ply", or "ply (A)" when watching.
    fn who(&self, player: Player) -> &'static str {
        let user = match self.user {
            None => return "ply",
            Some(super::First::Me) => Player::A,
            Some(super::First::Ply) => Player::B,
        };
        if player == user {
            "you"
        } else {
            "ply"
        }
    }

    /// Draws the move written as `a-b`, returning what it scored.
    fn draw(&mut self, text: &str) -> Result<u32, String> {
        let moves = parse_moves(text).map_err(|e| e.fault.to_string())?;
        let [written] = moves.as_slice() else {
            return Err(format!("one move at a time, please; got {}", moves.len()));
        };
        let before = self.position.score();
        let mover = self.position.to_move();
        let board = &self.built.board;
        play_checked(board, &mut self.position, written.a, written.b)
            .map_err(|fault| fault.to_string())?;
        Ok(self.position.score()[mover.index()] - before[mover.index()])
    }

    fn scored(points: u32) -> String {
        match points {
            0 => String::new(),
            1 => " and scores 1; moves again".into(),
            n => format!(" and scores {n}; moves again"),
        }
    }
}

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

impl Match for DotsMatch<'_> {
    fn show(&mut self) -> Result<String, Failure> {
        let picture =
            self.built
                .canvas
                .draw(self.board(), self.position.drawn(), self.position.owners());
        let [a, b] = self.position.score();
        let mut out = format!("\n{picture}\nScore: A {a}, B {b}.");
        if !self.over() {
            let mover = self.position.to_move();
            let _ = write!(out, " {mover} to move ({}).", self.who(mover));
        }
        out.push('\n');
        Ok(out)
    }

    fn over(&self) -> bool {
        self.position.drawn().len() as usize == self.board().edge_count()
    }

    fn user_to_move(&self) -> bool {
        self.who(self.position.to_move()) == "you"
    }

    fn perfect_move(&mut self) -> Result<String, Failure> {
        let report = self.report()?;
        let mover = self.position.to_move();
        let choice = choose_dots_move(&report.moves, &mut self.chooser)
            .expect("a game that is not over has a move")
            .clone();
        let points = self.draw(&choice.mv).map_err(Failure::Internal)?;
        Ok(format!(
            "{mover} ({}) plays {} (value {}){}",
            self.who(mover),
            choice.mv,
            signed(choice.value as i64),
            Self::scored(points)
        ))
    }

    fn user_move(&mut self, text: &str) -> Result<String, String> {
        let mover = self.position.to_move();
        let points = self.draw(text)?;
        let last = *self.position.history().last().expect("a move was drawn");
        let name = ply::games::dots::notation::format_edge(self.board(), last);
        Ok(format!(
            "{mover} (you) plays {name}{}",
            Self::scored(points)
        ))
    }

    fn hint(&mut self) -> Result<String, Failure> {
        let report = self.report()?;
        let mut out = format!(
            "Moves for {} ({}), best first (value = net {} still to gain):\n",
            report.to_move,
            self.who(report.to_move),
            self.built.geometry.cell_names().1
        );
        for m in &report.moves {
            let scores = if m.points > 0 {
                format!("  (scores {})", m.points)
            } else {
                String::new()
            };
            let _ = writeln!(out, "  {:>6}  {:>4}{scores}", m.mv, signed(m.value as i64));
        }
        Ok(out)
    }

    fn snapshot(&self) -> Box<dyn std::any::Any> {
        Box::new(self.position.clone())
    }

    fn restore(&mut self, snapshot: Box<dyn std::any::Any>) {
        if let Ok(position) = snapshot.downcast::<Position>() {
            self.position = *position;
        }
    }

    fn result(&mut self) -> Result<String, Failure> {
        let [a, b] = self.position.score();
        let margin = a as i64 - b as i64;
        let verdict = match Winner::from_margin_a(margin) {
            Winner::Tie => "a tie".to_string(),
            Winner::A => format!("A ({}) wins by {margin}", self.who(Player::A)),
            Winner::B => format!("B ({}) wins by {}", self.who(Player::B), -margin),
        };
        Ok(format!("Game over: A {a}, B {b}: {verdict}.\n"))
    }

    fn move_example(&self) -> &'static str {
        "a move like 2-3"
    }
}
