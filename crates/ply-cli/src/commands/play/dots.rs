//! `ply play triangles|boxes`: a dots game against ply's player (exact where its time to think
//! proves the position, its strongest estimate otherwise), every move graded as it is played and the
//! game summed up at the end. A status line shows on a terminal while ply thinks.
//!
//! A turn — the user's move graded, then ply's reply — takes no more than the time to think
//! ([`TurnClock`]). The grade comes from an analysis of the user's position started when the user
//! was given the move ([`Ponder`]: it proves while the user thinks), cut short at the grade's share
//! of the turn; it is narrowed at no cost by what ply's last move proved of that position
//! ([`PlayerMove::after`]). (The report ply thought its last move from is of the position one move
//! earlier: it proves nothing of the user's moves, only of their best.) A move not proved best or
//! worse in that time is "not graded: not proved in the time to think".

use super::ponder::Ponder;
use super::session::{self, Match, Unplayed};
use super::Players;
use clap::{Args, Subcommand};
use crate::commands::dots::render::{about, move_line, range_text};
use crate::failure::Failure;
use crate::progress::StatesProgress;
use plysolve::engine::scored::ValueRange;
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::{MemoryBudget, Player, Winner};
use plysolve::games::dots::answer::{Hooks, SearchStatus};
use plysolve::games::dots::geometry::{BuiltBoard, TRIANGLE_SIZES};
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::level::Level;
use plysolve::games::dots::notation::{
    format_edge, parse_moves, play_checked, position_from_moves,
};
use plysolve::games::dots::player::{think_at_level, Choice, PlayerMove, TurnClock};
use plysolve::games::dots::policy::{search_bytes_for, Policy};
use plysolve::games::dots::report::DotsReport;
use plysolve::games::dots::request::{Detail, DotsQuery};
use plysolve::games::dots::review::{Grade, Verdict};
use plysolve::games::dots::{DotsBoard, Geometry, Position};
use std::fmt::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `ply play triangles|boxes …`
#[derive(Subcommand)]
pub enum DotsPlayCommand {
    /// Dots and Triangles on a triangle of --size rows (3 = the classic 10-dot board).
    Triangles {
        /// Rows of triangles, 1 to 6.
        #[arg(long, default_value_t = 3, value_parser = crate::args::number_in(TRIANGLE_SIZES))]
        size: u32,
        #[command(flatten)]
        dots: DotsPlay,
        #[command(flatten)]
        players: Players,
    },
    /// Dots and Boxes on --rows × --cols boxes.
    Boxes {
        /// Rows of boxes.
        #[arg(long, default_value_t = 3)]
        rows: u32,
        /// Columns of boxes.
        #[arg(long, default_value_t = 3)]
        cols: u32,
        #[command(flatten)]
        dots: DotsPlay,
        #[command(flatten)]
        players: Players,
    },
}

/// How a dots game starts and how long ply thinks.
#[derive(Args)]
pub struct DotsPlay {
    /// Start from the position after these moves (as `ply dots --moves` takes them), A first.
    #[arg(long, default_value = "")]
    moves: String,
    /// The most time ply thinks per move, e.g. 3s or 500ms: it plays exactly when it proves the
    /// position in that time, and its best estimate otherwise.
    #[arg(long, value_name = "TIME", default_value = "3s", value_parser = crate::input::parse_time)]
    think: Duration,
    /// How well ply plays, 1 (weakest: often at random or greedily) to 8 (perfect, the default);
    /// levels in between make mistakes of a few cells by design.
    #[arg(long, default_value = "8", value_parser = crate::args::level)]
    level: Level,
    #[command(flatten)]
    book: crate::commands::dots::BookArg,
}

/// Runs `ply play triangles|boxes`.
pub fn run(command: DotsPlayCommand) -> Result<(), Failure> {
    let (geometry, start, players) = match command {
        DotsPlayCommand::Triangles {
            size,
            dots,
            players,
        } => (Geometry::Triangles { size }, dots, players),
        DotsPlayCommand::Boxes {
            rows,
            cols,
            dots,
            players,
        } => (Geometry::Boxes { rows, cols }, dots, players),
    };
    play(
        geometry,
        &start.moves,
        start.think,
        start.level,
        start.book.books()?,
        &players,
    )
}

/// How a move proved neither best nor worse within the turn is graded.
const NOT_GRADED: &str = "not graded: not proved in the time to think";

/// Plays a dots game on `geometry`, from the position after `moves`, ply thinking up to `think` a
/// move.
fn play(
    geometry: Geometry,
    moves: &str,
    think: Duration,
    level: Level,
    books: std::sync::Arc<plysolve::games::dots::book::Books>,
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
        think,
        level,
        kept: Arc::new(Kept::new(game_memory(think, budget), 1).with_books(books)),
        chooser: Chooser::new(seed),
        seed,
        user: if players.watch {
            None
        } else {
            Some(players.first)
        },
        grades: Vec::new(),
        ponder: None,
        turn: None,
        after_ply: None,
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
    /// The memory and the time to think per turn.
    policy: Policy,
    /// The time to think: the whole of a turn.
    think: Duration,
    /// How well ply plays.
    level: Level,
    /// The search memory of the game, shared with the analysis pondered.
    kept: Arc<Kept>,
    chooser: Chooser,
    seed: u64,
    /// Who the user is (`None` when watching).
    user: Option<super::First>,
    /// Every move of the game so far, graded.
    grades: Vec<Grade>,
    /// The analysis of the user's position, started when the user was given the move.
    ponder: Option<Ponder>,
    /// The time of the turn under way: from the user's move to the end of ply's reply.
    turn: Option<TurnClock>,
    /// What ply's last move proved of the position after it, and that position's moves.
    after_ply: Option<(Position, ValueRange)>,
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

    /// The analysis of the current position: the one pondered, or one started now.
    fn ponder(&mut self) -> &mut Ponder {
        if !self
            .ponder
            .as_ref()
            .is_some_and(|p| p.is_of(&self.position))
        {
            if let Some(old) = self.ponder.take() {
                old.stop();
            }
            let query = DotsQuery::at(self.built, self.position.clone(), Detail::Moves);
            self.ponder = Some(Ponder::start(query, self.policy, self.kept.clone()));
        }
        self.ponder.as_mut().expect("started above")
    }

    /// Every move's value (or bounds) in the current position, from the analysis pondered: at once
    /// when it is done, else when it is done or at `until`, a spinner saying `why` meanwhile.
    fn report_by(
        &mut self,
        until: impl FnOnce(&Ponder) -> Instant,
        why: &'static str,
    ) -> Result<DotsReport, Failure> {
        let query = DotsQuery::at(self.built, self.position.clone(), Detail::Moves);
        let strategy = self.policy.strategy(&query, Some(&self.kept));
        let ponder = self.ponder();
        let until = until(ponder);
        ponder
            .report_by(until, why)
            .map_err(|e| Failure::solve(e, strategy))
    }

    /// What ply's last move proved of the current position's value (nothing when it was not the
    /// move to this position).
    fn known(&self) -> ValueRange {
        match &self.after_ply {
            Some((position, range)) if *position == self.position => *range,
            _ => ValueRange::FULL,
        }
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
        // In a turn of the user's, what is left of it; else (ply moves first, or is watched) the
        // time to think.
        let policy = match self.turn {
            Some(turn) => Policy {
                time: Some(turn.think_time(Instant::now())),
                ..self.policy
            },
            None => self.policy,
        };
        let query = DotsQuery::at(self.built, self.position.clone(), Detail::Moves);
        let strategy = policy.strategy(&query, Some(&self.kept));
        let (kept, seed, level) = (&self.kept, self.seed, self.level);
        let chooser = &mut self.chooser;
        let (played, report) = Self::with_spinner("searched (ply is thinking)", |hooks| {
            think_at_level(&query, &policy, Some(kept), chooser, seed, hooks, level)
        })
        .map_err(|e| Failure::solve(e, strategy))?
        .expect("a game that is not over has a move");
        let mover = played.player;
        let grade = Grade::of_known(&report, &played.mv, self.known())
            .expect("the player plays a legal move");
        let (_, points) = self.draw(&played.mv).map_err(Failure::Internal)?;
        self.after_ply = Some((self.position.clone(), PlayerMove::after(&played)));
        let how = match (played.choice, played.value) {
            (Choice::Exact, Some(v)) => format!("value {}, proved best", range_text_i(v)),
            (Choice::Level, _) => format!("level {}", self.level.number()),
            _ => {
                let depth = played.estimate.map_or(String::new(), |e| {
                    format!(" about {}, {} turns ahead", about(&e), e.depth)
                });
                if grade.value_unproved() {
                    format!("estimated{depth}; not proved yet")
                } else {
                    format!("estimated{depth}; proved {}", range_text(grade.value))
                }
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

    fn user_move(&mut self, text: &str) -> Result<String, Unplayed> {
        // Check the move before spending time on the position.
        let mut trial = self.position.clone();
        let moves = parse_moves(text).map_err(|e| e.fault.to_string())?;
        let [written] = moves.as_slice() else {
            return Err(format!("one move at a time, please; got {}", moves.len()).into());
        };
        play_checked(self.board(), &mut trial, written.a, written.b)
            .map_err(|fault| fault.to_string())?;
        // The turn starts: the grade waits for the analysis pondered at most its share of it.
        let turn = TurnClock::new(Instant::now(), self.think);
        let report = self
            .report_by(
                |ponder| turn.grade_until(ponder.started),
                "searched (ply is checking your move)",
            )?;
        if let Some(done) = self.ponder.take() {
            done.stop();
        }
        self.turn = Some(turn);
        let mover = self.position.to_move();
        let known = self.known();
        let (name, points) = self.draw(text)?;
        let grade = Grade::of_known(&report, &name, known).expect("a legal move is listed");
        let said = grade.describe_with(NOT_GRADED);
        self.grades.push(grade);
        Ok(format!(
            "{mover} (you) plays {name}{}: {said}",
            Self::scored(points)
        ))
    }

    fn hint(&mut self) -> Result<String, Failure> {
        // The analysis pondered, to its end (the time to think from its start).
        let think = self.think;
        let report = self.report_by(
            |ponder| ponder.started + think,
            "searched (ply is valuing every move)",
        )?;
        let mut out = format!(
            "Moves for {} ({}), best first (value = net {} still to gain, by {}{}):\n",
            report.to_move,
            self.who(report.to_move),
            self.built.geometry.cell_names().1,
            report.strategy.name(),
            if report.exact {
                ""
            } else {
                "; bounds, or \"not proved yet\", where it is not proved in the time to think"
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
            let mut line = move_line(&report, m);
            if !twins.is_empty() {
                let _ = write!(line, "  (also {})", twins.join(", "));
            }
            let _ = writeln!(out, "{line}");
        }
        Ok(out)
    }

    fn user_turn_begins(&mut self) {
        // ply's reply is over: the next turn starts with the user's move.
        self.turn = None;
        self.ponder();
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
            self.turn = None;
            if let Some(old) = self.ponder.take() {
                old.stop();
            }
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
        let level = if self.level.is_perfect() {
            String::new()
        } else {
            format!(" at level {} of 8", self.level.number())
        };
        if watch {
            format!("ply against itself{level}, up to {think} s a move")
        } else {
            format!("You against ply{level}, which thinks up to {think} s a move")
        }
    }
}

/// A proved value as text.
fn range_text_i(v: i32) -> String {
    range_text(ValueRange::exact(v))
}
