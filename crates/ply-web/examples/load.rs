//! Load benchmark of `ply serve` on loopback: the server runs in this process on a free port of
//! 127.0.0.1 (its connection layer and application, as `ply serve` runs them), and 1 000 requests
//! mixed across the games (dots, solitaire, heaps, dice race, MagicBoard, the perfect player) are
//! sent all at once, first on a fresh server (cold: the shared dots tables are built by the first
//! requests that need them), then again (warm: most answers come from the server's answer cache),
//! then again with every body made new by trailing white space (warm tables, but no answer kept:
//! every request is solved), then again with new bodies while two expensive solves (the empty 4×5
//! board, 5 s each) run; the same requests one at a time are the baseline; last, bursts of the
//! same requests (answers kept) each on a new connection of its own with `Connection: close`, to
//! the server on its listener (`connections::listen`) and to the same server on tokio's listener
//! (its backlog of 1 024, as before issue 34), in turn. Every answer must be
//! 200; latencies are p50 / p99 / max, and each phase shows the CPU time the process spent outside
//! the runtime's threads (the solvers, and this benchmark's main thread: a few milliseconds).
//!
//! Run: `nice -n 19 cargo run --release -p ply-web --example load [REQUESTS] [bursts]` (figures in
//! BENCHMARKS.md; `bursts`: only the bursts of new connections). Bounded and self-stopping: a fixed number of requests, each phase given at most
//! two minutes; exit 1 on any error or when a phase runs out of time. A benchmark, not a test.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Time one phase may take before the benchmark gives up.
const PHASE_LIMIT: Duration = Duration::from_secs(120);

/// Kinds of request in the mix.
const KINDS: usize = 14;

type HttpClient = Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

/// The mix: request `i` is `mix(i)`, so every phase sends the same requests.
fn mix(i: usize, magic_board: &str) -> (&'static str, String) {
    let seed = i % 97;
    match i % KINDS {
        0 => ("/api/dots", r#"{"game":"triangles","size":3,"moves":""}"#.into()),
        1 => (
            "/api/dots",
            r#"{"game":"triangles","moves":"2-3 4-5 5-6 7-8 8-9 9-10"}"#.into(),
        ),
        2 => (
            "/api/dots",
            r#"{"game":"boxes","rows":2,"cols":2,"moves":"1-2"}"#.into(),
        ),
        3 => (
            "/api/dots",
            r#"{"game":"boxes","rows":3,"cols":3,"moves":"1-2 5-6 9-10 13-14"}"#.into(),
        ),
        4 => (
            "/api/play/dots",
            format!(r#"{{"game":"triangles","moves":"1-2","seed":{seed}}}"#),
        ),
        5 => (
            "/api/solitaire",
            r#"{"squares":[1,-2,0,9,-1,-2],"die":6,"expected":true,"distribution":true,"explain":true}"#
                .into(),
        ),
        6 => (
            "/api/solitaire",
            format!(
                r#"{{"squares":[{}],"die":6,"expected":true,"distribution":true}}"#,
                (0..20)
                    .map(|k| ((k * 37 + i) % 21) as i64 - 10)
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        ),
        7 => ("/api/heaps", r#"{"heaps":[3,4,5],"grundy":true}"#.into()),
        8 => (
            "/api/play/heaps",
            format!(r#"{{"heaps":[3,4,5],"seed":{seed}}}"#),
        ),
        9 => (
            "/api/dice-race/compare",
            r#"{"first":[5,6,7,8,9],"second":[5,6,7,8,7]}"#.into(),
        ),
        10 => ("/api/dice-race/sums", r#"{"dice":3,"sides":6}"#.into()),
        11 => ("/api/dice-race/best", r#"{"picks":2}"#.into()),
        12 => (
            "/api/magic-board/generate",
            format!(r#"{{"size":8,"seed":{seed}}}"#),
        ),
        _ => (
            "/api/magic-board",
            serde_json::json!({ "board": magic_board }).to_string(),
        ),
    }
}

/// Sends one request; its latency (to the whole body read), or what went wrong.
async fn send(
    client: &HttpClient,
    base: &str,
    path: &str,
    body: String,
) -> Result<Duration, String> {
    let request = Request::builder()
        .method(Method::POST)
        .uri(format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let response = client
        .request(request)
        .await
        .map_err(|e| format!("{path}: {e}"))?;
    let status = response.status();
    let answer = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("{path}: {e}"))?
        .to_bytes();
    let took = started.elapsed();
    if status != 200 {
        return Err(format!(
            "{path}: {status} {}",
            String::from_utf8_lossy(&answer)
        ));
    }
    Ok(took)
}

/// Sends `body` to `path` on a new connection of its own, asking the server to close it after the
/// answer (`Connection: close`); its latency from the start of the connect to the end of the
/// answer, or what went wrong.
async fn send_fresh(addr: SocketAddr, path: &str, body: String) -> Result<Duration, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let started = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("{path}: connect: {e}"))?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("{path}: write: {e}"))?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .await
        .map_err(|e| format!("{path}: read: {e}"))?;
    let took = started.elapsed();
    if !answer.starts_with(b"HTTP/1.1 200 ") {
        let shown: String = String::from_utf8_lossy(&answer).chars().take(200).collect();
        return Err(format!("{path}: {shown}"));
    }
    Ok(took)
}

/// `count` requests of the mix (answers kept), all at once, each on a new connection of its own
/// with `Connection: close`, to the server at `addr`.
async fn burst(name: &'static str, addr: SocketAddr, count: usize, board: &str) -> Phase {
    let started = Instant::now();
    let cpu = cpu_times();
    let mut phase = Phase::new(name, count);
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..count {
        let (path, body) = mix(i, board);
        tasks.spawn(async move { send_fresh(addr, path, body).await.map(|d| (i % KINDS, d)) });
    }
    while let Some(done) = tasks.join_next().await {
        match done.unwrap_or_else(|e| Err(e.to_string())) {
            Ok(latency) => phase.latencies.push(latency),
            Err(e) => phase.errors.push(e),
        }
    }
    phase.wall = started.elapsed();
    let (all, runtime) = cpu_times();
    phase.solvers = (all - cpu.0).saturating_sub(runtime - cpu.1);
    phase
}

/// A server as `ply serve` runs it, in this process on `listener`; its address and its task.
fn start_server(
    listener: tokio::net::TcpListener,
    settings: ply_web::limits::Settings,
) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let bound = listener.local_addr().expect("bound");
    let app = ply_web::app(ply_web::AppState::new(settings), bound);
    let server = tokio::spawn(ply_web::connections::serve(
        listener,
        app,
        settings.connection_limits(),
        std::future::pending(),
    ));
    (bound, server)
}

/// Bursts of `count` new connections (answers kept) to the server at `before` (tokio's listener)
/// and the same server at `after` (`connections::listen`), in turn, twice each, after one burst to
/// each that fills its answers.
async fn bursts(before: SocketAddr, after: SocketAddr, count: usize, board: &str) -> Vec<Phase> {
    for addr in [before, after] {
        let _ = bounded(burst("(warming)", addr, count, board)).await;
    }
    let mut bursts = Vec::new();
    for _ in 0..2 {
        bursts.push(
            bounded(burst(
                "burst of new connections, tokio's listener (before)",
                before,
                count,
                board,
            ))
            .await,
        );
        bursts.push(
            bounded(burst(
                "burst of new connections, `connections::listen` (after)",
                after,
                count,
                board,
            ))
            .await,
        );
    }
    bursts
}

/// Both bursts of each listener joined: p50 and p99 before and after, and their ratio.
fn burst_summary(bursts: &[Phase], count: usize) -> String {
    let joined = |which: &str| {
        let mut joined = Phase::new("joined", 2 * count);
        for phase in bursts.iter().filter(|p| p.name.contains(which)) {
            joined.latencies.extend(&phase.latencies);
        }
        joined
    };
    let (before, after) = (joined("before"), joined("after"));
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "Bursts of {count} new connections (both bursts of each): before p50 {:.1} ms, p99 {:.1} ms; after p50 {:.1} ms, p99 {:.1} ms; p99 after/before {:.2}x",
        ms(before.quantile(0.5)),
        ms(before.quantile(0.99)),
        ms(after.quantile(0.5)),
        ms(after.quantile(0.99)),
        after.quantile(0.99).as_secs_f64() / before.quantile(0.99).as_secs_f64(),
    )
}

/// What one phase measured.
struct Phase {
    name: &'static str,
    /// Each answered request's kind (`i % KINDS`) and latency.
    latencies: Vec<(usize, Duration)>,
    errors: Vec<String>,
    wall: Duration,
    /// CPU time the process spent outside the runtime's threads (the solvers) during the phase.
    solvers: Duration,
}

/// CPU time this process has used so far: in all, and on the tokio runtime's threads (Linux's
/// counters: getrusage, and /proc/self/task/*/schedstat for each thread named `tokio-…`; the
/// runtime's threads live as long as the process, where the solvers' search threads come and go).
fn cpu_times() -> (Duration, Duration) {
    // SAFETY: getrusage fills the struct it is given.
    let all = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        let time = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
        };
        time(usage.ru_utime) + time(usage.ru_stime)
    };
    let runtime = std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|task| {
            let name = std::fs::read_to_string(task.path().join("comm")).ok()?;
            if !name.starts_with("tokio") {
                return None;
            }
            let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            stat.split_whitespace().next()?.parse().ok()
        })
        .map(Duration::from_nanos)
        .sum();
    (all, runtime)
}

impl Phase {
    /// A phase of `count` requests, none answered yet.
    fn new(name: &'static str, count: usize) -> Self {
        Phase {
            name,
            latencies: Vec::with_capacity(count),
            errors: Vec::new(),
            wall: Duration::ZERO,
            solvers: Duration::ZERO,
        }
    }

    /// The `q` quantile (nearest rank) of the latencies of the requests `keep` accepts by kind.
    fn quantile_of(&self, q: f64, keep: impl Fn(usize) -> bool) -> Duration {
        let mut sorted: Vec<Duration> = self
            .latencies
            .iter()
            .filter(|(kind, _)| keep(*kind))
            .map(|&(_, d)| d)
            .collect();
        sorted.sort();
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    fn quantile(&self, q: f64) -> Duration {
        self.quantile_of(q, |_| true)
    }

    fn line(&self) -> String {
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
        let count = self.latencies.len() + self.errors.len();
        format!(
            "| {} | {count} | {} | {} | {} | {} | {} | {:.0} | {} |",
            self.name,
            self.errors.len(),
            ms(self.wall),
            ms(self.quantile(0.5)),
            ms(self.quantile(0.99)),
            ms(self.quantile(1.0)),
            count as f64 / self.wall.as_secs_f64(),
            ms(self.solvers)
        )
    }
}

/// `count` requests of the mix, all at once (`at_once`) or one after another.
async fn run(
    name: &'static str,
    client: &HttpClient,
    base: &str,
    count: usize,
    board: &str,
    at_once: bool,
    new_bodies: Option<char>,
) -> Phase {
    let started = Instant::now();
    let cpu = cpu_times();
    let mut phase = Phase::new(name, count);
    // Trailing white space changes the body, not its meaning: `new_bodies` = Some(c) gives request
    // `i` i + 1 characters `c`, a character of this phase's own (a space, a tab, a line feed), so
    // that no answer sent before can be reused and every phase's bodies have the same lengths.
    let request = |i| {
        let (path, mut body) = mix(i, board);
        if let Some(c) = new_bodies {
            body.extend(std::iter::repeat_n(c, i + 1));
        }
        (path, body)
    };
    let mut record = |answer: Result<(usize, Duration), String>| match answer {
        Ok(latency) => phase.latencies.push(latency),
        Err(e) => phase.errors.push(e),
    };
    if at_once {
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..count {
            let (path, body) = request(i);
            let (client, base) = (client.clone(), base.to_string());
            tasks.spawn(async move {
                send(&client, &base, path, body)
                    .await
                    .map(|d| (i % KINDS, d))
            });
        }
        while let Some(done) = tasks.join_next().await {
            record(done.unwrap_or_else(|e| Err(e.to_string())));
        }
    } else {
        for i in 0..count {
            let (path, body) = request(i);
            record(send(client, base, path, body).await.map(|d| (i % KINDS, d)));
        }
    }
    phase.wall = started.elapsed();
    let (all, runtime) = cpu_times();
    phase.solvers = (all - cpu.0).saturating_sub(runtime - cpu.1);
    phase
}

async fn bounded(phase: impl std::future::Future<Output = Phase>) -> Phase {
    match tokio::time::timeout(PHASE_LIMIT, phase).await {
        Ok(p) => p,
        Err(_) => {
            eprintln!(
                "load: a phase took over {} s; stopping",
                PHASE_LIMIT.as_secs()
            );
            std::process::exit(1);
        }
    }
}

#[tokio::main]
async fn main() {
    let count: usize = match std::env::args().nth(1) {
        None => 1000,
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("load: the argument is the number of requests, not `{text}`");
            std::process::exit(2)
        }),
    };
    let bursts_only = match std::env::args().nth(2).as_deref() {
        None => false,
        Some("bursts") => true,
        Some(other) => {
            eprintln!("load: the second argument is `bursts` (only the bursts of new connections), not `{other}`");
            std::process::exit(2)
        }
    };
    let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
    let solvers = std::thread::available_parallelism().map_or(2, |n| n.get());
    // Room for the client's connections: its 1 000 requests at once come on as many connections,
    // plus those its pool opens beside them, past the default cap (1 024). There the server closes
    // a connection that is not answering for each new one, and the client sometimes sends on one
    // being closed: a failure of this client (its pool), not a latency of the server.
    let settings = ply_web::limits::Settings {
        solvers,
        cores: solvers,
        max_connections: 4 * count.max(ply_web::limits::MAX_CONNECTIONS),
        // No subscriber listens in this process: the log would be work for nothing.
        log: false,
        ..ply_web::limits::Settings::default()
    };
    // Served as `ply serve` serves: its listener (connections::listen: a deep backlog) and its
    // connection layer.
    let (bound, server) = start_server(
        ply_web::connections::listen(loopback).expect("a free port on 127.0.0.1"),
        settings,
    );
    let base = format!("http://{bound}");
    // The same server on tokio's own listener (a backlog of 1 024), as `ply serve` was before
    // issue 34: the burst's "before".
    let (before, before_server) = start_server(
        tokio::net::TcpListener::bind(loopback)
            .await
            .expect("a free port on 127.0.0.1"),
        settings,
    );
    let client: HttpClient = Client::builder(TokioExecutor::new()).build_http();
    // A board for the MagicBoard requests, from the server itself (this is not a timed request).
    let generated = client
        .request(
            Request::post(format!("{base}/api/magic-board/generate"))
                .header("content-type", "application/json")
                .body(Full::new(Bytes::from(r#"{"size":8,"seed":1}"#)))
                .expect("a request"),
        )
        .await
        .expect("the server answers")
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    let generated: serde_json::Value = serde_json::from_slice(&generated).expect("JSON");
    let board = generated["text"]
        .as_str()
        .expect("the board's text")
        .to_string();

    if bursts_only {
        let bursts = bursts(before, bound, count, &board).await;
        println!(
            "| phase | requests | errors | wall | p50 | p99 | max | requests/s | solvers' CPU |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        for phase in &bursts {
            println!("{}", phase.line());
        }
        println!("\n{}", burst_summary(&bursts, count));
        exit_on_errors(&bursts.iter().collect::<Vec<_>>());
        return;
    }
    let phase = |name, at_once, new_bodies| {
        bounded(run(
            name, &client, &base, count, &board, at_once, new_bodies,
        ))
    };
    let cold = phase("cold tables, all at once", true, None).await;
    let warm = phase("warm tables, all at once (answers kept)", true, None).await;
    let fresh = phase(
        "warm tables, all at once, every body new (all solved)",
        true,
        Some(' '),
    )
    .await;
    // Two expensive solves (the empty 4×5 board, each asked for every move's value for 5 s) run
    // while the cheap mix is sent again with new bodies.
    let expensive: Vec<_> = (0..2)
        .map(|k| {
            let (client, base) = (client.clone(), base.clone());
            let body = format!(r#"{{"game":"boxes","rows":4,"cols":5,"detail":"moves","time":5,"tie_order":"{}"}}"#, ["low-first", "high-first"][k]);
            tokio::spawn(async move { send(&client, &base, "/api/dots", body).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let beside = phase(
        "warm tables, all at once, every body new, two expensive solves running",
        true,
        Some('\t'),
    )
    .await;
    let mut beside = beside;
    for solve in expensive {
        match solve.await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => beside.errors.push(format!("an expensive solve: {e}")),
            Err(e) => beside.errors.push(format!("an expensive solve: {e}")),
        }
    }
    let one_by_one = phase(
        "warm tables, one at a time, every body new (baseline)",
        false,
        Some('\n'),
    )
    .await;
    let bursts = bursts(before, bound, count, &board).await;
    server.abort();
    before_server.abort();

    println!(
        "{count} requests to http://127.0.0.1 (in-process server, {solvers} solvers), mixed over {KINDS} kinds:\n"
    );
    println!("| phase | requests | errors | wall | p50 | p99 | max | requests/s | solvers' CPU |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut phases = vec![&cold, &warm, &fresh, &beside, &one_by_one];
    phases.extend(&bursts);
    for phase in &phases {
        println!("{}", phase.line());
    }
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let p99 = |p: &Phase| p.quantile(0.99);
    println!(
        "\np99 against warm with answers kept: cold {:.1}x, every body new {:.1}x; every body new, all at once vs one at a time: throughput {:.2}x; every body new beside two expensive solves against without: p99 {:.2}x",
        ratio(p99(&cold), p99(&warm)),
        ratio(p99(&fresh), p99(&warm)),
        ratio(one_by_one.wall, fresh.wall),
        ratio(p99(&beside), p99(&fresh)),
    );
    println!("\n{}", burst_summary(&bursts, count));
    println!("\nThe baseline by kind of request:\n\n| request | p50 | max |\n|---|---|---|");
    for kind in 0..KINDS {
        let (path, body) = mix(kind, "…");
        let shown: String = body.chars().take(60).collect();
        let ms = |q| one_by_one.quantile_of(q, |k| k == kind).as_secs_f64() * 1000.0;
        println!(
            "| `{path}` `{shown}` | {:.2} ms | {:.2} ms |",
            ms(0.5),
            ms(1.0)
        );
    }
    exit_on_errors(&phases);
}

/// Exits 1, naming one, if any request of `phases` failed.
fn exit_on_errors(phases: &[&Phase]) {
    let errors: Vec<&String> = phases.iter().flat_map(|p| &p.errors).collect();
    if !errors.is_empty() {
        eprintln!("load: {} requests failed, e.g. {}", errors.len(), errors[0]);
        std::process::exit(1);
    }
}
