//! A `ply serve` on a free port of 127.0.0.1 for the tests that talk to it over HTTP.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;

/// A running `ply serve --port 0`, stopped when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Server {
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// `ply serve --port 0 --quiet` with more options (no request log: a test reads stdout only).
    pub fn start_with(options: &[&str]) -> Self {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("ply"));
        command
            .args(["serve", "--port", "0", "--quiet"])
            .args(options);
        Self::spawn(command)
    }

    /// `ply serve --port 0` with `options` and its request log: each line it writes on stderr comes
    /// out of the receiver (read by a thread of its own, so the server never waits on the pipe).
    pub fn start_logging(options: &[&str]) -> (Self, Receiver<String>) {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("ply"));
        command
            .args(["serve", "--port", "0"])
            .args(options)
            .stderr(Stdio::piped());
        let mut server = Self::spawn(command);
        let stderr = server.child.stderr.take().expect("piped stderr");
        let (lines, log) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        (server, log)
    }

    /// Runs `command` (a `ply serve`), waiting for the first line of stdout, which names the address.
    fn spawn(mut command: Command) -> Self {
        let mut child = command
            .stdout(Stdio::piped())
            .spawn()
            .expect("ply serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped stdout"))
            .read_line(&mut line)
            .expect("the first line names the address");
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://127.0.0.1:"))
            .expect("an address on 127.0.0.1")
            .trim_end_matches('/')
            .to_string();
        Server { child, base }
    }

    /// POSTs `body`; returns the status and the body text.
    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        let (status, text, _) = self.post_timed(path, body);
        (status, text)
    }

    /// POSTs `body`; returns the status, the body text and the `Server-Timing` header.
    pub fn post_timed(&self, path: &str, body: &str) -> (u16, String, String) {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut response = agent
            .post(&format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .send(body)
            .expect("the server answers");
        let status = response.status().as_u16();
        let timing = response
            .headers()
            .get("server-timing")
            .map(|v| v.to_str().expect("an ASCII header").to_string())
            .unwrap_or_default();
        (
            status,
            response.body_mut().read_to_string().expect("a text body"),
            timing,
        )
    }
}

impl Server {
    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.base
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("a port")
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
