//! `ply serve`: the web page and JSON API (see the README), on 127.0.0.1 unless told otherwise.

use crate::args::MemoryArg;
use crate::failure::Failure;
use clap::Args;
use ply_web::limits::{
    Settings, BODY_BYTES, BODY_DEADLINE, BODY_RATE, BODY_TIMEOUT, CLIENT_BODY_BYTES,
    HEADER_TIMEOUT, MAX_CONNECTIONS, MEMORY, THINK, TIME_LIMIT,
};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

/// `ply serve [--port 8080] [--bind 127.0.0.1] [--memory SIZE] [--time-limit TIME] [--think TIME]
/// [--max-connections N] [--header-timeout TIME] [--body-timeout TIME] [--body-rate SIZE]
/// [--body-deadline TIME] [--body-bytes SIZE] [--body-bytes-per-client SIZE] [--quiet]`
#[derive(Args)]
#[command(mut_arg("memory", |a| a.help(
    "Memory the solvers may use in all, e.g. 8G or 512M (default 2 GiB, or what the system allows \
     less 512 MiB if that is less)"
)))]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; only this machine can reach the default.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// The most time one request may take, queueing included (default 10s); a dots answer cut
    /// short by it says what was proved.
    #[arg(long, value_name = "TIME", value_parser = crate::input::parse_time)]
    time_limit: Option<Duration>,
    /// How long the player thinks per move unless a request says less (default 3s).
    #[arg(long, value_name = "TIME", value_parser = crate::input::parse_time)]
    think: Option<Duration>,
    /// The most connections open at once (default 1024); past it a new one takes the place of an
    /// idle one, or one still sending its body, of the client address holding the most.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: Option<u64>,
    /// The most time to send a request's headers, and to stay idle between requests (default 10s).
    #[arg(long, value_name = "TIME", value_parser = crate::input::parse_time)]
    header_timeout: Option<Duration>,
    /// The most time between two pieces of a request's body (default 10s).
    #[arg(long, value_name = "TIME", value_parser = crate::input::parse_time)]
    body_timeout: Option<Duration>,
    /// The least rate of a request body, bytes a second, e.g. 4K (default), counted from a second
    /// after it starts; a body slower than that is cut (408).
    #[arg(long, value_name = "SIZE", value_parser = parse_rate)]
    body_rate: Option<u64>,
    /// The most time for a whole request body (default 20s); past it, 408.
    #[arg(long, value_name = "TIME", value_parser = crate::input::parse_time)]
    body_deadline: Option<Duration>,
    /// The most bytes of request bodies in flight at once, e.g. 32M (default, at least 1M); past
    /// it, 503.
    #[arg(long, value_name = "SIZE", value_parser = crate::input::parse_memory)]
    body_bytes: Option<u64>,
    /// The most bytes of one client address's request bodies in flight at once (default 8M, at
    /// least 1M and at most --body-bytes); past it, 503 for that client.
    #[arg(long, value_name = "SIZE", value_parser = crate::input::parse_memory)]
    body_bytes_per_client: Option<u64>,
    /// Log no request (by default each is a line on stderr: method, path, status, time taken).
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    memory: MemoryArg,
    #[command(flatten)]
    book: crate::commands::dots::BookArg,
}

/// Reads a rate as `--body-rate` takes it: a size, bytes a second, at least one.
fn parse_rate(text: &str) -> Result<u64, String> {
    match crate::input::parse_memory(text)? {
        0 => Err("a body rate of 0 bytes a second would let a body take forever".into()),
        bytes => Ok(bytes),
    }
}

/// Runs the server until Ctrl-C. The first line on stdout is the address to open.
pub fn run(args: ServeArgs) -> Result<String, Failure> {
    let addr = SocketAddr::new(args.bind, args.port);
    // The solvers' memory: --memory, or the default if the system allows it.
    let memory = match args.memory.memory {
        Some(_) => args.memory.budget()?.bytes(),
        None => args.memory.budget()?.bytes().min(MEMORY),
    };
    // Each answer gets a quarter: under the least a search table takes, every dots question would
    // be refused — said once at the start, not on every request.
    let least = 4 * plysolve::engine::scored::search::MIN_TABLE_BYTES;
    if memory < least {
        return Err(Failure::bad(format!(
            "--memory: {memory} bytes leave the server no room to answer (each answer gets a \
             quarter); give at least {} MiB",
            least >> 20
        )));
    }
    let body_bytes = args.body_bytes.unwrap_or(BODY_BYTES);
    // The default for one client is at most the whole, when only the whole is given.
    let client_body_bytes = args
        .body_bytes_per_client
        .unwrap_or(CLIENT_BODY_BYTES.min(body_bytes));
    // Each cap holds at least one body of the largest size: a smaller one would refuse every
    // large request (refused here, not raised silently).
    let one_body = ply_web::limits::MAX_BODY as u64;
    for (option, given) in [
        ("--body-bytes", body_bytes),
        ("--body-bytes-per-client", client_body_bytes),
    ] {
        if given < one_body {
            return Err(Failure::BadInput(format!(
                "{option}: {given} B is less than one body of the largest size the server takes \
                 ({} MiB): give at least 1M",
                one_body >> 20
            )));
        }
    }
    if client_body_bytes > body_bytes {
        return Err(Failure::BadInput(format!(
            "--body-bytes-per-client: {client_body_bytes} B is more than --body-bytes allows all \
             clients ({body_bytes} B)"
        )));
    }
    let time_limit = args.time_limit.unwrap_or(TIME_LIMIT);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let settings = Settings {
        memory,
        time_limit,
        think: args.think.unwrap_or(THINK).min(time_limit),
        solvers: cores,
        cores,
        max_connections: args.max_connections.map_or(MAX_CONNECTIONS, |n| n as usize),
        header_timeout: args.header_timeout.unwrap_or(HEADER_TIMEOUT),
        body_timeout: args.body_timeout.unwrap_or(BODY_TIMEOUT),
        body_rate: args.body_rate.unwrap_or(BODY_RATE),
        body_deadline: args.body_deadline.unwrap_or(BODY_DEADLINE),
        body_bytes,
        client_body_bytes,
        log: !args.quiet,
    };
    let books = args.book.books()?;
    ply_web::serve(addr, settings, books, |bound| {
        println!("ply serve: listening on http://{bound}/ (Ctrl-C to stop)");
    })
    .map_err(|e| Failure::BadInput(format!("cannot serve on {addr}: {e}")))?;
    Ok(String::new())
}
