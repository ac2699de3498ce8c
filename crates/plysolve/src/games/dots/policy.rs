//! The one strategy policy for dots: which solver answers a query, with how much memory and time.
//! Every front end passes its budget in as data — the command line its `--memory` (and `--time`),
//! the server its `--memory` and per-request limit, `ply play` its `--think` — and gets the same
//! choice for the same budget.

use super::kept::Kept;
use super::request::DotsQuery;
use super::tables::{bytes_needed, CROSSOVERS};
use crate::engine::scored::choose::CHEAP_TABLE_ITEMS;
use crate::engine::scored::search::SearchOptions;
use crate::engine::scored::Strategy;
use crate::engine::util::halt::millis_text;
use crate::engine::util::memory::{Bytes, MemoryBudget};
use std::time::Duration;

/// Under a time limit, no table of more states is built (it cannot stop part way with anything to
/// show, and one of 2^28 states takes about 3 s on two cores): the search answers instead, and
/// gives what it proved if the time runs out.
pub const TIMED_TABLE_LIMIT: u128 = 1 << 28;

/// Under a time limit, no table is built that would take longer than the time at this many states
/// a second (half what two cores fill, for a busy machine).
pub const TABLE_STATES_PER_SECOND: f64 = 5e7;

/// The search table an answer with a time limit gets per second of it: about what a search on two
/// cores fills in that time. A table much larger than the search can fill only costs the time of
/// mapping it.
pub const SEARCH_BYTES_PER_SECOND: u64 = 256 << 20;

/// A front end's budget for answering dots positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Memory the tables of one answer may take.
    pub budget: MemoryBudget,
    /// The longest one answer may take (`None`: no limit, answers are always exact). A request's own
    /// time can only shorten it.
    pub time: Option<Duration>,
}

/// What answering a query will take, known before anything is allocated: front ends announce it
/// (the command line's first progress line; a notice when it is a large share of the machine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// The solver.
    pub strategy: Strategy,
    /// Bytes the solver will allocate for this answer (0 when it reuses what was kept).
    pub new_bytes: u64,
    /// The time the answer may take, if limited.
    pub time: Option<Duration>,
    /// Whether a table or search memory kept from earlier answers is used.
    pub reuses: bool,
}

impl Plan {
    /// What the solver is about to do, as a progress line says it: `filling the table of the free
    /// edges (256.0 MiB)`, `allocating the search table (1.0 GiB), then searching, for at most 10 s`.
    pub fn describe(&self) -> String {
        let bytes = Bytes(self.new_bytes as u128);
        let what = match (self.strategy, self.reuses) {
            (Strategy::Table, true) => "answering from the table kept for this board".to_string(),
            (Strategy::Table, false) => format!("filling the whole table ({bytes:#})"),
            (Strategy::FreeTable, _) => format!("filling the table of the free edges ({bytes:#})"),
            (Strategy::Search, true) => "searching with the table kept for this board".to_string(),
            (Strategy::Search, false) => {
                format!("allocating the search table ({bytes:#}), then searching")
            }
            (Strategy::Memo, _) => format!("memoized recursion (its store takes up to {bytes:#})"),
            (Strategy::Recursion, _) => "plain recursion".to_string(),
            (Strategy::Book, _) => "answering from the book".to_string(),
            (Strategy::Auto, _) => "choosing a strategy".to_string(),
        };
        match self.time {
            Some(time) => format!(
                "{what}, for at most {}",
                millis_text(time.as_millis() as u64)
            ),
            None => what,
        }
    }
}

impl Policy {
    /// A policy with `budget` and, if given, a time limit per answer.
    pub fn new(budget: MemoryBudget, time: Option<Duration>) -> Self {
        Policy { budget, time }
    }

    /// The time `query` may take: the policy's limit, shortened by the query's own.
    pub fn time_for(&self, query: &DotsQuery) -> Option<Duration> {
        match (self.time, query.time) {
            (Some(mine), Some(asked)) => Some(mine.min(asked)),
            (mine, asked) => mine.or(asked),
        }
    }

    /// The strategy that answers `query`: the one it asks for, or the automatic choice — a table
    /// kept for the board, or one to keep when the front end keeps tables and the board is small
    /// ([`CROSSOVERS`]' small boards); else the engine's choice for the free edges and the budget at
    /// the dots crossovers ([`Strategy::auto`]: the table of the free edges while it is cheap or the board small, the
    /// search beyond), except that a query with a time limit gets no table over
    /// [`TIMED_TABLE_LIMIT`] states (the search can stop with what it proved; a table cannot).
    pub fn strategy(&self, query: &DotsQuery, kept: Option<&Kept>) -> Strategy {
        match query.strategy {
            Strategy::Auto => self.auto(query, kept),
            asked => asked,
        }
    }

    fn auto(&self, query: &DotsQuery, kept: Option<&Kept>) -> Strategy {
        let board = &query.built.board;
        // A front end that keeps tables (the server, `ply play`) builds a small board's whole table
        // once (well under a second) and answers every later question from it.
        if kept.is_some_and(|k| k.book_answers(query)) {
            return Strategy::Book;
        }
        let small = board.edge_count() as u32 <= CROSSOVERS.small_items;
        if kept.is_some_and(|k| (small && k.keeps_tables()) || k.has_table(&query.built)) {
            return Strategy::Table;
        }
        let choice = Strategy::auto(board, query.free(), self.budget, CROSSOVERS);
        let states = match choice {
            Strategy::Table => bytes_needed(board.edge_count() as u32),
            Strategy::FreeTable => bytes_needed(query.free()),
            _ => 0,
        };
        match self.time_for(query) {
            Some(time) if states > timed_table_limit(time) => Strategy::Search,
            _ => choice,
        }
    }

    /// Free edges up to which every position is answered exactly under this policy: with a time
    /// limit, as many as a table of the free edges within the budget and [`TIMED_TABLE_LIMIT`]
    /// could hold (the search proves these in well under a second, and most positions of a few more
    /// within seconds, but promises nothing past them); without, all.
    pub fn exact_free(&self) -> u32 {
        match self.time {
            None => 63,
            Some(time) => {
                let bytes = timed_table_limit(time).min(u128::from(self.budget.bytes()));
                127 - bytes.max(1).leading_zeros()
            }
        }
    }

    /// The table of a search of its own for `query`: the engine's size for its free edges
    /// ([`SearchOptions::table_bytes_for`]), at most [`search_bytes_for`] its time limit.
    pub fn search_table_bytes(&self, query: &DotsQuery) -> u64 {
        let size = SearchOptions::table_bytes_for(query.free(), self.budget);
        match self.time_for(query) {
            Some(time) => size.min(search_bytes_for(time)),
            None => size,
        }
    }

    /// The table of searches that share one table on the host ([`Kept::on_host`]): sized for the
    /// board's largest search (its empty board's, [`SearchOptions::table_bytes_for`]) within
    /// `machine` — the machine's steady budget ([`MemoryBudget::of_machine`]), not the memory
    /// free at the moment — whatever the position, so that every worker of a run asks the same
    /// size for it whatever its first job and whenever it asks (a table of that name of another
    /// size is refused; a worker whose later job asked more would make it again, empty). Whether
    /// that much is free is checked when the table is made.
    pub fn host_table_bytes(query: &DotsQuery, machine: MemoryBudget) -> u64 {
        let edges = query.built.board.edge_count() as u32;
        SearchOptions::table_bytes_for(edges, machine)
    }

    /// What answering `query` will take, before anything is allocated.
    pub fn plan(&self, query: &DotsQuery, kept: Option<&Kept>) -> Plan {
        let strategy = self.strategy(query, kept);
        let edges = query.built.board.edge_count() as u32;
        let free = query.free();
        let budget = self.budget.bytes();
        let kept_table = kept.is_some_and(|k| k.has_table(&query.built));
        let kept_memory = kept.is_some_and(Kept::keeps_search_memories);
        let (new_bytes, reuses) = match strategy {
            Strategy::Table if kept_table => (0, true),
            Strategy::Table => (table_bytes(edges), false),
            Strategy::FreeTable => (table_bytes(free), false),
            Strategy::Search if kept_memory => (0, true),
            Strategy::Search => (self.search_table_bytes(query), false),
            // The engine's memo store: dense over the whole board past its cheap tables.
            Strategy::Memo if free > CHEAP_TABLE_ITEMS => (table_bytes(edges).min(budget), false),
            Strategy::Memo => (budget.min(table_bytes(free)), false),
            Strategy::Recursion | Strategy::Book | Strategy::Auto => (0, false),
        };
        Plan {
            strategy,
            new_bytes,
            time: self.time_for(query),
            reuses,
        }
    }
}

/// The search table for a search of `time`: [`SEARCH_BYTES_PER_SECOND`] a second, at least 16 MiB.
/// (With huge pages, a search touches every page of its table within its first thousand probes: a
/// table the time cannot use costs its page faults all the same.)
pub fn search_bytes_for(time: Duration) -> u64 {
    ((SEARCH_BYTES_PER_SECOND as f64 * time.as_secs_f64()) as u64).max(16 << 20)
}

/// The most states of a table built under a time limit of `time`: what fills in that time, at most
/// [`TIMED_TABLE_LIMIT`] (and never less than the 2^24 states the engine always builds).
fn timed_table_limit(time: Duration) -> u128 {
    let fills = (time.as_secs_f64() * TABLE_STATES_PER_SECOND) as u128;
    fills.clamp(1 << 24, TIMED_TABLE_LIMIT)
}

/// Bytes of a table of `2^items` states, saturated.
fn table_bytes(items: u32) -> u64 {
    u64::try_from(bytes_needed(items)).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::request::DotsRequest;
    use crate::games::dots::Geometry;

    fn query(rows: u32, cols: u32, moves: &str) -> DotsQuery {
        DotsRequest::new(Geometry::Boxes { rows, cols }, moves)
            .validate()
            .unwrap()
    }

    #[test]
    fn a_table_shared_on_the_host_is_one_size_whatever_the_position() {
        let machine = MemoryBudget::new(16 << 30);
        let policy = Policy::new(machine, None);
        let host = |query| Policy::host_table_bytes(query, machine);
        // Positions of 30 and 22 free edges ask tables of their own of different sizes; the table
        // their workers share is the board's, the empty board's size, for both.
        let (deep, shallow) = (
            query(4, 4, "1-2 2-3 3-4 4-5 6-7 7-8 8-9 9-10 11-12 12-13"),
            query(4, 4, "1-2 2-3 3-4 4-5 6-7 7-8 8-9 9-10 11-12 12-13 13-14 14-15 16-17 17-18 18-19 19-20 21-22 22-23"),
        );
        assert!(policy.search_table_bytes(&deep) > policy.search_table_bytes(&shallow));
        let empty = query(4, 4, "");
        assert_eq!(host(&deep), host(&shallow));
        assert_eq!(host(&deep), policy.search_table_bytes(&empty));
        assert_eq!(host(&deep), 8 << 30);
        // A machine of 8 GiB (less the margin) shares half of it, rounded when the table is made.
        let small = MemoryBudget::new((8 << 30) - MemoryBudget::MARGIN);
        assert_eq!(Policy::host_table_bytes(&deep, small), (4 << 30) - MemoryBudget::MARGIN / 2);
    }

    #[test]
    fn auto_picks_the_free_table_up_to_18_free_edges_then_the_search() {
        let boxes = |rows, cols| Geometry::Boxes { rows, cols }.build().unwrap().board;
        let auto = |board, free, budget| Strategy::auto(board, free, budget, CROSSOVERS);
        let plenty = MemoryBudget::new(16 << 30);
        let (b33, b34, b44) = (boxes(3, 3), boxes(3, 4), boxes(4, 4));
        // A small board: the free-edge table at any number of free edges (never more than the
        // whole table).
        assert_eq!(auto(&b33, 24, plenty), Strategy::FreeTable);
        assert_eq!(auto(&b33, 12, plenty), Strategy::FreeTable);
        assert_eq!(auto(&b44, 18, plenty), Strategy::FreeTable);
        assert_eq!(auto(&b44, 19, plenty), Strategy::Search);
        assert_eq!(auto(&b44, 40, plenty), Strategy::Search);
        // The empty 3×4 board: the search, though its whole table (2 GiB) fits.
        assert_eq!(auto(&b34, 31, plenty), Strategy::Search);
        // A free-edge table over the budget is not chosen either.
        let small = MemoryBudget::new(1 << 10);
        assert_eq!(auto(&b44, 16, small), Strategy::Search);
        assert_eq!(auto(&b44, 8, small), Strategy::FreeTable);
    }

    #[test]
    fn a_small_board_gets_its_whole_table_only_where_tables_are_kept() {
        let policy = Policy::new(MemoryBudget::new(4 << 30), None);
        let kept = Kept::new(0, 0);
        let opened = query(3, 3, "1-2 1-5 2-3 6-7 11-12");
        assert_eq!(opened.free(), 19);
        // One question from the command line: the table of its free edges, 2^19 states.
        assert_eq!(policy.strategy(&opened, None), Strategy::FreeTable);
        assert_eq!(policy.plan(&opened, None).new_bytes, 1 << 19);
        // A server or a player: the whole table, built once for every later question.
        assert_eq!(policy.strategy(&opened, Some(&kept)), Strategy::Table);
        assert_eq!(policy.plan(&opened, Some(&kept)).new_bytes, 1 << 24);
        // A larger board: the search, kept tables or not, for a position no book holds ...
        let larger = query(4, 4, "1-2 6-7 11-12 16-17");
        assert_eq!(policy.strategy(&larger, Some(&kept)), Strategy::Search);
        assert_eq!(policy.strategy(&larger, None), Strategy::Search);
        // ... and the shipped book, where a front end keeps one, for a position it has proved (the
        // first move at a corner of the 4×4 board).
        let opening = query(4, 4, "1-2");
        assert_eq!(policy.strategy(&opening, Some(&kept)), Strategy::Book);
        assert_eq!(policy.strategy(&opening, None), Strategy::Search);
    }
}
