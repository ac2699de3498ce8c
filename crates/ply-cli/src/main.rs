//! `ply`: exact answers for small games, from the command line.
//!
//! Every command builds its whole output before printing it, so a fault never leaves half an answer on
//! stdout. Faults in the input exit with status 2 and one line on stderr naming what is wrong.

mod cache;
mod commands;
mod failure;
mod input;
mod progress;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Exact solvers for small games.
#[derive(Parser)]
#[command(name = "ply", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Dots games: the value of a position, every move's value and the best line.
    Dots(commands::dots::DotsArgs),
    /// The Triangle War contest format (UVa 751): one verdict per game.
    TriangleWar(commands::triangle_war::TriangleWarArgs),
    /// The dice race: exact probabilities, the best pick list, the equilibrium.
    #[command(subcommand)]
    DiceRace(commands::dice_race::DiceRaceCommand),
    /// Lowest-heap Nim: who wins, a winning move, remoteness and Grundy value.
    Heaps(commands::heaps::HeapsArgs),
    /// MagicBoard: verdicts and shortest paths from the corners, random boards, statistics.
    MagicBoard(commands::magic_board::MagicBoardArgs),
    /// Number Solitaire: the best result, an optimal path, and the game under fair throws.
    Solitaire(commands::solitaire::SolitaireArgs),
    /// Play against the perfect player (or watch two), or race the dice roll by roll.
    #[command(subcommand)]
    Play(commands::play::PlayCommand),
    /// The web page and JSON API: every game's values in the browser.
    Serve(commands::serve::ServeArgs),
    /// Times the solving strategies against each other.
    #[command(subcommand)]
    Bench(commands::bench::BenchCommand),
}

fn main() -> ExitCode {
    let mut previous: Option<std::ffi::OsString> = None;
    let args = std::env::args_os().map(|arg| {
        let takes_value = previous
            .as_ref()
            .and_then(|p| p.to_str())
            .is_some_and(|p| p.starts_with("--") && !p.contains('='));
        previous = Some(arg.clone());
        if takes_value {
            arg
        } else {
            protect_number_lists(arg)
        }
    });
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e)
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                || e.kind() == ErrorKind::MissingSubcommand =>
        {
            eprintln!("ply: {}", missing_subcommand());
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("ply: {}", one_line(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Dots(args) => commands::dots::run(args),
        Command::TriangleWar(args) => commands::triangle_war::run(args),
        Command::DiceRace(command) => commands::dice_race::run(command),
        Command::Heaps(args) => commands::heaps::run(args),
        Command::MagicBoard(args) => commands::magic_board::run(args),
        Command::Solitaire(args) => commands::solitaire::run(args),
        Command::Bench(command) => commands::bench::run(command),
        Command::Play(command) => commands::play::run(command),
        Command::Serve(args) => commands::serve::run(args),
    };
    match result {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(output.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("ply: cannot write the output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(failure) => {
            eprintln!("ply: {}", failure.message());
            ExitCode::from(failure.exit_code())
        }
    }
}

/// Names the command that lacks a subcommand and the subcommands it has.
fn missing_subcommand() -> String {
    let mut command = Cli::command();
    let mut path = vec!["ply".to_string()];
    for arg in std::env::args().skip(1) {
        match command.find_subcommand(&arg) {
            Some(sub) => {
                path.push(arg);
                command = sub.clone();
            }
            None => break,
        }
    }
    let names: Vec<&str> = command.get_subcommands().map(|s| s.get_name()).collect();
    let path = path.join(" ");
    format!(
        "`{path}` needs a subcommand: {} (see `{path} --help`)",
        names.join(", ")
    )
}

/// A list of numbers in one argument that starts with a minus sign (`-3,-4,2`) is a value, not a flag:
/// clap treats as values only arguments that are one number, so such lists get a leading space, which
/// every number reader skips. (Not applied to the argument after an option, which is that option's.)
fn protect_number_lists(arg: std::ffi::OsString) -> std::ffi::OsString {
    match arg.to_str() {
        Some(text)
            if text.starts_with('-')
                && text[1..].starts_with(|c: char| c.is_ascii_digit())
                && text.contains(|c: char| c == ',' || c.is_whitespace()) =>
        {
            format!(" {text}").into()
        }
        _ => arg,
    }
}

/// Clap's message up to its usage part, on one line: `error: the following required arguments were
/// not provided: <SIZES>...`.
fn one_line(message: &str) -> String {
    let text: Vec<&str> = message
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect();
    let joined = text.join(" ");
    let joined = joined.trim_start_matches("error: ");
    if joined.is_empty() {
        "invalid arguments (see --help)".to_string()
    } else {
        joined.to_string()
    }
}
