//! A question about a dots position as every front end states it: the `ply dots` arguments and the
//! `/api/dots` JSON are one [`DotsRequest`], read without judgement, then checked once by
//! [`DotsRequest::validate`] into a [`DotsQuery`] the solvers can trust (shakmaty's `Setup` →
//! `Position`). A report's `played` list can be fed back as the request's `moves`.

use super::geometry::{BuiltBoard, Geometry, GeometryError};
use super::notation::{position_from_moves, MoveError};
use super::position::Position;
pub use crate::engine::scored::search::TieOrder;
/// How values are computed: the engine's one list of strategies, asked for by name (`auto`, the
/// default, lets the front end's [`Policy`](super::policy::Policy) pick; `book` only names what
/// answered and cannot be asked for).
pub use crate::engine::scored::Strategy;
use crate::engine::scored::ValueRange;
use crate::input::duration::{parse_time, seconds_to_duration, TimeError};
use crate::input::quote;
use crate::input::surface::{Surface, Value, Worded};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use thiserror::Error;

/// How much of a position to explain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Detail {
    /// The value alone, no move valued: one proof for the position (on every core, for the search)
    /// instead of one exact value per move, which is what makes the largest positions reachable.
    Value,
    /// The value and every move's value.
    Moves,
    /// Every move's value and a best line of play to the end.
    #[default]
    Line,
}

/// A tie order as books and users name it: `low-first`, `high-first`.
pub fn tie_name(tie_order: TieOrder) -> &'static str {
    match tie_order {
        TieOrder::LowFirst => "low-first",
        TieOrder::HighFirst => "high-first",
    }
}

/// Moves as written: one text (`"2-4 4-5"`, as `ply dots --moves` takes it) or a list of moves (as a
/// report's `played` gives them back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "one text (\"2-4 4-5\") or a list of texts ([\"2-4\", \"4-5\"])"
)]
pub enum MoveList {
    /// Moves separated by spaces, commas or newlines.
    Text(String),
    /// One move per item.
    List(Vec<String>),
}

impl Detail {
    /// The detail as a request writes it: `value`, `moves`, `line`.
    pub fn word(self) -> &'static str {
        match self {
            Detail::Value => "value",
            Detail::Moves => "moves",
            Detail::Line => "line",
        }
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::Text(String::new())
    }
}

impl MoveList {
    /// The moves as one text, as the notation reads it.
    pub fn text(&self) -> String {
        match self {
            MoveList::Text(text) => text.clone(),
            MoveList::List(moves) => moves.join(" "),
        }
    }
}

/// A time: seconds as a number (`2.5`), or a text with units (`"30s"`, `"500ms"`).
#[derive(Debug, Clone, PartialEq)]
pub enum TimeText {
    /// Seconds, as the caller wrote the number (`2.5`, `1E+5`): a fault quotes it so, never as a
    /// float re-prints it.
    Seconds(String),
    /// With units, as `--time` takes it.
    Text(String),
}

impl TimeText {
    /// The time, checked.
    pub fn duration(&self) -> Result<Duration, TimeError> {
        match self {
            TimeText::Seconds(text) => match text.parse::<f64>() {
                Ok(seconds) => seconds_to_duration(seconds, text),
                Err(_) => Err(TimeError::NotATime(text.clone())),
            },
            TimeText::Text(text) => parse_time(text),
        }
    }
}

impl Serialize for TimeText {
    /// Seconds as a JSON number — a whole one as written, another as the float it rounds to
    /// (Rust's exact reading: serde_json's own may miss by a unit in the last place, and the time
    /// would change each time it is written back) — and a text as a string.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            TimeText::Seconds(text) => match (text.parse::<u64>(), text.parse::<f64>()) {
                (Ok(whole), _) => serializer.serialize_u64(whole),
                (_, Ok(seconds)) if seconds.is_finite() => serializer.serialize_f64(seconds),
                _ => serializer.serialize_str(text),
            },
            TimeText::Text(text) => serializer.serialize_str(text),
        }
    }
}

impl<'de> Deserialize<'de> for TimeText {
    /// A number (its text as written from the library's JSON reader,
    /// [`NUMBER_TEXT`](crate::input::json::NUMBER_TEXT); from another, the value's text) or a text.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TimeVisitor;

        impl<'de> serde::de::Visitor<'de> for TimeVisitor {
            type Value = TimeText;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("seconds (2.5) or a text with units (\"30s\", \"500ms\")")
            }

            fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<TimeText, D::Error> {
                d.deserialize_any(self)
            }

            fn visit_bytes<E: serde::de::Error>(self, text: &[u8]) -> Result<TimeText, E> {
                Ok(TimeText::Seconds(
                    String::from_utf8_lossy(text).into_owned(),
                ))
            }

            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<TimeText, E> {
                Ok(TimeText::Seconds(n.to_string()))
            }

            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<TimeText, E> {
                Ok(TimeText::Seconds(n.to_string()))
            }

            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<TimeText, E> {
                Ok(TimeText::Seconds(
                    serde_json::Number::from_f64(n)
                        .map_or_else(|| n.to_string(), |n| n.to_string()),
                ))
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<TimeText, E> {
                Ok(TimeText::Text(text.to_string()))
            }
        }

        deserializer.deserialize_newtype_struct(crate::input::json::NUMBER_TEXT, TimeVisitor)
    }
}

/// A question about a dots position, unchecked: the keys are `ply dots`'s long option names.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DotsRequest {
    /// `"triangles"` or `"boxes"`.
    pub game: String,
    /// Rows of triangles (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// Rows of boxes (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u32>,
    /// Columns of boxes (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<u32>,
    /// The moves played, A first (a report's `played` is accepted under its own name too).
    #[serde(default, alias = "played")]
    pub moves: MoveList,
    /// How much to explain (default: every move's value and a best line).
    #[serde(default)]
    pub detail: Detail,
    /// How values are computed (default: the policy's choice).
    #[serde(default)]
    pub strategy: Strategy,
    /// Which of two moves of equal priority the search tries first.
    #[serde(default)]
    pub tie_order: TieOrder,
    /// The most time the answer may take; past it, the answer says what was proved. A front end's
    /// own limit (a server's) caps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeText>,
    /// `[lower, upper]`: the value is asked for exactly only where it lies strictly between them;
    /// otherwise a bound showing it at or below `lower`, or at or above `upper`, answers
    /// (`[t - 1, t]` asks whether the value reaches `t`: one null-window test of the search). The
    /// value alone ([`Detail::Value`]) is asked about this way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<[i32; 2]>,
    /// How many of the best moves to show each with its line (`--lines K`, 1 to [`MAX_LINES`];
    /// with detail `line` only): an engine's multi-line view. Default: the best line alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u32>,
}

/// The most top lines a request may ask for.
pub const MAX_LINES: u32 = 64;

/// Why a request cannot be answered as it stands. Its messages name the request's options as the
/// surface the request came through names them ([`Worded`]); `Display` is the command line's
/// wording.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", self.worded(Surface::Cli))]
pub enum DotsFault {
    /// A game other than triangles and boxes.
    UnknownGame(String),
    /// A size of the other game's boards (`rows` for triangles, `size` for boxes).
    OtherGame {
        /// The key given.
        key: &'static str,
        /// The game asked for.
        game: &'static str,
    },
    /// One of `rows` and `cols` without the other.
    HalfABoxBoard {
        /// The key given.
        given: &'static str,
        /// The key missing.
        missing: &'static str,
    },
    /// A board size no board has.
    Board(#[from] GeometryError),
    /// A move that does not parse or cannot be played.
    Moves(#[from] MoveError),
    /// A time that is no time.
    Time(#[from] TimeError),
    /// A window that holds no value.
    EmptyWindow(i32, i32),
    /// A window asked with every move's value.
    WindowWithMoves,
    /// A number of top lines no position shows.
    Lines(u32),
    /// Top lines asked without the lines: the detail asked for instead.
    LinesWithout(Detail),
}

impl Worded for DotsFault {
    fn worded(&self, surface: Surface) -> String {
        let name = |key| surface.name(key);
        let detail = |d: &Detail| surface.setting("detail", Value::Word(d.word()));
        match self {
            DotsFault::UnknownGame(game) => {
                format!(
                    "unrecognized game {} (the games are triangles and boxes)",
                    quote(game)
                )
            }
            DotsFault::OtherGame { key, game } => format!(
                "{} is not for {game}: triangles take {}, boxes {} and {}",
                name(key),
                name("size"),
                name("rows"),
                name("cols")
            ),
            DotsFault::HalfABoxBoard { given, missing } => format!(
                "{} without {}: boxes take both (or neither, for 3×3)",
                name(given),
                name(missing)
            ),
            DotsFault::Board(e) => e.to_string(),
            DotsFault::Moves(e) => e.to_string(),
            DotsFault::Time(e) => format!("{}: {e}", name("time")),
            DotsFault::EmptyWindow(lower, upper) => format!(
                "{}: its lower end must be below its upper end",
                surface.setting("window", Value::Written(&format!("[{lower}, {upper}]")))
            ),
            DotsFault::WindowWithMoves => format!(
                "a window bounds the value alone: ask for {} with it",
                detail(&Detail::Value)
            ),
            DotsFault::Lines(k) => {
                format!("{}: 1 to {MAX_LINES} top lines, not {k}", name("lines"))
            }
            DotsFault::LinesWithout(asked) => format!(
                "{} are shown with {} (the default), not {}",
                name("lines"),
                detail(&Detail::Line),
                detail(asked)
            ),
        }
    }
}

/// A checked request: the board built, the moves played, and how to answer.
#[derive(Debug, Clone)]
pub struct DotsQuery {
    /// The board.
    pub built: BuiltBoard,
    /// The position after the moves.
    pub position: Position,
    /// How much to explain.
    pub detail: Detail,
    /// The strategy asked for.
    pub strategy: Strategy,
    /// The search's tie order.
    pub tie_order: TieOrder,
    /// The time the request allows, if it set one.
    pub time: Option<Duration>,
    /// The window the value is asked about in ([`ValueRange::FULL`]: the exact value).
    pub window: ValueRange,
    /// How many top moves to show with their lines (1: the best line alone).
    pub lines: u32,
}

impl DotsQuery {
    /// The query of a position already played on `built` (a game in progress: nothing to check),
    /// asking `detail` by the policy's choice.
    pub fn at(built: &BuiltBoard, position: Position, detail: Detail) -> Self {
        DotsQuery {
            built: built.clone(),
            position,
            detail,
            strategy: Strategy::Auto,
            tie_order: TieOrder::default(),
            time: None,
            window: ValueRange::FULL,
            lines: 1,
        }
    }

    /// Free edges of the position.
    pub fn free(&self) -> u32 {
        self.built.board.edge_count() as u32 - self.position.drawn().len()
    }
}

impl DotsRequest {
    /// A request for the position after `moves` on `geometry`, everything else at its default.
    pub fn new(geometry: Geometry, moves: &str) -> Self {
        let (game, size, rows, cols) = match geometry {
            Geometry::Triangles { size } => ("triangles", Some(size), None, None),
            Geometry::Boxes { rows, cols } => ("boxes", None, Some(rows), Some(cols)),
        };
        DotsRequest {
            game: game.to_string(),
            size,
            rows,
            cols,
            moves: MoveList::Text(moves.to_string()),
            ..DotsRequest::default()
        }
    }

    /// The board asked for: triangles of `size` rows (default 3), or boxes of `rows` × `cols`
    /// (both, or neither: 3×3). A size of the other game's boards is refused, not ignored.
    pub fn geometry(&self) -> Result<Geometry, DotsFault> {
        let other_game = |key, game| Err(DotsFault::OtherGame { key, game });
        match (self.game.as_str(), self.size, self.rows, self.cols) {
            ("triangles", _, Some(_), _) => other_game("rows", "triangles"),
            ("triangles", _, _, Some(_)) => other_game("cols", "triangles"),
            ("triangles", size, None, None) => Ok(Geometry::Triangles {
                size: size.unwrap_or(3),
            }),
            ("boxes", Some(_), _, _) => other_game("size", "boxes"),
            ("boxes", None, Some(rows), Some(cols)) => Ok(Geometry::Boxes { rows, cols }),
            ("boxes", None, None, None) => Ok(Geometry::Boxes { rows: 3, cols: 3 }),
            ("boxes", None, Some(_), None) => Err(DotsFault::HalfABoxBoard {
                given: "rows",
                missing: "cols",
            }),
            ("boxes", None, None, Some(_)) => Err(DotsFault::HalfABoxBoard {
                given: "cols",
                missing: "rows",
            }),
            (other, ..) => Err(DotsFault::UnknownGame(other.to_string())),
        }
    }

    /// Checks everything: the board, every move, the time, the window.
    pub fn validate(&self) -> Result<DotsQuery, DotsFault> {
        let built = self.geometry()?.build()?;
        let position = position_from_moves(&built.board, &self.moves.text())?;
        let time = self.time.as_ref().map(TimeText::duration).transpose()?;
        let window = match self.window {
            None => ValueRange::FULL,
            Some([lower, upper]) if lower >= upper => {
                return Err(DotsFault::EmptyWindow(lower, upper))
            }
            Some(_) if self.detail != Detail::Value => return Err(DotsFault::WindowWithMoves),
            Some([lower, upper]) => ValueRange { lower, upper },
        };
        let lines = match (self.lines, self.detail) {
            (None, _) => 1,
            (Some(k), _) if !(1..=MAX_LINES).contains(&k) => return Err(DotsFault::Lines(k)),
            (Some(1), _) => 1,
            (Some(k), Detail::Line) => k,
            (Some(_), detail) => return Err(DotsFault::LinesWithout(detail)),
        };
        Ok(DotsQuery {
            built,
            position,
            detail: self.detail,
            strategy: self.strategy,
            tie_order: self.tie_order,
            time,
            window,
            lines,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_json(text: &str) -> Result<DotsRequest, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn json_and_arguments_give_the_same_request() {
        let json = from_json(r#"{"game":"boxes","rows":2,"cols":3,"moves":"1-2 2-3"}"#).unwrap();
        let built = DotsRequest::new(Geometry::Boxes { rows: 2, cols: 3 }, "1-2 2-3");
        assert_eq!(json, built);
        // A report's `played` list, fed back.
        let list = from_json(r#"{"game":"boxes","rows":2,"cols":3,"played":["1-2","2-3"]}"#)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(list.position, json.validate().unwrap().position);
        assert_eq!(list.detail, Detail::Line);
        assert_eq!(list.free(), 17 - 2);
    }

    #[test]
    fn every_key_is_checked() {
        let e = from_json(r#"{"game":"boxes","rows":2,"colour":1}"#).unwrap_err();
        assert!(e.starts_with("unknown field `colour`"), "{e}");
        let e = from_json(r#"{"game":"boxes","strategy":"fast"}"#).unwrap_err();
        assert!(e.contains("unknown variant `fast`"), "{e}");
        let e = from_json(r#"{"game":"boxes","moves":[1,2]}"#).unwrap_err();
        assert!(
            e.starts_with("one text (\"2-4 4-5\") or a list of texts"),
            "{e}"
        );
        let e = from_json(r#"{"game":"boxes","time":true}"#).unwrap_err();
        assert!(
            e.starts_with(
                "invalid type: boolean `true`, expected seconds (2.5) or a text with units"
            ),
            "{e}"
        );
        let r = from_json(r#"{"game":"boxes","strategy":"free-table","tie_order":"high-first","detail":"value","time":"2s"}"#)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(r.strategy, Strategy::FreeTable);
        assert_eq!(r.tie_order, TieOrder::HighFirst);
        assert_eq!(r.detail, Detail::Value);
        assert_eq!(r.time, Some(Duration::from_secs(2)));
        let seconds = from_json(r#"{"game":"boxes","time":0.5}"#).unwrap();
        assert_eq!(
            seconds.validate().unwrap().time,
            Some(Duration::from_millis(500))
        );
    }

    #[test]
    fn faults_say_what_is_wrong() {
        let fault = |text: &str| from_json(text).unwrap().validate().unwrap_err().to_string();
        assert_eq!(
            fault(r#"{"game":"hexes"}"#),
            "unrecognized game `hexes` (the games are triangles and boxes)"
        );
        assert_eq!(
            fault(r#"{"game":"triangles","size":9}"#),
            "triangle boards have size 1 to 6 (size 6 has 63 edges, the most a state holds); got 9"
        );
        assert_eq!(
            fault(r#"{"game":"triangles","moves":["1-2","1-2"]}"#),
            "move 2 `1-2`: edge 1-2 is already drawn (by move 1)"
        );
        assert_eq!(
            fault(r#"{"game":"triangles","time":-1}"#),
            "--time: `-1` is no time at all; give more than 0 s"
        );
        assert_eq!(
            fault(r#"{"game":"triangles","time":"later"}"#),
            "--time: `later` is not a time (write 30s, 500ms, 2m or a number of seconds)"
        );
    }

    #[test]
    fn faults_name_options_in_the_callers_terms() {
        let fault = |text: &str, surface| {
            from_json(text)
                .unwrap()
                .validate()
                .unwrap_err()
                .worded(surface)
        };
        let each =
            |text: &str| [Surface::Cli, Surface::Api, Surface::Python].map(|s| fault(text, s));
        assert_eq!(
            each(r#"{"game":"boxes","rows":3}"#),
            [
                "--rows without --cols: boxes take both (or neither, for 3×3)",
                "\"rows\" without \"cols\": boxes take both (or neither, for 3×3)",
                "rows without cols: boxes take both (or neither, for 3×3)",
            ]
        );
        assert_eq!(
            fault(r#"{"game":"boxes","cols":3}"#, Surface::Api),
            "\"cols\" without \"rows\": boxes take both (or neither, for 3×3)"
        );
        assert_eq!(
            fault(r#"{"game":"triangles","rows":3}"#, Surface::Python),
            "rows is not for triangles: triangles take size, boxes rows and cols"
        );
        assert_eq!(
            fault(r#"{"game":"boxes","size":3}"#, Surface::Api),
            "\"size\" is not for boxes: triangles take \"size\", boxes \"rows\" and \"cols\""
        );
        assert_eq!(
            each(r#"{"game":"triangles","window":[0,1]}"#),
            [
                "a window bounds the value alone: ask for --detail value with it",
                "a window bounds the value alone: ask for \"detail\": \"value\" with it",
                "a window bounds the value alone: ask for detail=\"value\" with it",
            ]
        );
        assert_eq!(
            fault(
                r#"{"game":"triangles","window":[1,1],"detail":"value"}"#,
                Surface::Python
            ),
            "window=[1, 1]: its lower end must be below its upper end"
        );
        assert_eq!(
            fault(r#"{"game":"triangles","lines":3,"detail":"moves"}"#, Surface::Api),
            "\"lines\" are shown with \"detail\": \"line\" (the default), not \"detail\": \"moves\""
        );
        assert_eq!(
            fault(r#"{"game":"triangles","lines":0}"#, Surface::Python),
            "lines: 1 to 64 top lines, not 0"
        );
        // Neither size of a box board: the classic 3×3.
        let classic = from_json(r#"{"game":"boxes"}"#)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(classic.built.geometry, Geometry::Boxes { rows: 3, cols: 3 });
    }
}
