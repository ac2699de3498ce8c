//! Arguments several commands share, flattened into each (`#[command(flatten)]`): the memory
//! budget, the MagicBoard size rule.

use crate::failure::Failure;
use crate::input::{memory_budget, parse_memory};
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use plysolve::engine::MemoryBudget;
use plysolve::input::number::{parse_int, IntFault};
use plysolve::input::quote;
use std::ops::RangeInclusive;

/// The parser of a whole-number option whose game's home checks it against `range` (`--size`,
/// `--lines`): a number no `u32` holds (negative, or past 2^32) is refused here naming that range
/// (`` `-1` is not in 1..=6 ``), the rest left to the home's check and its own words; anything but a
/// whole number is refused as one — white space around it too, as every count option refuses it.
pub fn number_in(
    range: RangeInclusive<u32>,
) -> impl Fn(&str) -> Result<u32, String> + Clone + Send + Sync + 'static {
    move |text| {
        let outside = || {
            let (low, high) = (range.start(), range.end());
            format!("{} is not in {low}..={high}", quote(text))
        };
        if text.trim_ascii() != text {
            return Err(format!("{} is not a whole number", quote(text)));
        }
        if text
            .strip_prefix('-')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b == b'0'))
        {
            if !range.contains(&0) {
                return Err(outside());
            }
            return Err(format!(
                "{} has a minus sign, which no count takes",
                quote(text)
            ));
        }
        match parse_int(text) {
            Ok(n) => u32::try_from(n).map_err(|_| outside()),
            Err(IntFault::OutOfRange) => Err(outside()),
            Err(IntFault::NotANumber) => Err(format!("{} is not a whole number", quote(text))),
        }
    }
}

/// `--level N` (`ply play`, `ply bench dots-player`): a level of ply's dots player, 1 to 8, the
/// value quoted as every option's is (at most 40 characters, escaped) when it is none.
pub fn level(text: &str) -> Result<plysolve::games::dots::level::Level, String> {
    let refused = || format!("{} is not a level (1 to 8)", quote(text));
    let n: u64 = text.parse().map_err(|_| refused())?;
    plysolve::games::dots::level::Level::new(n).map_err(|_| refused())
}

/// `--memory SIZE`: the most memory a solver may use. `GLOBAL` makes it an option of the command's
/// subcommands too (`ply dots solve --memory 1G triangles` and `… triangles --memory 1G`).
#[derive(Clone, Copy, Default)]
pub struct MemoryArg<const GLOBAL: bool = false> {
    /// The size given, in bytes.
    pub memory: Option<u64>,
}

impl<const GLOBAL: bool> MemoryArg<GLOBAL> {
    /// The budget: the least of `--memory` (when given) and what the system allows now; a
    /// `--memory` above the machine's physical memory is refused.
    pub fn budget(&self) -> Result<MemoryBudget, Failure> {
        memory_budget(self.memory)
    }
}

impl<const GLOBAL: bool> FromArgMatches for MemoryArg<GLOBAL> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(MemoryArg {
            memory: matches.get_one::<u64>("memory").copied(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl<const GLOBAL: bool> Args for MemoryArg<GLOBAL> {
    fn augment_args(command: Command) -> Command {
        command.arg(
            Arg::new("memory")
                .long("memory")
                .value_name("SIZE")
                .value_parser(parse_memory)
                .global(GLOBAL)
                .help(
                    "Memory the solver may use, e.g. 8G or 512M (at most, and by default, what \
                     the system allows less 512 MiB)",
                ),
        )
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

/// `--any-size`: MagicBoard sizes 2 to 4096 instead of the original program's 5 to 20.
#[derive(Args, Clone, Copy)]
pub struct SizeRuleArg {
    /// Allow sizes 2 to 4096 instead of the original program's 5 to 20.
    #[arg(long)]
    pub any_size: bool,
}
