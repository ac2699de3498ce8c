//! A game of lowest-heap Nim as it is played: the heaps, the rule (normal or misère), the takes so
//! far — each refused when the rule does not allow it, each graded against the perfect answer — whose
//! turn it is, whether it is over and who won. `ply play heaps` keeps one [`HeapsGame`] and prints it;
//! `POST /api/heaps/game` ([`HeapsGameRequest`]) replays the takes the page sends and answers with
//! every position's value and every take's grade ([`HeapsGameReport`]), so neither states a rule.

use super::player::{choose_among, move_classes, HeapChoice, HeapMove, HeapReply};
use super::request::HeapsQuery;
use super::{heap_outcome, outcomes_from_the_back, HeapsFault};
use crate::engine::impartial::{Convention, Outcome};
use crate::engine::util::chooser::Chooser;
use crate::engine::Player;
use crate::games::door::MAX_REPLAYED_MOVES;
use crate::input::number::{items, parse_unsigned, EmptyItem, IntFault};
use crate::input::surface::Surface;
use crate::input::number_list::NumberList;
use crate::input::quote;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Why a take was refused, in the words of the one who tried it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TakeFault {
    /// Every heap is empty.
    #[error("the game is over: every heap is empty")]
    Over,
    /// Not a number of counters (nor `all`).
    #[error("{} is not a number of counters", quote(.0))]
    NotANumber(String),
    /// None, or more counters than the lowest heap holds.
    #[error(
        "heap {heap} has {left} {}: take 1{}",
        if *.left == 1 { "counter" } else { "counters" },
        if *.left == 1 { String::new() } else { format!(" to {}", .left) }
    )]
    OutOfRange {
        /// 1-based number of the lowest non-empty heap.
        heap: usize,
        /// Counters in it.
        left: u64,
    },
}

/// How good a take was, against the perfect answer in its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// The fastest win, or the position was lost whatever the take: as good as any take.
    Best,
    /// It keeps the win, more slowly than the best take.
    WinsMoreSlowly,
    /// The position was won and the take hands the win to the opponent.
    GivesTheWinAway,
    /// The position was lost whatever the take.
    LostAnyway,
}

impl Grade {
    /// The grade in words, as the page and `ply play` show it.
    pub fn words(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::WinsMoreSlowly => "wins, more slowly",
            Grade::GivesTheWinAway => "mistake: gives the win away",
            Grade::LostAnyway => "lost anyway",
        }
    }
}

/// A take played: by whom, from which heap, how many, and its grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PlayedTake {
    /// Who took.
    pub player: Player,
    /// 1-based number of the heap taken from (the lowest non-empty one).
    pub heap: usize,
    /// Counters taken.
    pub take: u64,
    /// Its grade against the perfect answer.
    pub grade: Grade,
    /// The grade in words ([`Grade::words`]).
    pub verdict: &'static str,
}

/// A game of lowest-heap Nim from its first heaps: the state is the lowest non-empty heap and the
/// counters left in it (the heaps above it untouched, those below it empty), as in
/// [`super::LowestHeapGame`]. Cloning keeps a snapshot (for undo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapsGame {
    sizes: Vec<u64>,
    convention: Convention,
    /// The outcome once heaps `i..` remain untouched, for every `i` (index `sizes.len()`: the end).
    after: Vec<Outcome>,
    /// 0-based lowest non-empty heap (`sizes.len()` once all are empty).
    lowest: usize,
    /// Counters left in it.
    left: u64,
    /// Takes played.
    played: usize,
}

impl HeapsGame {
    /// The game from a checked position, A to move.
    pub fn new(position: &HeapsQuery) -> Self {
        let sizes = position.sizes.clone();
        HeapsGame {
            after: outcomes_from_the_back(&sizes, position.convention),
            lowest: 0,
            left: sizes[0],
            sizes,
            convention: position.convention,
            played: 0,
        }
    }

    /// The play convention.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// The heaps now, emptied ones included.
    pub fn heaps(&self) -> Vec<u64> {
        (0..self.sizes.len())
            .map(|i| match i.cmp(&self.lowest) {
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Equal => self.left,
                std::cmp::Ordering::Greater => self.sizes[i],
            })
            .collect()
    }

    /// The heap to take from (1-based) and its counters; `None` once every heap is empty.
    pub fn lowest(&self) -> Option<(usize, u64)> {
        (!self.is_over()).then_some((self.lowest + 1, self.left))
    }

    /// Takes played so far.
    pub fn played(&self) -> usize {
        self.played
    }

    /// Whose turn it is (A moves first).
    pub fn to_move(&self) -> Player {
        if self.played % 2 == 0 {
            Player::A
        } else {
            Player::B
        }
    }

    /// Whether every heap is empty.
    pub fn is_over(&self) -> bool {
        self.lowest == self.sizes.len()
    }

    /// Who took last, if anyone has.
    pub fn last_mover(&self) -> Option<Player> {
        (self.played > 0).then(|| self.to_move().other())
    }

    /// Who won, once the game is over: who took the last counter under normal play, the other
    /// player under misère play.
    pub fn winner(&self) -> Option<Player> {
        let last = self.last_mover().filter(|_| self.is_over())?;
        Some(match self.convention {
            Convention::Normal => last,
            Convention::Misere => last.other(),
        })
    }

    /// Why the winner won, in words: `took the last counter` (normal play) or `did not take the last
    /// counter` (misère play).
    pub fn ending(&self) -> &'static str {
        match self.convention {
            Convention::Normal => "took the last counter",
            Convention::Misere => "did not take the last counter",
        }
    }

    /// The position's value for the player to move: whether they win and in how many moves.
    pub fn outcome(&self) -> Outcome {
        if self.is_over() {
            self.after[self.lowest]
        } else {
            heap_outcome(self.left, self.after[self.lowest + 1])
        }
    }

    /// Every take now, in classes of equal value, best first; empty once the game is over.
    pub fn moves(&self) -> Vec<HeapMove> {
        match self.lowest() {
            Some((heap, left)) => move_classes(heap, left, self.after[self.lowest + 1]),
            None => Vec::new(),
        }
    }

    /// Reads a take as a player writes it: a number of counters, `all`, or `take N`; refused when the
    /// rule does not allow it.
    pub fn read_take(&self, text: &str) -> Result<u64, TakeFault> {
        let (heap, left) = self.lowest().ok_or(TakeFault::Over)?;
        let word = text.trim().trim_start_matches("take").trim();
        if word == "all" {
            return Ok(left);
        }
        match parse_unsigned(word) {
            Ok(count) => u64::try_from(count)
                .ok()
                .filter(|c| (1..=left).contains(c))
                .ok_or(TakeFault::OutOfRange { heap, left }),
            Err(IntFault::OutOfRange) => Err(TakeFault::OutOfRange { heap, left }),
            Err(IntFault::NotANumber) => Err(TakeFault::NotANumber(text.trim().to_string())),
        }
    }

    /// The grade `count` counters taken now would get.
    pub fn grade(&self, count: u64) -> Result<Grade, TakeFault> {
        let (heap, left) = self.lowest().ok_or(TakeFault::Over)?;
        if !(1..=left).contains(&count) {
            return Err(TakeFault::OutOfRange { heap, left });
        }
        let moves = self.moves();
        let best = moves[0];
        let class = moves
            .iter()
            .find(|m| (m.take_min..=m.take_max).contains(&count))
            .expect("the classes cover every take");
        Ok(match (best.wins, class.wins) {
            (false, _) => Grade::LostAnyway,
            (true, false) => Grade::GivesTheWinAway,
            (true, true) if class.remoteness == best.remoteness => Grade::Best,
            (true, true) => Grade::WinsMoreSlowly,
        })
    }

    /// Takes `count` counters from the lowest non-empty heap; refused when the rule does not allow it.
    pub fn take(&mut self, count: u64) -> Result<PlayedTake, TakeFault> {
        let grade = self.grade(count)?;
        let played = PlayedTake {
            player: self.to_move(),
            heap: self.lowest + 1,
            take: count,
            grade,
            verdict: grade.words(),
        };
        self.left -= count;
        if self.left == 0 {
            self.lowest += 1;
            self.left = self.sizes.get(self.lowest).copied().unwrap_or(0);
        }
        self.played += 1;
        Ok(played)
    }

    /// The perfect player's take now, ties drawn by `chooser`; `None` once the game is over.
    pub fn perfect_take(&self, chooser: &mut Chooser) -> Option<HeapChoice> {
        choose_among(&self.moves(), chooser)
    }

    /// The perfect player's reply now, ties broken by a chooser started from `seed`: the reply
    /// `POST /api/play/heaps` gives for the heaps left with the same seed. `None` once over.
    pub fn reply(&self, seed: u64) -> Option<HeapReply> {
        let choice = self.perfect_take(&mut Chooser::new(seed))?;
        let mut after = self.clone();
        after
            .take(choice.take)
            .expect("the perfect take is allowed");
        Some(HeapReply {
            seed,
            heap: choice.class.heap,
            take: choice.take,
            wins: choice.class.wins,
            remoteness: choice.class.remoteness,
            heaps: after.heaps(),
        })
    }
}

/// A game replayed for the page, unchecked: the heaps it started from, the rule and the takes so far
/// (`heaps=3,4,5&moves=2,1,1` in the page's address).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeapsGameRequest {
    /// The heap sizes from heap 1, as for [`super::request::HeapsRequest::heaps`].
    pub heaps: NumberList,
    /// Misère play: whoever takes the last counter loses.
    #[serde(default)]
    pub misere: bool,
    /// The takes so far, A first, each from the lowest non-empty heap then: a JSON list of numbers or
    /// one text (`"2,1,1"`).
    #[serde(default)]
    pub moves: NumberList,
    /// When given, the perfect player's reply after the takes, ties broken by this seed.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// Why a game was not replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HeapsGameError {
    /// Bad heaps.
    #[error(transparent)]
    Heaps(#[from] HeapsFault),
    /// An empty item in the takes' text (`2,,1`).
    #[error("moves: {0}")]
    EmptyItem(#[from] EmptyItem),
    /// More takes than one request replays ([`MAX_REPLAYED_MOVES`]).
    #[error("{}", too_many_takes(Surface::Cli, *.0))]
    TooManyTakes(usize),
    /// A take the game does not allow.
    #[error("move {number}: {fault}")]
    Take {
        /// 1-based number of the take in the moves.
        number: usize,
        /// What is wrong with it.
        fault: TakeFault,
    },
}

/// The refusal of `takes` takes, more than one request replays, with `moves` named as `surface` names
/// it.
pub(crate) fn too_many_takes(surface: Surface, takes: usize) -> String {
    format!(
        "{} must hold at most {MAX_REPLAYED_MOVES} takes, not {takes}",
        surface.name("moves")
    )
}

/// One position of a game: where to take from, whose turn, and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PositionValue {
    /// 1-based number of the heap to take from (`None` once every heap is empty).
    pub heap: Option<usize>,
    /// Counters in it.
    pub left: u64,
    /// Whose turn it is.
    pub to_move: Player,
    /// Whether the player to move wins with perfect play.
    pub wins: bool,
    /// Moves to the end, the winner hurrying and the loser delaying.
    pub remoteness: u64,
    /// The fastest winning take, when the player to move wins.
    pub winning_take: Option<u64>,
}

/// A game replayed, as `POST /api/heaps/game` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapsGameReport {
    /// The play convention.
    pub convention: Convention,
    /// The heaps now, emptied ones included.
    pub heaps: Vec<u64>,
    /// Whether every heap is empty.
    pub over: bool,
    /// Who took last, if anyone has.
    pub last_mover: Option<Player>,
    /// Who won, once over.
    pub winner: Option<Player>,
    /// Why the winner won ([`HeapsGame::ending`]), once over.
    pub ending: Option<&'static str>,
    /// Every take now, in classes of equal value, best first (empty once over).
    pub moves: Vec<HeapMove>,
    /// Every position of the game, from the first to now (one more than the takes).
    pub positions: Vec<PositionValue>,
    /// Every take, graded.
    pub takes: Vec<PlayedTake>,
    /// The perfect player's reply now, when a seed was given and the game is not over.
    pub reply: Option<HeapReply>,
}

impl HeapsGameReport {
    /// The value of `game`'s position now.
    fn position(game: &HeapsGame) -> PositionValue {
        let outcome = game.outcome();
        let best = game.moves().first().copied();
        PositionValue {
            heap: game.lowest().map(|(heap, _)| heap),
            left: game.lowest().map_or(0, |(_, left)| left),
            to_move: game.to_move(),
            wins: outcome.wins,
            remoteness: outcome.remoteness,
            winning_take: best.filter(|m| m.wins).map(|m| m.take_min),
        }
    }
}

impl HeapsGameRequest {
    /// Replays the takes from the heaps, refusing the first the game does not allow.
    pub fn answer(&self) -> Result<HeapsGameReport, HeapsGameError> {
        let mut game = HeapsGame::new(&HeapsQuery::new(&self.heaps, self.misere)?);
        let tokens: Vec<&str> = match &self.moves {
            NumberList::Text(text) => items(text).collect::<Result<_, _>>()?,
            NumberList::Numbers(numbers) => numbers.iter().map(String::as_str).collect(),
        };
        if tokens.len() as u64 > MAX_REPLAYED_MOVES {
            return Err(HeapsGameError::TooManyTakes(tokens.len()));
        }
        let mut positions = vec![HeapsGameReport::position(&game)];
        let mut takes = Vec::with_capacity(tokens.len());
        for (i, token) in tokens.iter().enumerate() {
            let fault = |fault| HeapsGameError::Take {
                number: i + 1,
                fault,
            };
            let count = game.read_take(token).map_err(fault)?;
            takes.push(game.take(count).map_err(fault)?);
            positions.push(HeapsGameReport::position(&game));
        }
        Ok(HeapsGameReport {
            convention: game.convention(),
            heaps: game.heaps(),
            over: game.is_over(),
            last_mover: game.last_mover(),
            winner: game.winner(),
            ending: game.is_over().then(|| game.ending()),
            moves: game.moves(),
            positions,
            takes,
            reply: self.seed.and_then(|seed| game.reply(seed)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(sizes: &[u64], misere: bool) -> HeapsGame {
        let heaps = NumberList::Numbers(sizes.iter().map(u64::to_string).collect());
        HeapsGame::new(&HeapsQuery::new(&heaps, misere).unwrap())
    }

    #[test]
    fn a_game_to_the_end_under_both_rules() {
        let mut g = game(&[2, 3], false);
        assert_eq!((g.to_move(), g.lowest()), (Player::A, Some((1, 2))));
        assert_eq!(g.grade(1), Ok(Grade::Best));
        assert_eq!(g.grade(2), Ok(Grade::GivesTheWinAway));
        let t = g.take(1).unwrap();
        assert_eq!(
            (t.player, t.heap, t.take, t.verdict),
            (Player::A, 1, 1, "best")
        );
        assert_eq!(g.take(1).unwrap().grade, Grade::LostAnyway);
        assert_eq!(g.heaps(), vec![0, 3]);
        assert_eq!((g.winner(), g.is_over()), (None, false));
        assert_eq!(g.take(3).unwrap().heap, 2);
        assert_eq!(g.heaps(), vec![0, 0]);
        assert_eq!(
            (g.last_mover(), g.winner()),
            (Some(Player::A), Some(Player::A))
        );
        assert_eq!(g.take(1), Err(TakeFault::Over));
        // Misère: whoever takes the last counter loses.
        let mut m = game(&[1], true);
        m.take(1).unwrap();
        assert_eq!(
            (m.last_mover(), m.winner()),
            (Some(Player::A), Some(Player::B))
        );
        assert_eq!(m.ending(), "did not take the last counter");
    }

    #[test]
    fn takes_are_read_and_refused_in_the_players_terms() {
        let g = game(&[2, 3], false);
        assert_eq!(g.read_take("all"), Ok(2));
        assert_eq!(g.read_take("take 1"), Ok(1));
        for text in ["0", "3", "99999999999999999999999"] {
            assert_eq!(
                g.read_take(text).unwrap_err().to_string(),
                "heap 1 has 2 counters: take 1 to 2"
            );
        }
        assert_eq!(
            g.read_take("five").unwrap_err().to_string(),
            "`five` is not a number of counters"
        );
        let one = game(&[1], false);
        assert_eq!(
            one.read_take("2").unwrap_err().to_string(),
            "heap 1 has 1 counter: take 1"
        );
    }

    #[test]
    fn the_perfect_take_names_its_heap() {
        let mut g = game(&[1, 2, 3], false);
        g.take(1).unwrap();
        let choice = g.perfect_take(&mut Chooser::new(1)).unwrap();
        // [2, 3] from heap 2: leave one (the rest [3] is won by whoever moves).
        assert_eq!(
            (choice.class.heap, choice.take, choice.class.wins),
            (2, 1, true)
        );
    }

    #[test]
    fn the_page_request_replays_and_refuses() {
        let request: HeapsGameRequest =
            serde_json::from_str(r#"{"heaps":[2,3],"moves":"1,1"}"#).unwrap();
        let r = request.answer().unwrap();
        assert_eq!(r.heaps, vec![0, 3]);
        assert_eq!(r.positions.len(), 3);
        assert_eq!(
            (r.positions[0].wins, r.positions[0].winning_take),
            (true, Some(1))
        );
        assert_eq!((r.positions[2].heap, r.positions[2].left), (Some(2), 3));
        assert_eq!(r.moves[0].take_min, 3);
        assert_eq!(r.reply, None);
        // With a seed, the reply is /api/play/heaps's for the heaps left.
        let request: HeapsGameRequest =
            serde_json::from_str(r#"{"heaps":[3,4,5],"moves":[3],"seed":4}"#).unwrap();
        let reply = request.answer().unwrap().reply.unwrap();
        let alone = super::super::player::heap_reply(&[4, 5], Convention::Normal, 4).unwrap();
        assert_eq!((reply.heap, reply.take), (2, alone.take));
        assert_eq!(reply.heaps, vec![0, 4 - alone.take, 5]);
        let bad: HeapsGameRequest =
            serde_json::from_str(r#"{"heaps":[2,3],"moves":[1,1,4]}"#).unwrap();
        assert_eq!(
            bad.answer().unwrap_err().to_string(),
            "move 3: heap 2 has 3 counters: take 1 to 3"
        );
    }
}
