//! What one request may cost, checked before any work starts, and how a server is set up
//! (`ply serve`'s options, with their defaults).

use plysolve::games::dice_race::door::{SHARED_MAX_LISTS, SHARED_MAX_PICKS};
use plysolve::games::magic_board::door::SHARED_MAX_SIZE;
use std::time::Duration;

/// Largest request body (1 MiB); larger bodies get 413.
pub const MAX_BODY: usize = 1 << 20;
/// Time one request may take, queueing included (the default of `ply serve --time-limit`).
pub const TIME_LIMIT: Duration = Duration::from_secs(10);
/// Time the player thinks per move unless a request says less (the default of `ply serve --think`).
pub const THINK: Duration = Duration::from_secs(3);
/// Memory the server's solvers may take in all (the default of `ply serve --memory`, or what the
/// system allows if less).
pub const MEMORY: u64 = 2 << 30;
/// The largest request head (request line and headers) read; larger ones get hyper's 431.
pub const MAX_HEADER_BYTES: usize = 16 << 10;
/// Time a solve that stops at its deadline is given to hand in what it proved (more than it needs
/// on a quiet machine: a busy one may give the solver a small share of a core).
pub const GRACE: Duration = Duration::from_secs(5);
/// The search memory kept for each dots board: a request's search fills its table's pages as it
/// goes (about a second of a core per GiB, once per board), so a larger one costs the first
/// request more than later ones gain.
pub const SEARCH_MEMORY: u64 = 128 << 20;
/// Most connections open at once (the default of `ply serve --max-connections`).
pub const MAX_CONNECTIONS: usize = 1024;
/// Time to send a request's headers, and the longest a kept-alive connection stays idle (the default
/// of `ply serve --header-timeout`).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest wait for the next piece of a request's body (the default of `ply serve --body-timeout`).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Bytes of request bodies in flight at once (the default of `ply serve --body-bytes`): 32 bodies
/// of the largest size, each of which may take ten times its size once parsed.
pub const BODY_BYTES: u64 = 32 << 20;
/// Bytes of one client address's request bodies in flight at once (the default of `ply serve
/// --body-bytes-per-client`): a quarter of [`BODY_BYTES`].
pub const CLIENT_BODY_BYTES: u64 = BODY_BYTES / 4;
/// The least rate of a request body, in bytes a second after [`RATE_GRACE`](crate::bodies::RATE_GRACE)
/// (the default of `ply serve --body-rate`): a modem's, far below any real link, far above a
/// trickle.
pub const BODY_RATE: u64 = 4 << 10;
/// Time for a whole request body (the default of `ply serve --body-deadline`): the largest body
/// at about 50 KiB a second.
pub const BODY_DEADLINE: Duration = Duration::from_secs(20);
/// The listen backlog asked for (the kernel caps it at `net.core.somaxconn`): room for a burst of
/// thousands of new connections while the accept loop catches up, where tokio's default (1 024)
/// drops the SYNs of a burst of 1 000 and their clients retry a second later.
pub const BACKLOG: u32 = 8192;

/// How a server is set up: what `ply serve`'s options say.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Memory the solvers may take in all: a quarter for each answer's tables (two at once), half
    /// for the search memories kept between requests.
    pub memory: u64,
    /// Time one request may take, queueing included.
    pub time_limit: Duration,
    /// Time the player thinks per move by default.
    pub think: Duration,
    /// Expensive solves run at once (cheap ones are answered where they arrive).
    pub solvers: usize,
    /// The machine's cores: expensive solves use one fewer, leaving one to cheap work.
    pub cores: usize,
    /// Most connections open at once.
    pub max_connections: usize,
    /// Time to send a request's headers (and the idle keep-alive timeout).
    pub header_timeout: Duration,
    /// Longest wait for the next piece of a request's body.
    pub body_timeout: Duration,
    /// Least rate of a request body, bytes a second.
    pub body_rate: u64,
    /// Time for a whole request body.
    pub body_deadline: Duration,
    /// Bytes of request bodies in flight at once.
    pub body_bytes: u64,
    /// Bytes of one client address's request bodies in flight at once.
    pub client_body_bytes: u64,
    /// Whether each request is logged on stderr: method, path, status, time (`ply serve --quiet`
    /// turns it off).
    pub log: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            memory: MEMORY,
            time_limit: TIME_LIMIT,
            think: THINK,
            solvers: 2,
            cores: 2,
            max_connections: MAX_CONNECTIONS,
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            body_rate: BODY_RATE,
            body_deadline: BODY_DEADLINE,
            body_bytes: BODY_BYTES,
            client_body_bytes: CLIENT_BODY_BYTES,
            log: true,
        }
    }
}

impl Settings {
    /// How request bodies are read under these settings.
    pub fn body_limits(&self) -> crate::bodies::BodyLimits {
        crate::bodies::BodyLimits {
            piece_timeout: self.body_timeout,
            rate: self.body_rate,
            deadline: self.body_deadline,
            total_bytes: self.body_bytes,
            client_bytes: self.client_body_bytes,
        }
    }

    /// How connections are kept under these settings.
    pub fn connection_limits(&self) -> crate::connections::ConnectionLimits {
        crate::connections::ConnectionLimits {
            max_connections: self.max_connections,
            header_timeout: self.header_timeout,
        }
    }
}

/// The limits as the page reads them (`GET /api/limits`), so it asks only for what the server does.
#[derive(serde::Serialize)]
pub struct Limits {
    /// [`MAX_BODY`].
    pub max_body: usize,
    /// The memory the solvers may take in all, in bytes.
    pub memory_bytes: u64,
    /// Free edges up to which every dots position is answered exactly within the time limit (by a
    /// table); most positions of a few more are proved by the search.
    pub dots_exact_free: u32,
    /// Most sums in one dice-race list ([`SHARED_MAX_PICKS`]).
    pub max_picks: usize,
    /// Most lists a `best` or `equilibrium` search goes through ([`SHARED_MAX_LISTS`]).
    pub max_lists: u128,
    /// Largest MagicBoard side the server solves or generates ([`SHARED_MAX_SIZE`]).
    pub max_magic_size: usize,
    /// The time limit of one request, in seconds.
    pub time_limit_seconds: f64,
    /// The player's time to think per move, in seconds.
    pub think_seconds: f64,
    /// The most edges any dots board has ([`MAX_EDGES`](plysolve::games::dots::geometry::MAX_EDGES)):
    /// the page refuses a longer move list before it asks.
    pub dots_max_edges: u32,
    /// Every dots board the server answers (`{"game": "triangles", "size": 3}`, `{"game":
    /// "boxes", "rows": 4, "cols": 4}`): what the page's board picker offers.
    pub dots_boards: Vec<plysolve::games::dots::geometry::Geometry>,
}

impl Limits {
    /// The limits a server with `settings` applies, answering dots with `policy`.
    pub fn of(settings: &Settings, policy: &plysolve::games::dots::policy::Policy) -> Self {
        Limits {
            max_body: MAX_BODY,
            memory_bytes: settings.memory,
            dots_exact_free: policy.exact_free(),
            max_picks: SHARED_MAX_PICKS,
            max_lists: SHARED_MAX_LISTS,
            max_magic_size: SHARED_MAX_SIZE,
            time_limit_seconds: settings.time_limit.as_secs_f64(),
            think_seconds: settings.think.as_secs_f64(),
            dots_max_edges: plysolve::games::dots::geometry::MAX_EDGES,
            dots_boards: plysolve::games::dots::geometry::Geometry::every(),
        }
    }
}
