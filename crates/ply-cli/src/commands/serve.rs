//! `ply serve`: the web page and JSON API (see the README), on 127.0.0.1 unless told otherwise.

use crate::failure::Failure;
use clap::Args;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// `ply serve [--port 8080] [--bind 127.0.0.1]`
#[derive(Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; only this machine can reach the default.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
}

/// Runs the server until Ctrl-C. The first line on stdout is the address to open.
pub fn run(args: ServeArgs) -> Result<String, Failure> {
    let addr = SocketAddr::new(args.bind, args.port);
    ply_web::serve(addr, |bound| {
        println!("ply serve: listening on http://{bound}/ (Ctrl-C to stop)");
    })
    .map_err(|e| Failure::BadInput(format!("cannot serve on {addr}: {e}")))?;
    Ok(String::new())
}
