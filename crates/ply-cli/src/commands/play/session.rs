//! The conversation shared by every turn-based game of `ply play`: show the position, let the player
//! move or read the user's command, answer `hint`, `undo`, `redo`, `lines`, `line N`, `help`,
//! `quit`, and stop at the end of the game or of the input.
//!
//! A move played after `undo` does not throw away what was undone: that line is kept (as an
//! analysis board keeps a variation), `lines` lists the kept lines that branch from the game's line,
//! and `line N` goes to where one branches, keeps the line it leaves, and lets `redo` play it.

use super::Players;
use crate::failure::Failure;
use plysolve::input::{quote_bytes, Lines, ReadFault};
use std::io::{BufRead, Write};

/// A turn-based game as `ply play` drives it.
pub trait Match {
    /// The position: the board and whose turn it is.
    fn show(&mut self) -> Result<String, Failure>;
    /// Whether the game is over.
    fn over(&self) -> bool;
    /// Whether the side to move is the user's.
    fn user_to_move(&self) -> bool;
    /// The player moves; returns what it did.
    fn perfect_move(&mut self) -> Result<String, Failure>;
    /// The user is given the move (called before each command is read): a game may start
    /// analysing the position while the user thinks (pondering).
    fn user_turn_begins(&mut self) {}
    /// The user's move as typed; `Err` says why it was not played.
    fn user_move(&mut self, text: &str) -> Result<String, Unplayed>;
    /// Every legal move with its value.
    fn hint(&mut self) -> Result<String, Failure>;
    /// A copy of the position, to go back to with `undo`.
    fn snapshot(&self) -> Box<dyn std::any::Any>;
    /// Goes back to a snapshot.
    fn restore(&mut self, snapshot: Box<dyn std::any::Any>);
    /// The final result (with a summary of how the moves went, where the game keeps one).
    fn result(&mut self) -> Result<String, Failure>;
    /// Who plays, for the first line: the user against the perfect player, or (`watch`) two of
    /// them.
    fn title(&self, watch: bool) -> String {
        if watch {
            "Two perfect players".to_string()
        } else {
            "You against the perfect player".to_string()
        }
    }
    /// How a move is written, for hints: `a move like 2-3`.
    fn move_example(&self) -> &'static str;
}

/// Why a move the user typed was not played.
#[derive(Debug)]
pub enum Unplayed {
    /// It is no move here: a one-line hint, and the user types another.
    Hint(String),
    /// The move is fine but the game cannot go on (a book that contradicts itself): the session
    /// ends with this failure.
    Failed(Failure),
}

impl From<String> for Unplayed {
    fn from(hint: String) -> Self {
        Unplayed::Hint(hint)
    }
}

impl From<Failure> for Unplayed {
    fn from(failure: Failure) -> Self {
        Unplayed::Failed(failure)
    }
}

/// Writes `text` to stdout at once (the user is waiting for it).
pub fn say(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // Whoever read the game has gone (`| head`): nothing is left to say to anyone.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Failure::Internal(format!("cannot write the output: {e}"))),
    }
}

/// The most bytes a line of `ply play`'s input may hold: far more than any move or command (the
/// longest is a few dozen bytes), and little enough that a line without end costs no memory.
pub const MAX_LINE_BYTES: usize = 4096;

/// The most bytes of a bad line passed over before the game ends instead (1 MiB): the input is
/// then no one's typing (`< /dev/zero`), and reading on would never end.
pub const MAX_SKIPPED_BYTES: u64 = 1 << 20;

/// A line the user typed: a line of text, or the one-line hint for a line that cannot be a move or
/// a command (too long, not UTF-8, a control byte).
pub enum Typed {
    /// The line without its ending, trimmed.
    Line(String),
    /// Why the line was passed over, for the user (the game goes on).
    Unreadable(String),
}

/// The user's lines, read with [`plysolve::input::Lines`] within [`MAX_LINE_BYTES`]: a bad line is
/// passed over in bounded memory and answered with a hint, never the end of the game.
pub struct Typing<R> {
    lines: Lines<R>,
}

impl<R: BufRead> Typing<R> {
    /// The lines of `source`.
    pub fn new(source: R) -> Self {
        Typing {
            lines: Lines::new(source),
        }
    }

    /// The next line, or `None` at the end of the input; a failing read is the only failure.
    pub fn next(&mut self) -> Result<Option<Typed>, Failure> {
        let fault = match self.lines.next_line(MAX_LINE_BYTES) {
            Ok(line) => return Ok(line.map(|l| Typed::Line(l.trim().to_string()))),
            Err(e) => e.fault,
        };
        let hint = match fault {
            ReadFault::Io(_) => return Err(Failure::bad(fault)),
            ReadFault::Utf8 { bytes, .. } => format!(
                "that line is not UTF-8 text ({} is no character)",
                quote_bytes(&bytes)
            ),
            ReadFault::Byte { byte, .. } => format!(
                "that line holds {}, which no move or command holds",
                quote_bytes(&[byte])
            ),
            ReadFault::LineTooLong { .. } | ReadFault::InputTooLong { .. } => format!(
                "that line is longer than {MAX_LINE_BYTES} bytes, which no move or command is"
            ),
        };
        // Only a failing read, or a line with no end in sight (binary input), fails here.
        self.lines
            .skip_line(MAX_SKIPPED_BYTES)
            .map_err(Failure::bad)?;
        Ok(Some(Typed::Unreadable(hint)))
    }
}

/// The commands besides moves.
const COMMANDS: &str = "hint, undo, redo, lines, line N, help, quit";

/// One of the user's moves on the game's line: who it is (kept through undo and redo, so that a
/// kept line knows where it branches), a position, and what the move did.
struct Turn {
    id: u64,
    position: Box<dyn std::any::Any>,
    did: String,
}

/// A line the user left by playing another move after `undo`: the user's moves before it (`base`,
/// by id) and its moves, the next to redo last.
struct KeptLine {
    base: Vec<u64>,
    moves: Vec<Turn>,
}

/// The game's line through the user's moves, with the lines kept beside it.
#[derive(Default)]
struct Variations {
    /// Positions before each of the user's moves played (for undo).
    played: Vec<Turn>,
    /// Positions undone, the next to redo last.
    undone: Vec<Turn>,
    kept: Vec<KeptLine>,
    next_id: u64,
}

/// Moves the last turn of `from` to `to`: the game goes to that turn's position, and `to` keeps the
/// position left. False when `from` is empty.
fn step(from: &mut Vec<Turn>, to: &mut Vec<Turn>, game: &mut dyn Match) -> bool {
    let Some(turn) = from.pop() else {
        return false;
    };
    to.push(Turn {
        id: turn.id,
        position: game.snapshot(),
        did: turn.did,
    });
    game.restore(turn.position);
    true
}

impl Variations {
    /// The ids of the user's moves along the line: those played, then those undone in order.
    fn ids(&self) -> Vec<u64> {
        self.played
            .iter()
            .map(|t| t.id)
            .chain(self.undone.iter().rev().map(|t| t.id))
            .collect()
    }

    /// The kept lines that branch from the game's line, by their numbers (from 1).
    fn branching(&self) -> Vec<usize> {
        let ids = self.ids();
        (0..self.kept.len())
            .filter(|&i| ids.starts_with(&self.kept[i].base))
            .collect()
    }

    /// A move played from `before`: a new move keeps what was undone as a line.
    fn played(&mut self, before: Box<dyn std::any::Any>, did: String) {
        if !self.undone.is_empty() {
            let base = self.played.iter().map(|t| t.id).collect();
            let moves = std::mem::take(&mut self.undone);
            self.kept.push(KeptLine { base, moves });
        }
        self.next_id += 1;
        self.played.push(Turn {
            id: self.next_id,
            position: before,
            did,
        });
    }

    /// One step back along the line; false at its start.
    fn undo(&mut self, game: &mut dyn Match) -> bool {
        step(&mut self.played, &mut self.undone, game)
    }

    /// One step forward along the line; false at its end.
    fn redo(&mut self, game: &mut dyn Match) -> bool {
        step(&mut self.undone, &mut self.played, game)
    }

    /// Goes to where kept line `n` (from 1) branches; the line left from there is kept in its
    /// place, and `redo` plays line `n`. Returns the user's move number there.
    fn switch(&mut self, n: usize, game: &mut dyn Match) -> Option<usize> {
        if !self.branching().contains(&n.checked_sub(1)?) {
            return None;
        }
        let line = self.kept.remove(n - 1);
        while self.played.len() > line.base.len() {
            self.undo(game);
        }
        while self.played.len() < line.base.len() {
            self.redo(game);
        }
        let base = self.played.iter().map(|t| t.id).collect();
        let left = std::mem::replace(&mut self.undone, line.moves);
        if !left.is_empty() {
            self.kept.push(KeptLine { base, moves: left });
        }
        Some(self.played.len() + 1)
    }

    /// The kept lines that branch from the game's line, a line each.
    fn listing(&self) -> String {
        let lines = self.branching();
        if lines.is_empty() {
            return "No other line: a move played after undo keeps the line undone.\n".into();
        }
        let mut out = String::from("Lines kept (line N goes to one; redo then plays it):\n");
        for i in lines {
            let line = &self.kept[i];
            let first = line.moves.last().map_or("", |t| t.did.as_str());
            out.push_str(&format!(
                "  {}. from your move {}: {}{}\n",
                i + 1,
                line.base.len() + 1,
                first,
                match line.moves.len() {
                    1 => String::new(),
                    k => format!(" (and {} more of your moves)", k - 1),
                }
            ));
        }
        out
    }
}

/// Plays `game` to the end (or to `quit`, or to the end of the input).
pub fn run(game: &mut dyn Match, players: &Players, seed: u64) -> Result<(), Failure> {
    say(&format!(
        "{} (seed {seed}). Commands: {}, {COMMANDS}.\n",
        game.title(players.watch),
        game.move_example()
    ))?;
    let mut input = Typing::new(std::io::stdin().lock());
    let mut lines = Variations::default();
    let mut shown = false;
    loop {
        if !shown {
            say(&game.show()?)?;
            shown = true;
        }
        if game.over() {
            return say(&game.result()?);
        }
        if players.watch || !game.user_to_move() {
            let did = game.perfect_move()?;
            say(&format!("{did}\n"))?;
            shown = false;
            continue;
        }
        game.user_turn_begins();
        say("> ")?;
        let command = match input.next()? {
            None => return say("\nEnd of input: the game is left unfinished.\n"),
            Some(Typed::Line(command)) => command,
            Some(Typed::Unreadable(hint)) => {
                say(&format!(
                    "{hint} (type {}, or {COMMANDS})\n",
                    game.move_example()
                ))?;
                continue;
            }
        };
        match command.to_ascii_lowercase().as_str() {
            "quit" | "q" | "exit" => return say("You left the game.\n"),
            "hint" | "h" | "?" => say(&game.hint()?)?,
            "help" => say(&format!(
                "Type {} to play it; hint: every move's value; undo: take back your last move \
                 and the replies to it; redo: play again what undo took back (a move played \
                 instead keeps it as a line); lines: the lines kept; line N: go to one; quit: \
                 leave.\n",
                game.move_example()
            ))?,
            "undo" | "u" => {
                if lines.undo(game) {
                    say("Took back your last move and the replies to it.\n")?;
                    shown = false;
                } else {
                    say("Nothing to undo: you have not moved yet.\n")?;
                }
            }
            "redo" | "r" => {
                if lines.redo(game) {
                    say("Played again what undo took back.\n")?;
                    shown = false;
                } else {
                    say("Nothing to redo.\n")?;
                }
            }
            "lines" => say(&lines.listing())?,
            _ if command.to_ascii_lowercase().starts_with("line ") => {
                let number = command[5..].trim();
                match number
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| lines.switch(n, game))
                {
                    Some(at) => {
                        say(&format!(
                            "Back at your move {at}, where line {number} branches (the line left \
                             is kept); redo plays it.\n"
                        ))?;
                        shown = false;
                    }
                    None => say(&format!(
                        "No line `{}` branches from this game's line (lines lists them)\n",
                        cut(number)
                    ))?,
                }
            }
            "" => say(&format!("Type {}, or {COMMANDS}.\n", game.move_example()))?,
            _ if command.chars().count() > 40 => say(&format!(
                "`{}` is too long to be a command (type {}, or {COMMANDS})\n",
                cut(&command),
                game.move_example()
            ))?,
            _ => {
                let before = game.snapshot();
                match game.user_move(&command) {
                    Ok(did) => {
                        say(&format!("{did}\n"))?;
                        lines.played(before, did);
                        shown = false;
                    }
                    Err(Unplayed::Hint(hint)) => say(&format!(
                        "{hint} (type {}, or {COMMANDS})\n",
                        game.move_example()
                    ))?,
                    Err(Unplayed::Failed(failure)) => return Err(failure),
                }
            }
        }
    }
}

/// At most 40 characters of what the user typed, control characters escaped, for quoting in a hint.
pub fn cut(text: &str) -> String {
    let mut out: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}
