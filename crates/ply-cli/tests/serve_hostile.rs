//! `ply serve` under hostile and careless use, with short limits set by its options so that each
//! probe runs in seconds: idle and half-sent connections, bodies that never come, many bodies at
//! once, other pages, wrong methods, and a client that leaves while its solve runs. Every refusal is
//! `{"error": …}`; RELIABILITY.md has the table of these probes.

use crate::common;

use common::server::Server;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A raw request (`head` without its blank line, then `body`) on a new connection, asking the
/// server to close it after its answer (`Connection: close`, so that reading to its end does not
/// wait for the idle timeout); what comes back before the server closes it or `wait` passes.
fn raw(server: &Server, head: &str, body: &[u8], wait: Duration) -> String {
    raw_bytes(server, head.as_bytes(), body, wait)
}

/// [`raw`] with a head of any bytes.
fn raw_bytes(server: &Server, head: &[u8], body: &[u8], wait: Duration) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port())).expect("connects");
    stream.set_read_timeout(Some(wait)).unwrap();
    let _ = stream.write_all(&[head, b"\r\nConnection: close\r\n\r\n"].concat());
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// `GET path` on a new connection; what comes back.
fn get(server: &Server, path: &str) -> String {
    let head = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}", server.port());
    raw(server, &head, b"", Duration::from_secs(30))
}

/// A POST head for `path` with a JSON body of `length` bytes.
fn post_head(server: &Server, path: &str, length: usize) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {length}",
        server.port()
    )
}

#[test]
fn idle_and_half_sent_connections_are_closed_and_make_room() {
    let server = Server::start_with(&["--header-timeout", "1s", "--max-connections", "20"]);
    // Headers never finished: closed after the header timeout, unanswered.
    let started = Instant::now();
    let head = format!(
        "POST /api/heaps HTTP/1.1\r\nHost: 127.0.0.1:{}",
        server.port()
    );
    let mut half = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    half.write_all(head.as_bytes()).unwrap();
    half.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut rest = Vec::new();
    let _ = half.read_to_end(&mut rest);
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(20),
        "{waited:?}"
    );
    // Far more idle connections than the cap: a real request still gets its answer.
    let idle: Vec<TcpStream> = (0..100)
        .map(|_| TcpStream::connect(("127.0.0.1", server.port())).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(server.post("/api/heaps", r#"{"heaps":[2,3]}"#).0, 200);
    drop(idle);
}

#[test]
fn a_body_that_never_comes_and_too_many_bodies_at_once() {
    let server = Server::start_with(&["--body-timeout", "1s", "--body-bytes", "2M"]);
    // Declares a kilobyte, sends two bytes: 408 after the body timeout.
    let answer = raw(
        &server,
        &post_head(&server, "/api/heaps", 1000),
        b"{}",
        Duration::from_secs(30),
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":"the request body stopped coming: nothing for 1 s"}"#),
        "{answer}"
    );
    // A body declared over 1 MiB (a petabyte): 413 at once, before a byte of it is read.
    let answer = raw(
        &server,
        &post_head(&server, "/api/heaps", 1_000_000_000_000_000),
        b"",
        Duration::from_secs(30),
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer
            .ends_with(r#"{"error":"the request body is over 1048576 bytes, the server's limit"}"#),
        "{answer}"
    );
    // Bodies in flight past the cap (2 MiB here): the ones that find no room get 503 with a
    // Retry-After, and every one is answered.
    let body = format!("{{\"squares\":[{}0],\"die\":6}}", "1,".repeat(400_000));
    let statuses: Vec<String> = std::thread::scope(|scope| {
        let requests: Vec<_> = (0..12)
            .map(|i| {
                let (server, body) = (&server, &body);
                scope.spawn(move || {
                    let padded = format!("{body}{}", " ".repeat(i));
                    let answer = raw(
                        server,
                        &post_head(server, "/api/solitaire", padded.len()),
                        padded.as_bytes(),
                        Duration::from_secs(60),
                    );
                    answer.lines().next().unwrap_or("").to_string()
                })
            })
            .collect();
        requests.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert!(
        statuses
            .iter()
            .all(|s| s == "HTTP/1.1 200 OK" || s == "HTTP/1.1 503 Service Unavailable"),
        "{statuses:?}"
    );
    assert!(statuses.iter().any(|s| s.contains("200")), "{statuses:?}");
    let busy = statuses.iter().filter(|s| s.contains("503")).count();
    assert!(busy > 0, "{statuses:?}");
}

#[test]
fn only_json_from_the_servers_own_page() {
    let server = Server::start();
    let port = server.port();
    let body = r#"{"heaps":[2,3]}"#;
    let ask = |extra: &str, content_type: &str| {
        let head = format!(
            "POST /api/heaps HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {content_type}\r\nContent-Length: {}{extra}",
            body.len()
        );
        raw(&server, &head, body.as_bytes(), Duration::from_secs(30))
    };
    let json = "application/json";
    assert!(ask("", json).starts_with("HTTP/1.1 200"));
    let own = ask(&format!("\r\nOrigin: http://127.0.0.1:{port}"), json);
    assert!(own.starts_with("HTTP/1.1 200"), "{own}");
    // A "simple" cross-site form post: no JSON type.
    let form = ask("", "text/plain");
    assert!(form.starts_with("HTTP/1.1 415"), "{form}");
    assert!(form.ends_with(
        r#"{"error":"the body must be JSON, sent with Content-Type: application/json"}"#
    ));
    let other = ask("\r\nOrigin: http://evil.example", json);
    assert!(other.starts_with("HTTP/1.1 403"), "{other}");
    assert!(other.ends_with(r#"{"error":"requests from the page at `http://evil.example` are refused: only this server's own page may ask"}"#));
    // DNS rebinding: another name for this address.
    let head = format!("POST /api/heaps HTTP/1.1\r\nHost: evil.example:{port}\r\nContent-Type: {json}\r\nContent-Length: {}", body.len());
    let rebound = raw(&server, &head, body.as_bytes(), Duration::from_secs(30));
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
    // The same in absolute form: the URI's host is the one HTTP goes by, whatever Host says.
    let head = format!("POST http://evil.example:{port}/api/heaps HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {json}\r\nContent-Length: {}", body.len());
    let absolute = raw(&server, &head, body.as_bytes(), Duration::from_secs(30));
    assert!(absolute.starts_with("HTTP/1.1 403"), "{absolute}");
    assert!(absolute.ends_with(&format!(
        r#"{{"error":"the request names the host `evil.example:{port}`, not this server"}}"#
    )));
    let head = format!("POST http://127.0.0.1:{port}/api/heaps HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {json}\r\nContent-Length: {}", body.len());
    let own_absolute = raw(&server, &head, body.as_bytes(), Duration::from_secs(30));
    assert!(own_absolute.starts_with("HTTP/1.1 200"), "{own_absolute}");
    // JSON in another charset than UTF-8 would be misread: 415.
    let utf16 = ask("", "application/json; charset=utf-16");
    assert!(utf16.starts_with("HTTP/1.1 415"), "{utf16}");
    assert!(utf16.ends_with(
        r#"{"error":"the body is sent in charset `utf-16`: this server reads JSON in UTF-8 only"}"#
    ));
    // The wrong method: 405 with a JSON body.
    let get = raw(
        &server,
        &format!("GET /api/heaps HTTP/1.1\r\nHost: 127.0.0.1:{port}"),
        b"",
        Duration::from_secs(30),
    );
    assert!(get.starts_with("HTTP/1.1 405"), "{get}");
    assert!(
        get.contains(r#"{"error":"this path answers another method"#),
        "{get}"
    );
    // Numbers quoted as written.
    let (status, text) = server.post("/api/dots", r#"{"game":"boxes","rows":1e3}"#);
    assert_eq!(status, 400);
    assert_eq!(text, r#"{"error":"\"rows\": 1e3 is not a whole number"}"#);
}

/// Posts each of `bodies` to `path` on a raw socket of its own, and closes them all half a second
/// later without reading an answer: clients that left while their solves ran.
fn sent_then_left(server: &Server, path: &str, bodies: &[impl AsRef<str>]) {
    let streams: Vec<TcpStream> = bodies
        .iter()
        .map(|body| {
            let body = body.as_ref();
            let mut s = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
            let head = post_head(server, path, body.len());
            s.write_all(format!("{head}\r\n\r\n{body}").as_bytes())
                .unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    drop(streams);
}

/// Two long solves of 4×5 boxes on `path` (`extra` keys added), their clients gone after half a
/// second; then a third long question: the solver permits come free, so it is answered in its own
/// time (a second of search), not after theirs. The server's limit is 60 s: held permits would make
/// the third wait about that long, and half of it leaves room for a machine under heavy load.
fn long_solves_left_stop(server: &Server, path: &str, extra: &str) {
    let bodies = ["low-first", "high-first"].map(|order| {
        format!(r#"{{"game":"boxes","rows":4,"cols":5,{extra}"tie_order":"{order}"}}"#)
    });
    sent_then_left(server, path, &bodies);
    let started = Instant::now();
    let (status, text) = server.post(
        "/api/dots",
        r#"{"game":"boxes","rows":4,"cols":5,"detail":"value","time":1}"#,
    );
    assert_eq!(status, 200, "{text}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_solve_whose_client_left_stops_and_a_finished_one_is_kept() {
    let server = Server::start_with(&["--time-limit", "60s"]);
    long_solves_left_stop(&server, "/api/dots", r#""detail":"moves","#);
    // A solve that finishes is kept: asked again, the same answer comes from the cache.
    let body = r#"{"game":"boxes","rows":3,"cols":3,"moves":"1-2"}"#;
    let first = server.post_timed("/api/dots", body);
    let again = server.post_timed("/api/dots", body);
    assert_eq!((first.0, &first.1), (again.0, &again.1));
    assert!(again.2.ends_with("cache;desc=hit"), "{}", again.2);
}

/// An analysis streamed to a client that leaves stops as a plain answer does: its permit comes
/// free, so the next long question is answered in its own time.
#[test]
fn an_analysis_whose_client_left_stops() {
    let server = Server::start_with(&["--time-limit", "60s"]);
    long_solves_left_stop(&server, "/api/dots/analyse", "");
}

/// The dice race's exact solves obey the same cancellation as dots: two long races whose clients
/// leave stop and free their permits, so a third race needing a permit is answered at once, not
/// after theirs.
#[test]
fn a_dice_race_whose_client_left_stops_and_frees_its_permit() {
    let server = Server::start_with(&["--time-limit", "60s"]);
    // Sums 5..=`last` of 3d6, each twice on both sides, then `more`.
    let race = |last: u32, more: &str| {
        let list: Vec<String> = (5..=last)
            .flat_map(|s| [s, s])
            .map(|s| s.to_string())
            .chain((!more.is_empty()).then(|| more.to_string()))
            .collect();
        let list = list.join(",");
        format!(r#"{{"first":[{list}],"second":[{list}],"dice":3}}"#)
    };
    // 5..=13 and a 14: about 5 s in a release build, 13 s in this one (costed at about 36 s, under
    // the server's limit), and far longer on a loaded machine, which the third race would wait for
    // if the two went on.
    let long = race(13, "14");
    sent_then_left(&server, "/api/dice-race/compare", &[&long, &long]);
    // 5..=10: a few hundredths of a second, but over the cheap lane's estimate: it needs a permit.
    let started = Instant::now();
    let (status, text) = server.post("/api/dice-race/compare", &race(10, ""));
    assert_eq!(status, 200, "{text}");
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
}

/// Requests hyper cannot read, answered by hyper itself before any of ply's code runs: the same
/// status, with a JSON body saying what was wrong (`http_errors.rs`).
#[test]
fn requests_hyper_cannot_read_are_answered_in_json() {
    let server = Server::start();
    let host = format!("Host: 127.0.0.1:{}", server.port());
    let malformed = r#"{"error":"the request line or a header is not valid HTTP/1.1"}"#;
    let too_large =
        r#"{"error":"the request line and headers are over 16384 bytes, the server's limit"}"#;
    let cases = [
        // A garbage request line.
        (
            "\u{1}\u{2} this is not HTTP".to_string(),
            "400 Bad Request",
            malformed,
        ),
        // A version that is not HTTP/1.x.
        (
            format!("GET / HTTP/9.9\r\n{host}"),
            "400 Bad Request",
            malformed,
        ),
        // A header that is not one.
        (
            format!("POST /api/heaps HTTP/1.1\r\n{host}\r\nContent-Length: ten"),
            "400 Bad Request",
            malformed,
        ),
        // A 100 kB URI: over the 16 KiB buffer before hyper's own 64 KiB limit on URIs.
        (
            format!("GET /{} HTTP/1.1\r\n{host}", "a".repeat(100_000)),
            "431 Request Header Fields Too Large",
            too_large,
        ),
        // 20 kB of headers.
        (
            format!(
                "GET / HTTP/1.1\r\n{host}\r\nX-Padding: {}",
                "a".repeat(20_000)
            ),
            "431 Request Header Fields Too Large",
            too_large,
        ),
    ];
    for (head, status, body) in cases {
        let answer = raw(&server, &head, b"", Duration::from_secs(30));
        let shown: String = head.chars().take(40).collect();
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}\r\n")),
            "{shown:?}: {answer}"
        );
        assert!(
            answer.contains("\r\ncontent-type: application/json\r\n"),
            "{shown:?}: {answer}"
        );
        assert!(
            answer.contains(&format!("\r\ncontent-length: {}\r\n", body.len())),
            "{shown:?}: {answer}"
        );
        assert!(
            answer.ends_with(&format!("\r\n\r\n{body}")),
            "{shown:?}: {answer}"
        );
    }
    // Garbage after a good request on the same connection: the good one's answer, then the JSON
    // error.
    let good = format!("GET /api/limits HTTP/1.1\r\n{host}\r\n\r\n");
    let answer = raw(
        &server,
        &format!("{good}GET / HTTP/9.9\r\n{host}"),
        b"",
        Duration::from_secs(30),
    );
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    let second = answer.find("HTTP/1.1 400 Bad Request\r\n").expect(&answer);
    assert!(answer[..second].ends_with('}'), "{answer}");
    assert!(
        answer.ends_with(&format!("\r\n\r\n{malformed}")),
        "{answer}"
    );
}

/// A client that declares a 1 MiB body, sends its head and then one byte every `every`, reading
/// between bytes; what the server answers (or nothing, if it closed first), within 30 bytes sent.
fn trickle(server: &Server, every: Duration) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port())).expect("connects");
    stream.set_read_timeout(Some(every)).unwrap();
    let head = post_head(server, "/api/heaps", 1 << 20);
    let _ = stream.write_all(format!("{head}\r\n\r\n").as_bytes());
    let mut answer = Vec::new();
    for _ in 0..30 {
        if stream.write_all(b" ").is_err() {
            break;
        }
        let mut piece = [0u8; 4096];
        match stream.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => {
                answer.extend_from_slice(&piece[..n]);
                if answer.ends_with(b"}") {
                    break;
                }
            }
            Err(_) => {} // nothing yet: the next byte
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

/// Finding 1 of issue 34: 32 clients that declare a 1 MiB body and trickle it a byte at a time
/// hold neither the bytes in flight (they hold what they sent) nor their connections for long (the
/// least rate cuts them, 408): the page, the limits and a small POST are answered meanwhile.
#[test]
fn trickled_bodies_hold_neither_the_bytes_nor_the_server() {
    let server = Server::start_with(&["--body-rate", "1K", "--body-bytes", "2M"]);
    let answers: Vec<String> = std::thread::scope(|scope| {
        let slow: Vec<_> = (0..32)
            .map(|_| scope.spawn(|| trickle(&server, Duration::from_millis(300))))
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        // While they trickle (within the rate's first second): every normal request answered.
        assert!(get(&server, "/api/limits").starts_with("HTTP/1.1 200"));
        assert!(get(&server, "/").starts_with("HTTP/1.1 200"));
        assert_eq!(server.post("/api/heaps", r#"{"heaps":[2,3]}"#).0, 200);
        slow.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let cut =
        r#"{"error":"the request body came slower than 1024 bytes a second, the server's least"}"#;
    for answer in answers {
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.ends_with(cut), "{answer}");
    }
}

/// Finding 1 of issue 34: more trickling connections than the cap (here 100 over a cap of 64, the
/// rate low enough that none is cut meanwhile) leave room: a new connection takes the place of one
/// still receiving its body, so the page, the limits and a small POST are answered.
#[test]
fn trickling_connections_past_the_cap_make_room() {
    let server = Server::start_with(&[
        "--max-connections",
        "64",
        "--body-rate",
        "1",
        "--body-deadline",
        "60s",
    ]);
    let head = post_head(&server, "/api/heaps", 1 << 20);
    let slow: Vec<TcpStream> = (0..100)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
            stream
                .write_all(format!("{head}\r\n\r\n ").as_bytes())
                .unwrap();
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    assert!(get(&server, "/").starts_with("HTTP/1.1 200"));
    assert!(get(&server, "/api/limits").starts_with("HTTP/1.1 200"));
    assert_eq!(server.post("/api/heaps", r#"{"heaps":[2,3]}"#).0, 200);
    drop(slow);
}

/// Finding 1 of issue 34: a body that keeps above the least rate but takes longer than the deadline
/// for the whole body is cut (408), however steadily its pieces come.
#[test]
fn a_body_past_its_deadline_is_cut_however_steady() {
    let server = Server::start_with(&["--body-deadline", "1s", "--body-rate", "16"]);
    let mut stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let head = post_head(&server, "/api/heaps", 100_000);
    stream
        .write_all(format!("{head}\r\n\r\n").as_bytes())
        .unwrap();
    let mut answer = Vec::new();
    // 40 bytes every 100 ms (400 bytes a second, far above 16), for at most 10 s.
    for _ in 0..100 {
        if stream.write_all(&[b' '; 40]).is_err() {
            break;
        }
        let mut piece = [0u8; 4096];
        match stream.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&piece[..n]),
            Err(_) => {}
        }
        if answer.ends_with(b"}") {
            break;
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":"the request body took over 1 s, the server's limit"}"#),
        "{answer}"
    );
}

/// Sends `request` whole, then shuts down the write half (as `nc -N` does); everything the server
/// writes back until it closes.
fn half_closed(server: &Server, request: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    stream.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// Finding 4 of issue 34: a client that sends its request and then closes its write half gets its
/// answer: the page, a cheap API POST, and a solve slower than a probe (its answer comes after the
/// server's interim `100 Continue`s, which the client reads past).
#[test]
fn half_closed_clients_are_answered() {
    let server = Server::start_with(&["--time-limit", "30s"]);
    let port = server.port();
    let page = half_closed(
        &server,
        &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"),
    );
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
    assert!(
        page.contains("<!doctype html>") || page.contains("<!DOCTYPE html>"),
        "{page}"
    );
    let post = |body: &str| {
        let head = post_head(&server, "/api/heaps", body.len());
        format!("{head}\r\n\r\n{body}")
    };
    let heaps = half_closed(&server, &post(r#"{"heaps":[2,3]}"#));
    assert!(heaps.starts_with("HTTP/1.1 200 OK\r\n"), "{heaps}");
    assert!(heaps.trim_end().ends_with('}'), "{heaps}");
    // A dice race of 3d6 sums 5..=13 twice on both sides: 1.5 s in a release build on a quiet
    // machine, three probes (5..=12 takes 0.35 s, and was answered before the first probe).
    let list: Vec<String> = (5..=13)
        .flat_map(|s| [s, s])
        .map(|s| s.to_string())
        .collect();
    let list = list.join(",");
    let body = &format!(r#"{{"first":[{list}],"second":[{list}],"dice":3}}"#);
    let head = post_head(&server, "/api/dice-race/compare", body.len());
    let solve = half_closed(&server, &format!("{head}\r\n\r\n{body}"));
    let answer = solve.trim_start_matches("HTTP/1.1 100 Continue\r\n\r\n");
    assert!(
        solve.starts_with("HTTP/1.1 100 Continue\r\n\r\n"),
        "{solve}"
    );
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{solve}");
    assert!(answer.trim_end().ends_with('}'), "{solve}");
}

/// Finding 5 of issue 34: the origin check refuses what it cannot read — a header value that is not
/// visible ASCII, a `Host` or `Origin` given twice — with a 400 of one line, where it used to read
/// them as absent or as their first copy and answer 200.
#[test]
fn the_origin_check_refuses_what_it_cannot_read() {
    let server = Server::start();
    let port = server.port();
    let body = br#"{"heaps":[2,3]}"#;
    let ask = |extra: &[u8]| {
        let head = [
            format!(
                "POST /api/heaps HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}",
                body.len()
            )
            .as_bytes(),
            extra,
        ]
        .concat();
        raw_bytes(&server, &head, body, Duration::from_secs(30))
    };
    let latin = ask(b"\r\nOrigin: http://\xe9vil");
    assert!(latin.starts_with("HTTP/1.1 400"), "{latin}");
    assert!(
        latin.ends_with(
            r#"{"error":"the Origin header `http://\\xe9vil` is not visible ASCII text"}"#
        ),
        "{latin}"
    );
    let own = format!("http://127.0.0.1:{port}");
    let twice = ask(format!("\r\nOrigin: {own}\r\nOrigin: http://evil.example").as_bytes());
    assert!(twice.starts_with("HTTP/1.1 400"), "{twice}");
    assert!(
        twice.ends_with(
            r#"{"error":"the request has the Origin header more than once; send it once"}"#
        ),
        "{twice}"
    );
    let hosts = ask(b"\r\nHost: evil.example");
    assert!(hosts.starts_with("HTTP/1.1 400"), "{hosts}");
    assert!(
        hosts.ends_with(
            r#"{"error":"the request has the Host header more than once; send it once"}"#
        ),
        "{hosts}"
    );
    // The same request with its one own Origin: answered.
    assert!(ask(format!("\r\nOrigin: {own}").as_bytes()).starts_with("HTTP/1.1 200"));
}

/// A memory too small for any answer (each gets a quarter of `--memory`, and a search table takes
/// at least 4 MiB) is refused at the start in one line, not on every request after it.
#[test]
fn a_memory_too_small_to_answer_is_refused_at_the_start() {
    common::ply()
        .args(["serve", "--port", "0", "--memory", "1M"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "ply: --memory: 1048576 bytes leave the server no room to answer (each answer gets a \
             quarter); give at least 16 MiB\n",
        );
}
