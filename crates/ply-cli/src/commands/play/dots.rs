//! `ply play triangles|boxes`: a dots game against ply's player (exact where its time to think
//! proves the position, its strongest estimate otherwise), every move graded as it is played and the
//! game summed up at the end. A status line shows on a terminal while ply thinks.

use super::session::{self, Match};
use super::Players;
use crate::commands::dots::render::{move_line, range_text};
use crate::failure::Failure;
use crate::progress::StatesProgress;
use ply::engine::util::chooser::Chooser;
use ply::engine::{MemoryBudget, Player, Winner};
use ply::games::dots::answer::{answer, Hooks, SearchStatus};
use ply::games::dots::geometry::BuiltBoard;
use ply::games::dots::kept::Kept;
use ply::games::dots::notation::{format_edge, parse_moves, play_checked, position_from_moves};
use ply::games::dots::player::{think, Choice};
use ply::games::dots::policy::{search_bytes_for, Policy};
use ply::games::dots::report::DotsReport;
use ply::games::dots::request::{Detail, Query};
use ply::games::dots::review::{Grade, Verdict};
use ply::games::dots::{DotsBoard, Geometry, Position};
use std::fmt::Write;
use std::time::Duration;

/// Plays a dots game on `geometry`, from the position after `moves`, ply thinking up to `think` a
/// move.
pub fn play(
    geometry: Geometry,
    moves: &str,
    think: Duration,
    books: std::sync::Arc<ply::games::dots::book::Books>,
    players: &Players,
) -> Result<(), Failure> {
    let built = geometry.build().map_err(Failure::bad)?;
    let position = position_from_moves(&built.board, moves).map_err(Failure::bad)?;
    let budget = MemoryBudget::from_system();
    let seed = super::seed_or_clock(players.seed);
    let mut game = DotsMatch {
        built: &built,
        position,
        policy: Policy::new(budget, Some(think)),
        kept: Kept::new(game_memory(think, budget), 1).with_books(books),
        chooser: Chooser::new(seed),
        seed,
        user: if players.watch {
            None
        } else {
            Some(players.first)
        },
        grades: Vec::new(),
    };
    session::run(&mut game, players, seed)
}

/// The search memory kept for a game whose moves each take up to `think`: what a few of them fill
/// ([`search_bytes_for`] four times `think`), from 64 MiB to 1 GiB, at most half the budget.
pub fn game_memory(think: Duration, budget: MemoryBudget) -> u64 {
    search_bytes_for(think * 4)
        .clamp(64 << 20, 1 << 30)
        .min(budget.bytes() / 2)
}

struct DotsMatch<'a> {
    built: &'a BuiltBoard,
    position: Position,
    /// The memory and the time to think per move.
    policy: Policy,
    kept: Kept,
    chooser: Chooser,
    seed: u64,
    /// Who the user is (`None` when watching).
    user: Option<super::First>,
    /// Every move of the game so far, graded.
    grades: Vec<Grade>,
}

/// What `undo` goes back to.
struct Snapshot {
    position: Position,
    grades: Vec<Grade>,
}

impl DotsMatch<'_> {
    fn board(&self) -> &DotsBoard {
        &self.built.board
    }

    /// Runs `work` with hooks feeding a spinner saying `why` (the nodes searched and the time so
    /// far, on a terminal), which goes when it is done.
    fn with_spinner<T>(why: &'static str, work: impl FnOnce(Hooks<'_>) -> T) -> T {
        let progress = StatesProgress::new(why);
        let update = |n| progress.update(n);
        let status = |s: &SearchStatus| progress.update(s.nodes);
        work(Hooks {
            progress: Some(&update),
            status: Some(&status),
            ..Hooks::default()
        })
    }

    /// Every move's value (or bounds) in the current position, within the time to think, a
    /// spinner saying `why` meanwhile.
    fn report(&mut self, why: &'static str) -> Result<DotsReport, Failure> {
        let query = Query::at(self.built, self.position.clone(), Detail::Moves);
        let strategy = self.policy.strategy(&query, Some(&self.kept));
        Self::with_spinner(why, |hooks| {
            answer(&query, &self.policy, Some(&self.kept), hooks)
        })
        .map_err(|e| Failure::solve(e, strategy))
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

    /// Draws the move written as `a-b`, returning its name and what it scored.
    fn draw(&mut self, text: &str) -> Result<(String, u32), String> {
        let moves = parse_moves(text).map_err(|e| e.fault.to_string())?;
        let [written] = moves.as_slice() else {
            return Err(format!("one move at a time, please; got {}", moves.len()));
        };
        let before = self.position.score();
        let mover = self.position.to_move();
        let board = &self.built.board;
        play_checked(board, &mut self.position, written.a, written.b)
            .map_err(|fault| fault.to_string())?;
        let last = *self.position.history().last().expect("a move was drawn");
        let points = self.position.score()[mover.index()] - before[mover.index()];
        Ok((format_edge(board, last), points))
    }

    fn scored(points: u32) -> String {
        match points {
            0 => String::new(),
            1 => " and scores 1; moves again".into(),
            n => format!(" and scores {n}; moves again"),
        }
    }

    /// The summary of one side's moves: `9 best, 2 mistakes (4 lost), 1 not proved`.
    fn summary(grades: &[&Grade]) -> String {
        let count = |v: Verdict| grades.iter().filter(|g| g.verdict == v).count();
        let lost: i32 = grades.iter().map(|g| g.loss_at_least).sum();
        let mut parts = vec![format!("{} best", count(Verdict::Best))];
        for (verdict, one, many) in [
            (Verdict::Mistake, "mistake", "mistakes"),
            (Verdict::Blunder, "blunder", "blunders"),
        ] {
            match count(verdict) {
                0 => {}
                1 => parts.push(format!("1 {one}")),
                n => parts.push(format!("{n} {many}")),
            }
        }
        let unknown = count(Verdict::Unknown);
        if unknown > 0 {
            parts.push(format!("{unknown} not proved"));
        }
        let lost = if lost > 0 {
            format!(" ({lost} lost in all)")
        } else {
            String::new()
        };
        format!("{}{lost}", parts.join(", "))
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
        self.position.drawn() == self.board().full()
    }

    fn user_to_move(&self) -> bool {
        self.who(self.position.to_move()) == "you"
    }

    fn perfect_move(&mut self) -> Result<String, Failure> {
        let query = Query::at(self.built, self.position.clone(), Detail::Moves);
        let strategy = self.policy.strategy(&query, Some(&self.kept));
        let (policy, kept, seed) = (&self.policy, &self.kept, self.seed);
        let chooser = &mut self.chooser;
        let (played, report) = Self::with_spinner("searched (ply is thinking)", |hooks| {
            think(&query, policy, Some(kept), chooser, seed, hooks)
        })
        .map_err(|e| Failure::solve(e, strategy))?
        .expect("a game that is not over has a move");
        let mover = played.player;
        let grade = Grade::of(&report, &played.mv).expect("the player plays a legal move");
        let (_, points) = self.draw(&played.mv).map_err(Failure::Internal)?;
        let how = match (played.choice, played.value) {
            (Choice::Exact, Some(v)) => format!("value {}, proved best", range_text_i(v)),
            _ => {
                let depth = played
                    .estimate
                    .map_or(String::new(), |e| format!(", {} turns ahead", e.depth));
                format!("estimated{depth}; proved {}", range_text(grade.value))
            }
        };
        self.grades.push(grade);
        Ok(format!(
            "{mover} ({}) plays {} ({how}){}",
            self.who(mover),
            played.mv,
            Self::scored(points)
        ))
    }

    fn user_move(&mut self, text: &str) -> Result<String, String> {
        // Check the move before spending time on the position.
        let mut trial = self.position.clone();
        let moves = parse_moves(text).map_err(|e| e.fault.to_string())?;
        let [written] = moves.as_slice() else {
            return Err(format!("one move at a time, please; got {}", moves.len()));
        };
        play_checked(self.board(), &mut trial, written.a, written.b)
            .map_err(|fault| fault.to_string())?;
        let report = self
            .report("searched (ply is checking your move)")
            .map_err(|e| e.message())?;
        let mover = self.position.to_move();
        let (name, points) = self.draw(text)?;
        let grade = Grade::of(&report, &name).expect("a legal move is listed");
        let said = grade.describe();
        self.grades.push(grade);
        Ok(format!(
            "{mover} (you) plays {name}{}: {said}",
            Self::scored(points)
        ))
    }

    fn hint(&mut self) -> Result<String, Failure> {
        let report = self.report("searched (ply is valuing every move)")?;
        let mut out = format!(
            "Moves for {} ({}), best first (value = net {} still to gain, by {}{}):\n",
            report.to_move,
            self.who(report.to_move),
            self.built.geometry.cell_names().1,
            report.strategy.name(),
            if report.exact {
                ""
            } else {
                "; a range where it is not proved in the time to think"
            }
        );
        // Moves equal up to a symmetry of the position share a line.
        for m in report.moves.iter().filter(|m| m.symmetric_to.is_none()) {
            let twins: Vec<&str> = report
                .moves
                .iter()
                .filter(|o| o.symmetric_to.as_deref() == Some(m.mv.as_str()))
                .map(|o| o.mv.as_str())
                .collect();
            let mut line = move_line(m);
            if !twins.is_empty() {
                let _ = write!(line, "  (also {})", twins.join(", "));
            }
            let _ = writeln!(out, "{line}");
        }
        Ok(out)
    }

    fn snapshot(&self) -> Box<dyn std::any::Any> {
        Box::new(Snapshot {
            position: self.position.clone(),
            grades: self.grades.clone(),
        })
    }

    fn restore(&mut self, snapshot: Box<dyn std::any::Any>) {
        if let Ok(s) = snapshot.downcast::<Snapshot>() {
            self.position = s.position;
            self.grades = s.grades;
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
        let mut out = format!("Game over: A {a}, B {b}: {verdict}.\n");
        for player in [Player::A, Player::B] {
            let mine: Vec<&Grade> = self.grades.iter().filter(|g| g.player == player).collect();
            if !mine.is_empty() {
                let moves = if mine.len() == 1 { "move" } else { "moves" };
                let _ = writeln!(
                    out,
                    "{player} ({}): {} {moves}: {}.",
                    self.who(player),
                    mine.len(),
                    Self::summary(&mine)
                );
            }
        }
        Ok(out)
    }

    fn move_example(&self) -> &'static str {
        "a move like 2-3"
    }

    fn title(&self, watch: bool) -> String {
        let think = self.policy.time.map_or(0.0, |t| t.as_secs_f64());
        if watch {
            format!("ply against itself, up to {think} s a move")
        } else {
            format!("You against ply, which thinks up to {think} s a move")
        }
    }
}

/// A proved value as text.
fn range_text_i(v: i32) -> String {
    range_text(ply::engine::scored::ValueRange::exact(v))
}
