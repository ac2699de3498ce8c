//! `ply`: exact answers for small games, from the command line.
//!
//! Every command builds its whole output before printing it, so a fault never leaves half an answer on
//! stdout. Faults in the input exit with status 2 and one line on stderr naming what is wrong.

mod args;
mod cache;
mod commands;
mod failure;
mod input;
mod progress;
mod saving;

use clap::error::{ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// Exact solvers for small games.
#[derive(Parser)]
#[command(name = "ply", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Also report progress when stderr is not a terminal: a line at once, then every 10 s (on a
    /// terminal a live bar is always shown).
    #[arg(long, global = true, env = "PLY_PROGRESS", value_parser = clap::builder::FalseyValueParser::new())]
    progress: bool,
}

#[derive(Subcommand)]
enum Command {
    /// A game's questions (declared with the games, in `commands::game_commands!`).
    #[command(flatten)]
    Game(commands::GameCommand),
    /// Any question of any game, asked in JSON as the API takes it (`ply ask` lists them).
    Ask(commands::ask::AskArgs),
    /// Play against the perfect player (or watch two), or race the dice roll by roll.
    #[command(subcommand)]
    Play(commands::play::PlayCommand),
    /// The web page and JSON API: every game's values in the browser.
    Serve(commands::serve::ServeArgs),
    /// Times the solving strategies against each other.
    #[command(subcommand)]
    Bench(commands::bench::BenchCommand),
}

/// The most bytes a fault line may have, `ply: ` included.
const MAX_MESSAGE: usize = 300;

fn main() -> ExitCode {
    let cli = match parse(std::env::args_os()) {
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
            progress::say(&format!("ply: {}", printable(&missing_subcommand())));
            return ExitCode::from(2);
        }
        Err(e) => {
            progress::say(&format!("ply: {}", printable(&clap_message(&e))));
            return ExitCode::from(2);
        }
    };
    progress::ask_for_plain_lines(cli.progress);
    saving::fail_writes_over_the_size_limit();
    saving::remove_partial_files_on_interrupt();
    let result = match cli.command {
        Command::Game(command) => command.run(),
        Command::Ask(args) => commands::ask::run(args),
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
                    progress::say(&format!("ply: cannot write the output: {e}"));
                    ExitCode::FAILURE
                }
            }
        }
        Err(failure) => {
            progress::say(&format!("ply: {}", printable(&failure.message())));
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

/// The command line as clap should see it, parsed. Every positional argument accepts a negative
/// number, and [`prepare`] makes sure a negative number or list reaches the option it is given to.
fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, clap::Error> {
    let mut command = negative_positionals(Cli::command());
    let args = prepare(&command, args);
    let matches = command.try_get_matches_from_mut(args)?;
    Cli::from_arg_matches(&matches)
}

/// `command` with every positional argument, in every subcommand, taking negative numbers as values.
fn negative_positionals(command: clap::Command) -> clap::Command {
    command
        .mut_args(|arg| {
            if arg.is_positional() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
        .mut_subcommands(negative_positionals)
}

/// Rewrites the arguments so that values starting with a minus sign stay values:
/// - the value of a long option that takes one (`--size -1`, `--moves -1-2`) is joined to it
///   (`--size=-1`), so that clap names the option and the value when it refuses it, for every option
///   of every command;
/// - a list of numbers in one positional argument (`-3,-4,2`) gets a leading space, which every
///   number reader skips (clap takes as values only positional arguments that are one number).
fn prepare(command: &clap::Command, args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut command = command.clone();
    command.build();
    let mut out = Vec::new();
    let mut args = args.into_iter();
    out.extend(args.next());
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str() else {
            out.push(arg);
            continue;
        };
        if text == "--" {
            out.push(arg);
            out.extend(args);
            break;
        }
        if let Some(name) = text.strip_prefix("--").filter(|n| !n.contains('=')) {
            let takes_value = command
                .get_arguments()
                .any(|a| a.get_long() == Some(name) && a.get_action().takes_values());
            if !takes_value {
                out.push(arg);
                continue;
            }
            // The option's value, whatever it looks like, is the option's.
            match args.next() {
                Some(value) if starts_like_a_negative_number(&value) => {
                    let mut joined = arg;
                    joined.push("=");
                    joined.push(value);
                    out.push(joined);
                }
                value => out.extend(std::iter::once(arg).chain(value)),
            }
            continue;
        }
        if let Some(sub) = command.find_subcommand(text) {
            command = sub.clone();
        }
        out.push(protect_number_lists(arg));
    }
    out
}

/// `-` then a digit or a point: a negative number or list, never one of ply's flags.
fn starts_like_a_negative_number(arg: &OsString) -> bool {
    arg.to_str().is_some_and(|t| {
        t.strip_prefix('-')
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
    })
}

/// A list of numbers in one positional argument that starts with a minus sign (`-3,-4,2`) gets a
/// leading space, so that clap does not take it for a flag.
fn protect_number_lists(arg: OsString) -> OsString {
    match arg.to_str() {
        Some(text)
            if starts_like_a_negative_number(&arg)
                && text.contains(|c: char| c == ',' || c.is_whitespace()) =>
        {
            format!(" {text}").into()
        }
        _ => arg,
    }
}

/// Clap's message on one line, with every argument it echoes cut and escaped like any quoted input
/// (clap itself drops escape sequences from what it echoes, which would misquote the input). A value
/// our own parser refused with a message that quotes it is said once: `--memory: `…` is not …`.
fn clap_message(e: &clap::Error) -> String {
    if let Some(message) = quoting_refusal(e).or_else(|| number_refusal(e)) {
        return message;
    }
    // Quoted before the message is made one line: an echoed line break would be joined away.
    let mut message = e.to_string();
    for (_, value) in e.context() {
        if let ContextValue::String(value) = value {
            let echoed = clap::builder::StyledStr::from(value.clone()).to_string();
            let shown = plysolve::input::excerpt(value.as_bytes());
            if echoed != shown {
                message = message.replacen(&format!("'{echoed}'"), &format!("'{shown}'"), 1);
            }
        }
    }
    one_line(&message)
}

/// An option's value that a value parser refused, as clap's error carries it: the option
/// (`--die`), the value as written, and the parser's own error.
struct Refused<'a> {
    /// The option's long name, `--die`.
    option: String,
    /// The value as written, when clap kept it.
    value: Option<String>,
    /// What the parser said.
    source: &'a (dyn std::error::Error + 'static),
}

impl<'a> Refused<'a> {
    /// The refusal in `e`, when `e` is a value refused by a long option's parser.
    fn of(e: &'a clap::Error) -> Option<Self> {
        if e.kind() != ErrorKind::ValueValidation {
            return None;
        }
        let context = |kind| match e.get(kind)? {
            ContextValue::String(text) => Some(text.clone()),
            _ => None,
        };
        let arg = context(clap::error::ContextKind::InvalidArg)?;
        let option = arg.split(' ').next().filter(|o| o.starts_with("--"))?;
        Some(Refused {
            option: option.to_string(),
            value: context(clap::error::ContextKind::InvalidValue),
            source: std::error::Error::source(e)?,
        })
    }
}

/// An option's value refused by one of our parsers whose message quotes the input already (in
/// backticks):
/// `--time: `…` is over the longest time accepted, 24 h`, without clap's own `invalid value '…' for
/// '--time <TIME>'` quoting it again.
fn quoting_refusal(e: &clap::Error) -> Option<String> {
    let refused = Refused::of(e)?;
    let refusal = one_line(&refused.source.to_string());
    let option = refused.option;
    refusal
        .contains('`')
        .then(|| format!("{option}: {refusal}"))
}

/// A count clap's integer parser refused, in a user's words rather than Rust's (`invalid digit found
/// in string`): `--die: `-3` must not be negative`, `--rows: `1e9` is not a whole number`.
fn number_refusal(e: &clap::Error) -> Option<String> {
    use std::num::IntErrorKind;
    let Refused {
        option,
        value,
        source,
    } = Refused::of(e)?;
    let value = value?;
    // As written: white space around a number is refused as not a whole number, as every count
    // option refuses it.
    let text = value.as_str();
    let minus_digits = text
        .strip_prefix('-')
        .filter(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
    let negative = minus_digits.is_some_and(|digits| digits.bytes().any(|b| b != b'0'));
    let why = match source.downcast_ref::<std::num::ParseIntError>() {
        Some(parse) => match parse.kind() {
            IntErrorKind::Empty => "is empty: a whole number is needed".to_string(),
            IntErrorKind::InvalidDigit if negative => "must not be negative".to_string(),
            // `-0`: zero with a sign no count has.
            IntErrorKind::InvalidDigit if minus_digits.is_some() => {
                "has a minus sign, which no count takes".to_string()
            }
            IntErrorKind::InvalidDigit => "is not a whole number".to_string(),
            IntErrorKind::PosOverflow => "is too large".to_string(),
            IntErrorKind::NegOverflow => "is too small".to_string(),
            IntErrorKind::Zero => "must not be 0".to_string(),
            _ => return None,
        },
        // Clap's ranged parsers: `-3 is not in 0..=4294967295`.
        None => {
            let range = source.to_string();
            let range = range.strip_prefix(&format!("{text} is not in "))?;
            if negative && range.starts_with("0..") {
                "must not be negative".to_string()
            } else {
                format!("is not in {range}")
            }
        }
    };
    let shown = plysolve::input::excerpt(value.as_bytes());
    Some(format!("{option}: `{shown}` {why}"))
}

/// The last guard on every fault line: control characters escaped, and the line cut (with `…`) so
/// that it stays within [`MAX_MESSAGE`] bytes. The messages are built to be short; this only makes
/// sure of it.
fn printable(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MAX_MESSAGE));
    for c in message.chars() {
        if c.is_control() {
            // Escaped as every quote of input is (`\x1b`, `\n`).
            let mut one = [0u8; 4];
            out.push_str(&plysolve::input::excerpt(
                c.encode_utf8(&mut one).as_bytes(),
            ));
        } else {
            out.push(c);
        }
    }
    let room = MAX_MESSAGE - "ply: ".len();
    if out.len() > room {
        let mut cut = room - "…".len();
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every long option that takes a value, in every command, with the path of subcommands to it.
    fn value_options(command: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        for arg in command.get_arguments() {
            if let Some(long) = arg.get_long().filter(|_| arg.get_action().takes_values()) {
                let mut args = path.clone();
                args.push(format!("--{long}"));
                out.push(args);
            }
        }
        for sub in command.get_subcommands() {
            path.push(sub.get_name().to_string());
            value_options(sub, path, out);
            path.pop();
        }
    }

    #[test]
    fn a_negative_value_reaches_every_option() {
        let mut command = Cli::command();
        command.build();
        let mut options = Vec::new();
        value_options(&command, &mut vec!["ply".to_string()], &mut options);
        assert!(options.len() >= 20, "{options:?}");
        for option in options {
            for value in ["-1", "-1-2", "-3,-4"] {
                let args = option.iter().map(String::as_str).chain([value]);
                let Err(e) = parse(args.map(OsString::from)) else {
                    continue;
                };
                let message = clap_message(&e);
                let name = option.last().unwrap();
                assert!(
                    ![ErrorKind::UnknownArgument, ErrorKind::NoEquals].contains(&e.kind()),
                    "{option:?} {value}: {message}"
                );
                if matches!(
                    e.kind(),
                    ErrorKind::ValueValidation | ErrorKind::InvalidValue
                ) {
                    // Quoted as clap quotes it or as ply's own parsers do.
                    let quoted = [format!("'{value}'"), format!("`{value}`")];
                    assert!(
                        quoted.iter().any(|q| message.contains(q.as_str()))
                            && message.contains(name.as_str()),
                        "{option:?} {value}: {message}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_count_clap_refuses_is_said_in_a_users_words() {
        let message = |args: &[&str]| match parse(args.iter().map(OsString::from)) {
            Err(e) => clap_message(&e),
            Ok(_) => panic!("{args:?} parsed"),
        };
        assert_eq!(
            message(&["ply", "solitaire", "--die", "-3"]),
            "--die: `-3` must not be negative"
        );
        assert_eq!(
            message(&["ply", "solitaire", "--die", "2.5"]),
            "--die: `2.5` is not a whole number"
        );
        assert_eq!(
            message(&["ply", "solitaire", "--die", "99999999999999999999999"]),
            "--die: `99999999999999999999999` is too large"
        );
        assert_eq!(
            message(&["ply", "solitaire", "--die", ""]),
            "--die: `` is empty: a whole number is needed"
        );
    }

    #[test]
    fn lists_and_flags_keep_their_meaning() {
        let args = |list: &[&str]| prepare(&Cli::command(), list.iter().map(OsString::from));
        assert_eq!(
            args(&["ply", "heaps", "--misere", "-3,-4", "--", "-1,2"]),
            ["ply", "heaps", "--misere", " -3,-4", "--", "-1,2"]
        );
        assert_eq!(
            args(&["ply", "dots", "solve", "--memory", "-1", "triangles"]),
            ["ply", "dots", "solve", "--memory=-1", "triangles"]
        );
        assert_eq!(
            args(&["ply", "dots", "triangles", "--moves", "2-4", "--size", "-2"]),
            ["ply", "dots", "triangles", "--moves", "2-4", "--size=-2"]
        );
    }

    #[test]
    fn fault_lines_are_printable_and_short() {
        assert_eq!(printable("a\u{1b}[2Jb\u{0}"), "a\\x1b[2Jb\\0");
        let long = printable(&"é".repeat(1000));
        assert_eq!(long.len() + "ply: ".len(), 300);
        assert!(long.ends_with('…'));
        let fits = "x".repeat(295);
        assert_eq!(printable(&fits), fits);
    }
}
