//! The conversation shared by every turn-based game of `ply play`: show the position, let the player
//! move or read the user's command, answer `hint`, `undo`, `redo`, `help`, `quit`, and stop at the end
//! of the game or of the input.

use super::Players;
use crate::failure::Failure;
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
    /// The user's move as typed; `Err` is a one-line hint.
    fn user_move(&mut self, text: &str) -> Result<String, String>;
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

/// The next line of input without its line ending, or `None` at the end of the input.
pub fn read_command(input: &mut impl BufRead) -> Result<Option<String>, Failure> {
    let mut line = String::new();
    match input.read_line(&mut line) {
        Ok(0) => Ok(None),
        Ok(_) => Ok(Some(line.trim().to_string())),
        Err(e) => Err(Failure::BadInput(format!("cannot read the input: {e}"))),
    }
}

/// The commands besides moves.
const COMMANDS: &str = "hint, undo, redo, help, quit";

/// Plays `game` to the end (or to `quit`, or to the end of the input).
pub fn run(game: &mut dyn Match, players: &Players, seed: u64) -> Result<(), Failure> {
    say(&format!(
        "{} (seed {seed}). Commands: {}, {COMMANDS}.\n",
        game.title(players.watch),
        game.move_example()
    ))?;
    let mut input = std::io::stdin().lock();
    // Positions before each of the user's moves (for undo), and positions undone (for redo).
    let mut turns: Vec<Box<dyn std::any::Any>> = Vec::new();
    let mut undone: Vec<Box<dyn std::any::Any>> = Vec::new();
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
        let Some(command) = read_command(&mut input)? else {
            return say("\nEnd of input: the game is left unfinished.\n");
        };
        match command.to_ascii_lowercase().as_str() {
            "quit" | "q" | "exit" => return say("You left the game.\n"),
            "hint" | "h" | "?" => say(&game.hint()?)?,
            "help" => say(&format!(
                "Type {} to play it; hint: every move's value; undo: take back your last move \
                 and the replies to it; redo: play again what undo took back; quit: leave.\n",
                game.move_example()
            ))?,
            "undo" | "u" => match turns.pop() {
                Some(snapshot) => {
                    undone.push(game.snapshot());
                    game.restore(snapshot);
                    say("Took back your last move and the replies to it.\n")?;
                    shown = false;
                }
                None => say("Nothing to undo: you have not moved yet.\n")?,
            },
            "redo" | "r" => match undone.pop() {
                Some(snapshot) => {
                    turns.push(game.snapshot());
                    game.restore(snapshot);
                    say("Played again what undo took back.\n")?;
                    shown = false;
                }
                None => say("Nothing to redo.\n")?,
            },
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
                        turns.push(before);
                        undone.clear();
                        say(&format!("{did}\n"))?;
                        shown = false;
                    }
                    Err(hint) => say(&format!(
                        "{hint} (type {}, or {COMMANDS})\n",
                        game.move_example()
                    ))?,
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
