//! Lowest-heap Nim questions as every front end asks them: `ply heaps` and `POST /api/heaps` are one
//! [`HeapsRequest`], `ply play heaps` and `POST /api/play/heaps` one [`PlayHeapsRequest`] (keys: the
//! commands' long option names, and `heaps`). Each is checked once into a [`HeapsQuery`], whose
//! sizes obey the one rule for a heap (a whole number of at least one counter).

use super::player::{heap_reply, HeapReply};
use super::{analyse, heap_token, parse_sizes, HeapsFault, HeapsReport};
use crate::engine::impartial::Convention;
use crate::input::number_list::NumberList;
use serde::{Deserialize, Serialize};

/// The seed that breaks ties when a request names none.
pub const DEFAULT_SEED: u64 = 1;

fn default_seed() -> u64 {
    DEFAULT_SEED
}

/// A question about a position, unchecked: `ply heaps SIZES [--misere] [--grundy]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeapsRequest {
    /// The heap sizes from heap 1: a JSON list, or one text as the command line's arguments write
    /// them (`"3 4,5"`).
    pub heaps: NumberList,
    /// Misère play: whoever takes the last counter loses.
    #[serde(default)]
    pub misere: bool,
    /// Whether the text answer shows the Grundy value; the report always holds it.
    #[serde(default)]
    pub grundy: bool,
}

/// The perfect player's move asked for, unchecked: `ply play heaps SIZES [--misere] --seed SEED`
/// when it is first to choose in this position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayHeapsRequest {
    /// The heap sizes from heap 1, as for [`HeapsRequest::heaps`].
    pub heaps: NumberList,
    /// Misère play: whoever takes the last counter loses.
    #[serde(default)]
    pub misere: bool,
    /// The seed that breaks ties between equally good moves (default 1).
    #[serde(default = "default_seed")]
    pub seed: u64,
}

/// A checked position: every heap holds at least one counter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapsQuery {
    /// Heap sizes from heap 1.
    pub sizes: Vec<u64>,
    /// The play convention.
    pub convention: Convention,
}

impl HeapsQuery {
    /// Reads `heaps` under the convention `misere` asks for.
    pub fn new(heaps: &NumberList, misere: bool) -> Result<Self, HeapsFault> {
        Ok(HeapsQuery {
            sizes: sizes(heaps)?,
            convention: if misere {
                Convention::Misere
            } else {
                Convention::Normal
            },
        })
    }

    /// Who wins, a winning move, the remoteness and the Grundy value, by the closed form.
    pub fn report(&self) -> HeapsReport {
        analyse(&self.sizes, self.convention)
    }

    /// The perfect player's reply, ties broken by a chooser started from `seed`.
    pub fn reply(&self, seed: u64) -> HeapReply {
        heap_reply(&self.sizes, self.convention, seed).expect("every heap checked holds a counter")
    }
}

/// The sizes of `heaps`, each checked by the one rule: a JSON number is the token it was written
/// as, read as the same token on a command line would be.
fn sizes(heaps: &NumberList) -> Result<Vec<u64>, HeapsFault> {
    let numbers = match heaps {
        NumberList::Text(text) => return parse_sizes(text),
        NumberList::Numbers(numbers) => numbers,
    };
    if numbers.is_empty() {
        return Err(HeapsFault::NoHeaps);
    }
    numbers
        .iter()
        .enumerate()
        .map(|(i, n)| heap_token(i + 1, n))
        .collect()
}

impl HeapsRequest {
    /// Checks the heaps.
    pub fn validate(&self) -> Result<HeapsQuery, HeapsFault> {
        HeapsQuery::new(&self.heaps, self.misere)
    }

    /// The report of the position: what `ply heaps --json` prints.
    pub fn answer(&self) -> Result<HeapsReport, HeapsFault> {
        Ok(self.validate()?.report())
    }
}

impl PlayHeapsRequest {
    /// Checks the heaps.
    pub fn validate(&self) -> Result<HeapsQuery, HeapsFault> {
        HeapsQuery::new(&self.heaps, self.misere)
    }

    /// The perfect player's reply.
    pub fn answer(&self) -> Result<HeapReply, HeapsFault> {
        Ok(self.validate()?.reply(self.seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(json: &str) -> Result<HeapsReport, String> {
        let request: HeapsRequest = serde_json::from_str(json).map_err(|e| e.to_string())?;
        request.answer().map_err(|e| e.to_string())
    }

    #[test]
    fn json_and_text_give_the_same_position() {
        let numbers = answer(r#"{"heaps":[2,3],"grundy":true}"#).unwrap();
        assert_eq!(answer(r#"{"heaps":"2, 3"}"#).unwrap(), numbers);
        assert_eq!(numbers.grundy, Some(1));
        let play: PlayHeapsRequest = serde_json::from_str(r#"{"heaps":[2,3]}"#).unwrap();
        let reply = play.answer().unwrap();
        assert_eq!((reply.seed, reply.take, reply.heaps), (1, 1, vec![1, 3]));
    }

    #[test]
    fn every_size_obeys_the_one_rule() {
        for (json, text) in [
            (
                r#"{"heaps":[1,0]}"#,
                "heap 2 holds 0; every heap must hold at least 1 counter",
            ),
            (
                r#"{"heaps":[-4]}"#,
                "heap 1 holds -4; every heap must hold at least 1 counter",
            ),
            (
                r#"{"heaps":[1,1.5]}"#,
                "heap 2: `1.5` is not a whole number",
            ),
            (r#"{"heaps":[]}"#, "no heaps: give at least one heap size"),
            (r#"{"heaps":"1 x"}"#, "heap 2: `x` is not a whole number"),
        ] {
            assert_eq!(answer(json).unwrap_err(), text, "{json}");
        }
        // A number too large, as written (read as the API and Python read it).
        let huge: HeapsRequest =
            crate::input::json::read(br#"{"heaps":[18446744073709551616]}"#).unwrap();
        assert_eq!(
            huge.answer().unwrap_err().to_string(),
            "heap 1 holds 18446744073709551616, more than the largest size (18446744073709551615)"
        );
        let e = answer(r#"{"heaps":[1],"path":"x"}"#).unwrap_err();
        assert!(e.starts_with("unknown field `path`"), "{e}");
    }
}
