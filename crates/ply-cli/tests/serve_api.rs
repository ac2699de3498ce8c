//! `ply serve` over real HTTP on 127.0.0.1 (a free port): every endpoint answers exactly what the CLI
//! prints with `--json` for the same input, and every error has its status and the CLI's message, its
//! options named in the API's terms (`"picks"`, not `--picks`).

use crate::common;

use common::server::Server;
use common::stdout_of;
use std::io::{Read, Write};

#[test]
fn every_endpoint_answers_what_the_cli_prints() {
    let server = Server::start();
    let cases: [(&str, &str, &[&str]); 14] = [
        (
            "/api/dots",
            r#"{"game":"triangles","size":3,"moves":"2-3 4-5","strategy":"table"}"#,
            &[
                "dots",
                "triangles",
                "--size",
                "3",
                "--moves",
                "2-3 4-5",
                "--strategy",
                "table",
                "--json",
            ],
        ),
        (
            "/api/dots",
            r#"{"game":"boxes","rows":2,"cols":2,"moves":"1-2","strategy":"memo"}"#,
            &[
                "dots",
                "boxes",
                "--rows",
                "2",
                "--cols",
                "2",
                "--moves",
                "1-2",
                "--strategy",
                "memo",
                "--json",
            ],
        ),
        (
            "/api/dots",
            r#"{"game":"triangles","moves":"2-3 4-5 5-6 7-8 8-9 9-10 2-4 3-6 4-7","strategy":"recursion"}"#,
            &[
                "dots",
                "triangles",
                "--moves",
                "2-3 4-5 5-6 7-8 8-9 9-10 2-4 3-6 4-7",
                "--strategy",
                "recursion",
                "--json",
            ],
        ),
        (
            "/api/solitaire",
            r#"{"squares":[1,-2,0,9,-1,-2],"die":6,"expected":true,"distribution":true,"explain":true}"#,
            &[
                "solitaire",
                "1",
                "-2",
                "0",
                "9",
                "-1",
                "-2",
                "--die",
                "6",
                "--expected",
                "--distribution",
                "--explain",
                "--json",
            ],
        ),
        (
            "/api/heaps",
            r#"{"heaps":[1,2,3],"grundy":true}"#,
            &["heaps", "1", "2", "3", "--grundy", "--json"],
        ),
        (
            "/api/heaps",
            r#"{"heaps":[2,3],"misere":true}"#,
            &["heaps", "2", "3", "--misere", "--json"],
        ),
        // Numbers as one text, as the command line writes them; every option's key.
        (
            "/api/heaps",
            r#"{"heaps":"2, 3","misere":true}"#,
            &["heaps", "2, 3", "--misere", "--json"],
        ),
        (
            "/api/solitaire",
            r#"{"squares":"1 -2,0 9 -1 -2","no_path":true,"expected":true}"#,
            &[
                "solitaire",
                "1",
                "-2,0",
                "9",
                "-1",
                "-2",
                "--no-path",
                "--expected",
                "--json",
            ],
        ),
        (
            "/api/dice-race/compare",
            r#"{"first":[5,6,7,8,9],"second":[5,6,7,8,7]}"#,
            &["dice-race", "compare", "5,6,7,8,9", "5,6,7,8,7", "--json"],
        ),
        (
            "/api/dice-race/best",
            r#"{"picks":2,"dice":1,"sides":6}"#,
            &[
                "dice-race",
                "best",
                "--picks",
                "2",
                "--dice",
                "1",
                "--sides",
                "6",
                "--json",
            ],
        ),
        (
            "/api/dice-race/equilibrium",
            r#"{"picks":2,"dice":2,"sides":4}"#,
            &[
                "dice-race",
                "equilibrium",
                "--picks",
                "2",
                "--dice",
                "2",
                "--sides",
                "4",
                "--json",
            ],
        ),
        (
            "/api/dice-race/sums",
            r#"{"dice":3,"sides":4}"#,
            &["dice-race", "sums", "--dice", "3", "--sides", "4", "--json"],
        ),
        (
            "/api/magic-board/generate",
            r#"{"size":6,"seed":3,"solvable":true}"#,
            &[
                "magic-board",
                "generate",
                "--size",
                "6",
                "--seed",
                "3",
                "--solvable",
                "--json",
            ],
        ),
        (
            "/api/magic-board",
            r#"{"board":"0 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n","start":[4,4]}"#,
            &["magic-board", "-", "--start", "4,4", "--json"],
        ),
    ];
    for (path, body, args) in cases {
        let stdin = args
            .contains(&"-")
            .then_some("0 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n");
        let cli = stdout_of(args, stdin);
        let (status, answer) = server.post(path, body);
        assert_eq!(status, 200, "{path} {body}: {answer}");
        assert_eq!(answer, cli, "{path} {body}");
    }
    // A known value through the API: the seed's puzzle is worth +3 to A.
    let (_, seed) = server.post(
        "/api/dots",
        r#"{"game":"triangles","moves":"2-3 4-5 5-6 7-8 8-9 9-10"}"#,
    );
    let report: serde_json::Value = serde_json::from_str(&seed).unwrap();
    assert_eq!(report["value"], 3);
    assert_eq!(report["strategy"], "table");
}

/// The first line of a `ply play` game on which `who` moves, e.g. `B (ply) plays 2-4 (value +3)`.
#[test]
fn a_repeated_request_is_answered_from_the_answers_kept() {
    let server = Server::start();
    let body = r#"{"squares":[1,-2,0,9,-1,-2],"die":6,"distribution":true}"#;
    let (status, first, timing) = server.post_timed("/api/solitaire", body);
    assert_eq!(status, 200, "{first}");
    assert!(timing.starts_with("solve;dur="), "{timing}");
    assert!(!timing.contains("cache"), "{timing}");
    let (status, again, timing) = server.post_timed("/api/solitaire", body);
    assert_eq!((status, &again), (200, &first));
    assert!(timing.ends_with(", cache;desc=hit"), "{timing}");
    // Another body (one more space) is solved again, to the same answer.
    let (status, spaced, timing) = server.post_timed("/api/solitaire", &format!("{body} "));
    assert_eq!(
        (status, &spaced, timing.contains("cache")),
        (200, &first, false)
    );
    // The same body on another endpoint is not that answer.
    let (status, _, _) = server.post_timed("/api/heaps", body);
    assert_eq!(status, 400);
    // Errors are not kept: each repeat is answered again, with the same message.
    let bad = r#"{"squares":[],"die":6}"#;
    let (status, error, timing) = server.post_timed("/api/solitaire", bad);
    assert_eq!(status, 400, "{error}");
    assert!(
        error.contains("no board") || error.contains("empty"),
        "{error}"
    );
    assert_eq!(timing, "");
    assert_eq!(
        server.post_timed("/api/solitaire", bad),
        (400, error, String::new())
    );
}

fn first_move_by(args: &[&str], stdin: &str, who: &str) -> String {
    stdout_of(args, Some(stdin))
        .lines()
        .find(|l| l.starts_with(who))
        .unwrap_or_else(|| panic!("{args:?}: {who} never moves"))
        .to_string()
}

#[test]
fn the_perfect_player_replies_as_ply_play_does() {
    let server = Server::start();
    let reply = |path: &str, body: String| {
        let (status, text) = server.post(path, &body);
        assert_eq!(status, 200, "{body}: {text}");
        serde_json::from_str::<serde_json::Value>(&text).expect("JSON")
    };
    for seed in 0..6u64 {
        let seed_text = seed.to_string();
        let play = |game: &[&str], first: &str, stdin: &str, who: &str| {
            let mut args = vec!["play"];
            args.extend_from_slice(game);
            args.extend_from_slice(&["--first", first, "--seed", &seed_text]);
            first_move_by(&args, stdin, who)
        };
        // ply moves first on the empty classic board: 12 moves share the best value, -3.
        let r = reply(
            "/api/play/dots",
            format!(r#"{{"game":"triangles","size":3,"seed":{seed}}}"#),
        );
        assert_eq!(
            (r["player"].as_str(), r["value"].as_i64()),
            (Some("A"), Some(-3))
        );
        assert_eq!(r["equal_moves"], 12);
        assert_eq!(
            play(&["triangles"], "ply", "quit\n", "A (ply)"),
            format!(
                "A (ply) plays {} (value -3, proved best)",
                r["move"].as_str().unwrap()
            )
        );
        // The reply to 1-2 (two best moves, each worth +3 to B).
        let r = reply(
            "/api/play/dots",
            format!(r#"{{"game":"triangles","moves":"1-2","seed":{seed}}}"#),
        );
        assert_eq!(
            (r["value"].as_i64(), r["equal_moves"].as_u64()),
            (Some(3), Some(2))
        );
        assert_eq!(
            play(&["triangles"], "me", "1-2\nquit\n", "B (ply)"),
            format!(
                "B (ply) plays {} (value +3, proved best)",
                r["move"].as_str().unwrap()
            )
        );
        // Boxes 2×2, ply first.
        let r = reply(
            "/api/play/dots",
            format!(r#"{{"game":"boxes","rows":2,"cols":2,"seed":{seed}}}"#),
        );
        assert_eq!(
            play(
                &["boxes", "--rows", "2", "--cols", "2"],
                "ply",
                "quit\n",
                "A (ply)"
            ),
            format!(
                "A (ply) plays {} (value {:+}, proved best)",
                r["move"].as_str().unwrap(),
                r["value"].as_i64().unwrap()
            )
        );
        // Heaps 3 4 5, normal and misère: the class and the count within it both follow the seed.
        for misere in [false, true] {
            let r = reply(
                "/api/play/heaps",
                format!(r#"{{"heaps":[3,4,5],"misere":{misere},"seed":{seed}}}"#),
            );
            let mut game = vec!["heaps", "3", "4", "5"];
            if misere {
                game.push("--misere");
            }
            let line = play(&game, "ply", "quit\n", "A (ply)");
            let take = r["take"].as_u64().unwrap();
            assert!(
                line.starts_with(&format!("A (ply) takes {take} from heap 1 (")),
                "{line} vs {r}"
            );
            let left: Vec<u64> = [3 - take, 4, 5].to_vec();
            assert_eq!(r["heaps"], serde_json::json!(left));
        }
    }
    // Known values: [2, 3] is won only by taking 1, three moves to the end.
    assert_eq!(
        server.post("/api/play/heaps", r#"{"heaps":[2,3],"seed":9}"#),
        (
            200,
            "{\"seed\":9,\"heap\":1,\"take\":1,\"wins\":true,\"remoteness\":3,\"heaps\":[1,3]}\n"
                .to_string()
        )
    );
    // The seed's puzzle is worth +3 to A, and so is the reply.
    let r = reply(
        "/api/play/dots",
        r#"{"game":"triangles","moves":"2-3 4-5 5-6 7-8 8-9 9-10"}"#.to_string(),
    );
    assert_eq!(
        (r["seed"].as_u64(), r["value"].as_i64()),
        (Some(1), Some(3))
    );
    // Refusals: the game is over, unknown keys, bad positions, as for the other endpoints.
    let all = "1-2 1-3 2-3 2-4 2-5 3-5 3-6 4-5 5-6 4-7 4-8 5-8 5-9 6-9 6-10 7-8 8-9 9-10";
    assert_eq!(
        server.post(
            "/api/play/dots",
            &format!(r#"{{"game":"triangles","moves":"{all}"}}"#)
        ),
        (
            400,
            r#"{"error":"the game is over: every edge is drawn, there is no move to make"}"#
                .to_string()
        )
    );
    let (status, body) = server.post(
        "/api/play/dots",
        r#"{"game":"triangles","seed":1,"path":"x"}"#,
    );
    assert_eq!(status, 400);
    assert!(
        body.starts_with(r#"{"error":"unknown key \"path\" (the keys are \"game\", "#),
        "{body}"
    );
    assert!(
        body.ends_with(r#"\"lines\", \"seed\", \"level\")"}"#),
        "{body}"
    );
    assert_eq!(
        server.post("/api/play/dots", r#"{"game":"triangles","level":9}"#),
        (
            400,
            r#"{"error":"\"level\" must be a whole number from 1 (weakest) to 8 (perfect), not `9`"}"#
                .to_string()
        )
    );
    assert_eq!(
        server.post(
            "/api/play/dots",
            r#"{"game":"triangles","moves":"2-4 4-11"}"#
        ),
        (
            400,
            r#"{"error":"move 2 `4-11`: dot 11 does not exist (this board has dots 1 to 10)"}"#
                .to_string()
        )
    );
    assert_eq!(
        server
            .post("/api/play/heaps", r#"{"heaps":[1,0],"seed":1}"#)
            .0,
        400
    );
    // Past exact reach (three moves into 4×4 boxes, past the shipped book: it holds positions at
    // most two moves in), ply still replies: with
    // its best estimate, within its time to think.
    let (status, text) = server.post(
        "/api/play/dots",
        r#"{"game":"boxes","rows":4,"cols":4,"moves":"1-2 7-8 13-14","time":0.3}"#,
    );
    assert_eq!(status, 200, "{text}");
    assert!(text.contains(r#""choice":"estimated""#), "{text}");
}

#[test]
fn every_error_has_its_status_and_message() {
    let server = Server::start();
    let error = |status: u16, message: &str| {
        format!(
            "{{\"error\":{}}}",
            serde_json::to_string(message).expect("a string")
        )
        .pipe(|body| (status, body))
    };
    // 400: the CLI's one-line messages.
    assert_eq!(
        server.post("/api/dots", r#"{"game":"triangles","moves":"2-4 4-11"}"#),
        error(
            400,
            "move 2 `4-11`: dot 11 does not exist (this board has dots 1 to 10)"
        )
    );
    assert_eq!(
        server.post("/api/heaps", r#"{"heaps":[1,0]}"#),
        error(
            400,
            "heap 2 holds 0; every heap must hold at least 1 counter"
        )
    );
    assert_eq!(
        server.post("/api/dice-race/compare", r#"{"first":"5,13","second":"7"}"#),
        error(
            400,
            "\"first\": sum 13 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)"
        )
    );
    let (status, body) = server.post("/api/solitaire", r#"{"squares":[1,2],"die":0}"#);
    assert_eq!(status, 400);
    assert_eq!(
        body,
        error(400, "the die must have 1 to 1000000 faces, not 0").1
    );
    assert_eq!(
        server.post("/api/heaps", "not json"),
        error(
            400,
            "the request is not JSON: expected ident (line 1, column 2)"
        )
    );
    let (status, _) = server.post("/api/heaps", r#"{"heaps":[1],"path":"/etc/passwd"}"#);
    assert_eq!(status, 400);
    // 422: over the server's budget, checked before any work (a quarter of the default 2 GiB for
    // one answer's tables).
    assert_eq!(
        server.post("/api/dots", r#"{"game":"triangles","size":4,"strategy":"table"}"#),
        error(422, "a table of 2^30 states (one byte each) needs 1.0 GiB (1073741824 bytes) but the memory budget is 512.0 MiB (536870912 bytes); try \"strategy\": \"memo\"")
    );
    assert_eq!(
        server.post("/api/dots", r#"{"game":"triangles","strategy":"fast"}"#),
        error(400, "\"strategy\" must be one of \"auto\", \"recursion\", \"memo\", \"table\", \"free-table\", \"search\", not `\"fast\"`")
    );
    assert_eq!(
        server.post("/api/dice-race/best", r#"{"picks":6}"#),
        error(422, "6 picks make 8008 lists; the server searches at most 5000 (run `ply dice-race` on your machine)")
    );
    // 422 at once: searches and races whose cost model says they would not finish within the
    // time limit (10 s) are refused with the estimate before any race is run.
    let refused = |path: &str, body: &str, what: &str| {
        let (status, text) = server.post(path, body);
        assert_eq!(status, 422, "{text}");
        let message: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let message = message["error"].as_str().expect("an error");
        assert!(message.starts_with(what), "{message}");
        assert!(
            message.contains(" units of work; the limit is "),
            "{message}"
        );
    };
    refused(
        "/api/dice-race/best",
        r#"{"picks":4,"dice":1,"sides":12}"#,
        "searching every list for the unbeaten one would take about 18 minutes here (1.1·10^11 units",
    );
    // 20 sums twice against the same on 3d6: 59 049 states of fractions of thousands of bits.
    let twice = "4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13";
    refused(
        "/api/dice-race/compare",
        &format!(r#"{{"first":"{twice}","second":"{twice}","dice":3}}"#),
        "comparing these lists exactly would take about 57 s here (1.3·10^9 units",
    );
    // 413: a body declared over 1 MiB, refused before a byte of it is sent (a client still
    // writing a body the server will not read may see its connection reset before the answer).
    let host = server.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).expect("the server listens");
    write!(
        stream,
        "POST /api/heaps HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: 1200000\r\n\r\n"
    )
    .expect("the headers are sent");
    let mut reply = String::new();
    stream
        .read_to_string(&mut reply)
        .expect("the server answers and closes");
    assert!(reply.starts_with("HTTP/1.1 413 "), "{reply}");
    assert!(
        reply.ends_with(
            &error(
                413,
                "the request body is over 1048576 bytes, the server's limit"
            )
            .1
        ),
        "{reply}"
    );
    // 404: nothing else is served, and no path names a file.
    assert_eq!(server.post("/api/../Cargo.toml", "{}").0, 404);
    assert_eq!(server.post("/static/app.js", "{}").0, 404);
}

/// A position the time limit cannot prove: a 200 with what was proved (bounds, the moves proved and
/// the best move found), never a refusal; the CLI's `--time` says the same.
#[test]
fn an_answer_past_the_time_limit_says_what_was_proved() {
    let server = Server::start_with(&["--time-limit", "1s", "--think", "500ms"]);
    let json = |body: &str| {
        let (status, text) = server.post("/api/dots", body);
        assert_eq!(status, 200, "{text}");
        serde_json::from_str::<serde_json::Value>(&text).expect("JSON")
    };
    // The empty 4×5 board: nothing near a proof in a second.
    let r = json(r#"{"game":"boxes","rows":4,"cols":5}"#);
    assert_eq!(
        (r["exact"].as_bool(), r["value"].as_i64()),
        (Some(false), None)
    );
    assert_eq!(r["reason"], "the time limit of 1 s was reached");
    let (lower, upper) = (r["lower"].as_i64().unwrap(), r["upper"].as_i64().unwrap());
    assert!(-20 <= lower && lower < upper && upper <= 20, "{r}");
    assert_eq!(r["final_margin_a"], serde_json::Value::Null);
    assert_eq!(r["moves"].as_array().unwrap().len(), 49);
    let best = r["best_move"].as_str().unwrap();
    assert!(r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["move"] == best));
    assert!(r["estimate"]["depth"].as_u64().unwrap() >= 1);
    // Plain recursion cannot give bounds: nothing proved but what the cells allow.
    let r = json(r#"{"game":"triangles","strategy":"recursion"}"#);
    assert_eq!(
        (
            r["exact"].as_bool(),
            r["lower"].as_i64(),
            r["upper"].as_i64()
        ),
        (Some(false), Some(-9), Some(9))
    );
    // ply's reply on the empty 5×5 board comes within its time to think.
    let (status, text) = server.post(
        "/api/play/dots",
        r#"{"game":"boxes","rows":5,"cols":5,"seed":3}"#,
    );
    assert_eq!(status, 200, "{text}");
    let reply: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(reply["choice"], "estimated");
    // Thinking stops at its time (0.5 s); far more would mean it tried to solve the board.
    assert!(reply["seconds"].as_f64().unwrap() < 5.0, "{reply}");
    // The same anytime answer from the CLI.
    let out = common::stdout_of(
        &[
            "dots",
            "boxes",
            "--rows",
            "4",
            "--cols",
            "5",
            "--time",
            "1s",
            "--json",
            "--value-only",
        ],
        None,
    );
    let cli: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (cli["exact"].as_bool(), cli["reason"].as_str()),
        (Some(false), Some("the time limit of 1 s was reached"))
    );
}

/// Number Solitaire's exact distribution is costed before it starts: a board whose distribution
/// the time limit cannot cover is refused at once with its estimate (422), not stopped half-way;
/// a smaller one is answered.
#[test]
fn a_distribution_past_the_time_limit_is_refused_with_its_estimate() {
    let server = Server::start_with(&["--time-limit", "1s"]);
    // Sixty squares spread over 0..3000 and a die of 60 faces: ~4·10^7 units, about 4 s.
    let squares: Vec<String> = (0..60)
        .map(|i: i64| ((i * 7919 + 13) % 3001).to_string())
        .collect();
    let body = format!(
        r#"{{"squares":[{}],"die":60,"distribution":true}}"#,
        squares.join(",")
    );
    let (status, text) = server.post("/api/solitaire", &body);
    assert_eq!(status, 422, "{text}");
    let message = serde_json::from_str::<serde_json::Value>(&text).unwrap()["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        message.starts_with(
            "the exact distribution of this board would take about 4 s here (4.2·10^7 units of work; the limit is"
        ),
        "{message}"
    );
    // Its first twenty squares: well under the limit, answered.
    let small = format!(
        r#"{{"squares":[{}],"die":60,"distribution":true}}"#,
        squares[..20].join(",")
    );
    let (status, text) = server.post("/api/solitaire", &small);
    assert_eq!(status, 200, "{text}");
}

/// One strategy policy for dots: `ply dots`, the server and `ply play` choose alike for the same
/// budget (the server gives each answer a quarter of its memory; all three a 10 s limit here) —
/// except that the server and `ply play`, which keep tables between answers, build a small board's
/// whole table once where one question from the command line fills the table of its free edges.
#[test]
fn the_cli_the_server_and_play_choose_alike() {
    let server = Server::start_with(&["--memory", "4G", "--think", "10s"]);
    let cases = [
        // A board of 18 edges: the whole table where tables are kept (the command line: its
        // free edges, here all 18).
        ("triangles", "", [3, 0, 0], "table"),
        // 4×4 boxes, 18 free edges: the table of the free edges.
        ("boxes", "1-2 2-3 3-4 4-5 6-7 7-8 8-9 9-10 11-12 12-13 13-14 14-15 16-17 17-18 18-19 19-20 21-22 22-23 23-24 24-25 1-6 2-7", [0, 4, 4], "free-table"),
        // The empty 3×4 board: in the shipped book.
        ("boxes", "", [0, 3, 4], "book"),
        // Three moves later, past the book: its whole table (2 GiB) does not fill in the time
        // given; the search.
        ("boxes", "1-2 4-5 16-17", [0, 3, 4], "search"),
    ];
    for (game, moves, [size, rows, cols], expected) in cases {
        let body = if game == "triangles" {
            format!(
                r#"{{"game":"triangles","size":{size},"moves":"{moves}","detail":"value","time":0.5}}"#
            )
        } else {
            format!(
                r#"{{"game":"boxes","rows":{rows},"cols":{cols},"moves":"{moves}","detail":"value","time":0.5}}"#
            )
        };
        let (status, text) = server.post("/api/dots", &body);
        assert_eq!(status, 200, "{text}");
        let api: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(api["strategy"], expected, "{body}");
        let mut args = vec!["dots", game];
        let (size, rows, cols) = (size.to_string(), rows.to_string(), cols.to_string());
        if game == "triangles" {
            args.extend(["--size", &size]);
        } else {
            args.extend(["--rows", &rows, "--cols", &cols]);
        }
        args.extend([
            "--moves",
            moves,
            "--memory",
            "1G",
            "--time",
            "2s",
            "--json",
            "--value-only",
        ]);
        let cli: serde_json::Value = serde_json::from_str(&stdout_of(&args, None)).unwrap();
        let cli_expected = if expected == "table" {
            "free-table"
        } else {
            expected
        };
        assert_eq!(cli["strategy"], cli_expected, "{args:?}");
        // `ply play` (thinking 2 s, the machine's memory) names its strategy in its hint.
        let mut play = vec![
            "play", game, "--think", "2s", "--moves", moves, "--seed", "1",
        ];
        if game == "triangles" {
            play.extend(["--size", &size]);
        } else {
            play.extend(["--rows", &rows, "--cols", &cols]);
        }
        let out = stdout_of(&play, Some("hint\nquit\n"));
        assert!(out.contains(&format!(", by {expected}")), "{out}");
    }
}

/// `x.pipe(f)` = `f(x)`, to keep the expected answers readable.
trait Pipe: Sized {
    fn pipe<T>(self, f: impl FnOnce(Self) -> T) -> T {
        f(self)
    }
}

impl<T> Pipe for T {}

/// Faults worded with the option that asked, each front end in its own terms: the CLI's flag
/// (`--picks`), the API's key as a body writes it (`"picks"`, `"any_size": true`). Each game's home
/// words them once, for every surface.
#[test]
fn faults_name_the_option_in_each_front_ends_terms() {
    let server = Server::start();
    let board = common::TempFile::new("small.txt", "1 0\n1 1\n");
    let size_rule = "a board of size 2 breaks the size rule (5 to 20;";
    let generated = "a board of size 3 breaks the size rule (5 to 20;";
    let cases: [(&str, &str, Vec<&str>, String, String); 4] = [
        (
            "/api/dice-race/best",
            r#"{"picks":0}"#,
            vec!["dice-race", "best", "--picks", "0", "--json"],
            "--picks must be at least 1".to_string(),
            "\"picks\" must be at least 1".to_string(),
        ),
        (
            "/api/magic-board",
            r#"{"board":"1 0\n1 1"}"#,
            vec!["magic-board", board.arg(), "--json"],
            format!("{size_rule} --any-size allows 2 to 4096)"),
            format!("{size_rule} \"any_size\": true allows 2 to 4096)"),
        ),
        (
            "/api/magic-board/generate",
            r#"{"size":3}"#,
            vec!["magic-board", "generate", "--size", "3", "--json"],
            format!("{generated} --any-size allows 2 to 4096)"),
            format!("{generated} \"any_size\": true allows 2 to 4096)"),
        ),
        (
            "/api/solitaire",
            r#"{"squares":[]}"#,
            vec!["solitaire", "--json"],
            "no board: give the numbers as arguments or with --input FILE".to_string(),
            "no board: \"squares\" is an empty list; give at least one number".to_string(),
        ),
    ];
    for (path, body, args, cli, api) in cases {
        let line = common::one_line_failure(&args);
        assert_eq!(line.strip_prefix("ply: "), Some(cli.as_str()), "{args:?}");
        let (status, text) = server.post(path, body);
        assert_eq!(status, 400, "{path} {body}: {text}");
        let answer: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(answer["error"], api.as_str(), "{path} {body}");
    }
    // A board longer than the explanation's limit: each names the switch that asked for it.
    let squares: Vec<String> = (1..=41).map(|i| i.to_string()).collect();
    let mut args = vec!["solitaire"];
    args.extend(squares.iter().map(String::as_str));
    args.extend(["--explain", "--json"]);
    let rest = "is for boards of at most 40 squares; this one has 41";
    assert_eq!(
        common::one_line_failure(&args),
        format!("ply: --explain {rest}")
    );
    let (status, text) = server.post(
        "/api/solitaire",
        &format!(r#"{{"squares":[{}],"explain":true}}"#, squares.join(",")),
    );
    assert_eq!(status, 400, "{text}");
    let answer: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(answer["error"], format!("\"explain\": true {rest}"));
    let conflict = server.post(
        "/api/magic-board/generate",
        r#"{"size":8,"solvable":true,"unsolvable":true}"#,
    );
    assert_eq!(
        conflict,
        (
            400,
            r#"{"error":"\"solvable\": true cannot be used with \"unsolvable\": true"}"#
                .to_string()
        )
    );
}

/// A body that is no request, or a request with a key missing, unknown, of the wrong kind or out of
/// range, at every endpoint: refused in the API's terms (keys as the body writes them, the value
/// quoted as written), never with a Rust type's name or serde's words.
#[test]
fn a_body_that_is_no_request_is_refused_in_the_apis_terms() {
    let server = Server::start();
    let not_an_object = "the request must be an object of keys and values, not";
    let endpoints = [
        "/api/dots",
        "/api/dots/analyse",
        "/api/dots/board",
        "/api/dots/review",
        "/api/play/dots",
        "/api/solitaire",
        "/api/heaps",
        "/api/play/heaps",
        "/api/dice-race/compare",
        "/api/dice-race/best",
        "/api/dice-race/equilibrium",
        "/api/dice-race/sums",
        "/api/magic-board",
        "/api/magic-board/generate",
    ];
    for path in endpoints {
        for (body, shown) in [
            ("[]", "`[]`"),
            ("\"x\"", "`\"x\"`"),
            ("5", "`5`"),
            ("null", "`null`"),
        ] {
            let (status, text) = server.post(path, body);
            let answer: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(
                (status, answer["error"].as_str()),
                (400, Some(format!("{not_an_object} {shown}").as_str())),
                "{path} {body}"
            );
        }
    }
    let cases = [
        (
            "/api/dots",
            r#"{"game":"boxes","rows":99999999999999999999,"cols":3}"#,
            "\"rows\": 99999999999999999999 is too large (at most 4294967295)",
        ),
        (
            "/api/dots",
            r#"{"game":"boxes","rows":"x","cols":3}"#,
            "\"rows\" must be a whole number, not `\"x\"`",
        ),
        (
            "/api/dots",
            r#"{"game":"boxes","rows":2.5,"cols":3}"#,
            "\"rows\": 2.5 is not a whole number",
        ),
        (
            "/api/dots",
            r#"{"game":"boxes","rows":3}"#,
            "\"rows\" without \"cols\": boxes take both (or neither, for 3×3)",
        ),
        (
            "/api/dots",
            r#"{"game":"triangles","rows":3,"cols":3}"#,
            "\"rows\" is not for triangles: triangles take \"size\", boxes \"rows\" and \"cols\"",
        ),
        (
            "/api/dots",
            r#"{"game":"triangles","moves":42}"#,
            "\"moves\" must be one text (\"2-4 4-5\") or a list of texts ([\"2-4\", \"4-5\"]), not `42`",
        ),
        (
            "/api/dots",
            r#"{"game":"triangles","window":[0,1]}"#,
            "a window bounds the value alone: ask for \"detail\": \"value\" with it",
        ),
        (
            "/api/dots",
            r#"{"game":"triangles","lines":3,"detail":"moves"}"#,
            "\"lines\" are shown with \"detail\": \"line\" (the default), not \"detail\": \"moves\"",
        ),
        ("/api/heaps", "{}", "\"heaps\" is missing"),
        (
            "/api/heaps",
            r#"{"heaps":[18446744073709551616]}"#,
            "heap 1 holds 18446744073709551616, more than the largest size (18446744073709551615)",
        ),
        (
            "/api/heaps",
            r#"{"heaps":[1,"2"]}"#,
            "\"heaps\" item 2 must be a number, not `\"2\"`",
        ),
        (
            "/api/heaps",
            r#"{"heaps":[1],"misere":"yes"}"#,
            "\"misere\" must be true or false, not `\"yes\"`",
        ),
        (
            "/api/dice-race/compare",
            r#"{"first":[18446744073709551616],"second":[7]}"#,
            "\"first\": sum 18446744073709551616 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)",
        ),
        (
            "/api/dice-race/best",
            r#"{"picks":-1}"#,
            "\"picks\": -1 must not be negative",
        ),
        (
            "/api/magic-board",
            r#"{"board":"1 0","start":[0]}"#,
            "\"start\" must be a list of 2, not `[0]`",
        ),
        (
            "/api/solitaire",
            r#"{"squares":[1],"path":true,"no_path":true}"#,
            "\"no_path\": true cannot be used with \"path\": true",
        ),
    ];
    for (path, body, message) in cases {
        let (status, text) = server.post(path, body);
        let answer: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(
            (status, answer["error"].as_str()),
            (400, Some(message)),
            "{path} {body}"
        );
    }
}

/// `ply serve --book FILE` writes what it proves into the book, and a server restarted with the same
/// book answers those positions from it: the position, and every move (the positions after them).
#[test]
fn a_restarted_server_answers_what_it_proved_from_its_book() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let book = dir.path().join("served.plybook");
    let book = book.to_str().expect("a UTF-8 path");
    // 3×4 boxes seven moves in: 24 free edges, past the shipped book (two moves) and worth keeping.
    // Under a second alone; a time far past it, so that a loaded machine proves it too (with the
    // default time it was once left unproved beside four busy loops).
    let body = r#"{"game":"boxes","rows":3,"cols":4,"moves":"1-2 4-5 16-17 19-20 3-8 13-18 7-8","time":120}"#;
    let limit = ["--time-limit", "300s"];
    let first = {
        let server = Server::start_with(&["--book", book, limit[0], limit[1]]);
        let (status, text) = server.post("/api/dots", body);
        assert_eq!(status, 200, "{text}");
        serde_json::from_str::<serde_json::Value>(&text).expect("JSON")
    };
    assert_eq!(first["exact"], true);
    assert_ne!(first["strategy"], "book");
    let server = Server::start_with(&["--book", book, limit[0], limit[1]]);
    let (status, text) = server.post("/api/dots", body);
    assert_eq!(status, 200, "{text}");
    let again: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(again["strategy"], "book");
    assert_eq!(again["states_visited"], 0);
    for key in ["value", "moves", "best_move", "final_score", "winner"] {
        assert_eq!(again[key], first[key], "{key}");
    }
    // Without the book the same position is searched again.
    let fresh = Server::start_with(&limit);
    let (_, text) = fresh.post("/api/dots", body);
    let searched: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_ne!(searched["strategy"], "book");
    assert_eq!(searched["value"], first["value"]);
}

/// The server-sent events of `/api/dots/analyse`: each event's name and its data as JSON.
fn events_of(text: &str) -> Vec<(String, serde_json::Value)> {
    text.split("\n\n")
        .filter(|e| !e.trim().is_empty())
        .map(|e| {
            let name = e.lines().find_map(|l| l.strip_prefix("event: "));
            let data = e.lines().find_map(|l| l.strip_prefix("data: "));
            let (name, data) = name.zip(data).unwrap_or_else(|| panic!("an event: {e:?}"));
            let data = serde_json::from_str(data).unwrap_or_else(|_| panic!("JSON: {data}"));
            (name.to_string(), data)
        })
        .collect()
}

#[test]
fn an_analysis_streams_each_move_as_it_is_proved_then_the_answer() {
    // A limit far past the second or two this takes, so that a loaded machine proves it too.
    let server = Server::start_with(&["--time-limit", "300s"]);
    // The empty 3×3 board by the search: every move's value comes in a status event as it is
    // proved, and the last event is the report /api/dots gives.
    let body = r#"{"game":"boxes","rows":3,"cols":3,"strategy":"search"}"#;
    let (status, text) = server.post("/api/dots/analyse", body);
    assert_eq!(status, 200, "{text}");
    let events = events_of(&text);
    let (last, report) = events.last().expect("events");
    assert_eq!(last, "report");
    assert_eq!(report["exact"], true);
    assert_eq!(report["value"], -3);
    let (_, answer) = server.post("/api/dots", body);
    let answer: serde_json::Value = serde_json::from_str(&answer).expect("JSON");
    assert_eq!(report["moves"], answer["moves"]);
    let statuses: Vec<&serde_json::Value> = events[..events.len() - 1]
        .iter()
        .map(|(name, data)| {
            assert_eq!(name, "status");
            data
        })
        .collect();
    let mut proved = std::collections::BTreeMap::new();
    for status in &statuses {
        assert_eq!(status["moves"], 24);
        let (lower, upper) = (&status["lower"], &status["upper"]);
        assert!(lower.as_i64() <= upper.as_i64(), "{status}");
        assert!(
            lower.as_i64() <= Some(-3) && upper.as_i64() >= Some(-3),
            "{status}"
        );
        for m in status["proved"].as_array().expect("a list") {
            proved.insert(m["move"].as_str().unwrap().to_string(), m["value"].clone());
        }
    }
    // Every move was told, with the value the report gives it.
    assert_eq!(proved.len(), 24);
    for m in report["moves"].as_array().unwrap() {
        assert_eq!(proved[m["move"].as_str().unwrap()], m["value"], "{m}");
    }
    assert_eq!(statuses.last().unwrap()["moves_proved"], 24);
    // A body that cannot be checked is refused before any event, as on /api/dots.
    let (status, text) = server.post("/api/dots/analyse", r#"{"game":"boxes","rows":0}"#);
    assert_eq!(status, 400, "{text}");
    assert!(text.starts_with(r#"{"error":"#), "{text}");
    // So is a question refused at once (a table far over the memory budget): 422, the same line.
    let body = r#"{"game":"triangles","size":6,"strategy":"table"}"#;
    let (status, text) = server.post("/api/dots/analyse", body);
    let (plain_status, plain) = server.post("/api/dots", body);
    assert_eq!((status, plain_status), (422, 422), "{text}");
    assert_eq!(text, plain);
    assert!(text.contains("needs") && !text.contains("event:"), "{text}");
}

#[test]
fn what_an_analysis_proves_goes_into_the_servers_book() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let book = dir.path().join("analysed.plybook");
    let book = book.to_str().expect("a UTF-8 path");
    // As in the restart test: 3×4 boxes seven moves in, 24 free edges, worth keeping.
    let body = r#"{"game":"boxes","rows":3,"cols":4,"moves":"1-2 4-5 16-17 19-20 3-8 13-18 7-8"}"#;
    let first = {
        let server = Server::start_with(&["--book", book]);
        let (status, text) = server.post("/api/dots/analyse", body);
        assert_eq!(status, 200, "{text}");
        events_of(&text).pop().expect("a last event").1
    };
    assert_eq!(first["exact"], true);
    let server = Server::start_with(&["--book", book]);
    let (_, text) = server.post("/api/dots/analyse", body);
    let events = events_of(&text);
    assert_eq!(events.len(), 1, "{text}");
    assert_eq!(events[0].1["strategy"], "book");
    assert_eq!(events[0].1["value"], first["value"]);
    assert_eq!(events[0].1["moves"], first["moves"]);
}

/// The request log: one line on stderr per request (its time, method, path, status and the time it
/// took), none with `--quiet`.
#[test]
fn each_request_is_a_line_of_the_log_unless_quiet() {
    let (server, log) = Server::start_logging(&[]);
    assert_eq!(server.post("/api/heaps", r#"{"heaps":[1,2]}"#).0, 200);
    assert_eq!(server.post("/api/heaps", r#"{"heaps":[]}"#).0, 400);
    let next = || {
        log.recv_timeout(std::time::Duration::from_secs(30))
            .expect("a line of the log")
    };
    for status in ["200", "400"] {
        let line = next();
        // `2026-11-26T22:49:56.555631Z  INFO request{method=POST path=/api/heaps}: 200 in 0.1 ms`
        let (time, rest) = line.split_once("  INFO ").expect("a time and a level");
        assert!(time.ends_with('Z') && time.contains('T'), "{line}");
        let rest = rest
            .strip_prefix("request{method=POST path=/api/heaps}: ")
            .unwrap_or_else(|| panic!("{line}"));
        let took = rest
            .strip_prefix(&format!("{status} in "))
            .and_then(|t| t.strip_suffix(" ms"))
            .unwrap_or_else(|| panic!("{line}"));
        assert!(took.parse::<f64>().is_ok_and(|ms| ms >= 0.0), "{line}");
    }
    let (quiet, log) = Server::start_logging(&["--quiet"]);
    assert_eq!(quiet.post("/api/heaps", r#"{"heaps":[1,2]}"#).0, 200);
    // Once the server is gone its stderr ends: every line it wrote has been read.
    drop(quiet);
    assert_eq!(log.iter().collect::<Vec<_>>(), Vec::<String>::new());
}

#[test]
fn heaps_and_dice_race_games_are_played_by_their_homes() {
    let server = Server::start();
    let answer = |path: &str, body: &str| {
        let (status, text) = server.post(path, body);
        assert_eq!(status, 200, "{body}: {text}");
        serde_json::from_str::<serde_json::Value>(&text).expect("JSON")
    };
    // [2, 3]: taking 1 is the only win; the reply from a lost position is lost anyway.
    let g = answer("/api/heaps/game", r#"{"heaps":[2,3],"moves":"1,1"}"#);
    assert_eq!(g["heaps"], serde_json::json!([0, 3]));
    assert_eq!(g["positions"][0]["winning_take"], 1);
    assert_eq!(g["takes"][0]["grade"], "best");
    assert_eq!(g["takes"][1]["verdict"], "lost anyway");
    assert_eq!(g["takes"][1]["heap"], 1);
    assert_eq!(
        (g["over"].clone(), g["winner"].clone()),
        (false.into(), serde_json::Value::Null)
    );
    assert_eq!(g["moves"][0]["take_min"], 3);
    // Taking both of heap 1 gives the win away; the game then ends with B's take of all three.
    let g = answer("/api/heaps/game", r#"{"heaps":[2,3],"moves":[2,3]}"#);
    assert_eq!(g["takes"][0]["grade"], "gives_the_win_away");
    assert_eq!(
        (g["winner"].clone(), g["ending"].clone()),
        ("B".into(), "took the last counter".into())
    );
    // Misère: whoever takes the last counter loses.
    let g = answer(
        "/api/heaps/game",
        r#"{"heaps":[1],"misere":true,"moves":[1]}"#,
    );
    assert_eq!(
        (g["last_mover"].clone(), g["winner"].clone()),
        ("A".into(), "B".into())
    );
    assert_eq!(g["ending"], "did not take the last counter");
    // The race rolled from seed 10 is the race `ply play dice-race --seed 10` rolls: 7, then 6.
    let r = answer(
        "/api/dice-race/game",
        r#"{"first":"5,6,7","second":[7,8],"seed":10,"rolls":2}"#,
    );
    let sums: Vec<u64> = (0..2)
        .map(|i| r["rolls"][i]["sum"].as_u64().unwrap())
        .collect();
    assert_eq!(sums, [7, 6]);
    assert_eq!(r["rolls"][0]["faces"].as_array().unwrap().len(), 2);
    assert_eq!(r["first_left"], serde_json::json!([5]));
    assert_eq!(r["second_left"], serde_json::json!([8]));
    assert_eq!(r["chances"]["exact"]["p_first"], "4/9");
    let cli = stdout_of(
        &["play", "dice-race", "5,6,7", "7,8", "--seed", "10"],
        Some("\n\n"),
    );
    assert!(
        cli.contains("roll 1: 7 ") && cli.contains("roll 2: 6 "),
        "{cli}"
    );
    let tie = answer(
        "/api/dice-race/game",
        r#"{"first":[7],"second":[7],"rolls":10000}"#,
    );
    assert_eq!(
        (tie["finish"].clone(), tie["chances"].clone()),
        ("tie".into(), serde_json::Value::Null)
    );
    // Bad bodies: 400 and one line in the API's terms.
    let error = |message: &str| {
        (
            400,
            format!("{{\"error\":{}}}", serde_json::to_string(message).unwrap()),
        )
    };
    for (path, body, message) in [
        (
            "/api/heaps/game",
            r#"{"heaps":[2,3],"moves":[1,1,4]}"#,
            "move 3: heap 2 has 3 counters: take 1 to 3",
        ),
        (
            "/api/heaps/game",
            r#"{"heaps":[2],"moves":"x"}"#,
            "move 1: `x` is not a number of counters",
        ),
        (
            "/api/heaps/game",
            r#"{"heaps":[1],"moves":[1,1]}"#,
            "move 2: the game is over: every heap is empty",
        ),
        (
            "/api/heaps/game",
            r#"{"heaps":[0]}"#,
            "heap 1 holds 0; every heap must hold at least 1 counter",
        ),
        (
            "/api/dice-race/game",
            r#"{"first":[7],"second":[6],"rolls":10001}"#,
            "\"rolls\" must be at most 10000, not 10001",
        ),
        (
            "/api/dice-race/game",
            r#"{"first":[7],"second":[13]}"#,
            "\"second\": sum 13 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)",
        ),
        (
            "/api/heaps/game",
            r#"{"heaps":[3,4],"moves":"2,,1"}"#,
            "\"moves\": item 2 is empty",
        ),
        (
            "/api/heaps/game",
            r#"{"heaps":"1,,2"}"#,
            "\"heaps\": item 2 is empty",
        ),
        (
            "/api/heaps",
            r#"{"heaps":",1"}"#,
            "\"heaps\": item 1 is empty",
        ),
        (
            "/api/dice-race/compare",
            r#"{"first":"7,,8","second":[7]}"#,
            "\"first\": item 2 is empty",
        ),
        (
            "/api/dice-race/simulate",
            r#"{"first":[7],"second":[6],"games":10,"max_games":5}"#,
            "\"games\": 10 is more than \"max_games\": 5",
        ),
    ] {
        assert_eq!(server.post(path, body), error(message), "{body}");
    }
    // Takes: at most as many as a race's rolls, as a list or a text; the cap itself is replayed.
    let heap = 20_000;
    let takes = |n: usize| vec!["1"; n].join(",");
    for (moves, answer) in [
        (
            format!("[{}]", takes(10_001)),
            error("\"moves\" must hold at most 10000 takes, not 10001"),
        ),
        (
            format!("\"{}\"", takes(260_000)),
            error("\"moves\" must hold at most 10000 takes, not 260000"),
        ),
    ] {
        let body = format!(r#"{{"heaps":[{heap}],"moves":{moves}}}"#);
        assert_eq!(server.post("/api/heaps/game", &body), answer);
    }
    let body = format!(r#"{{"heaps":[{heap}],"moves":[{}]}}"#, takes(10_000));
    let (status, text) = server.post("/api/heaps/game", &body);
    assert_eq!(status, 200, "{text}");
    let (status, text) = server.post(
        "/api/dice-race/game",
        r#"{"first":[7],"second":[6],"faces":2}"#,
    );
    assert_eq!(status, 400);
    assert!(text.contains("faces"), "{text}");
}
