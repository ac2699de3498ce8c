//! The registry test: every game the library's registry lists is offered by every surface built
//! from it. The server answers every question at its path (its example body: 200, and the same
//! JSON as the library's door gives), `GET /api/games` lists every game and question, the command
//! line has a subcommand for every game and answers every question (`ply ask`) as the library does. A game added to the registry without a surface,
//! or a surface that drifts from the registry, fails here.

use crate::common;

use common::ply;
use common::server::Server;
use ply_web::limits::Settings;
use plysolve::engine::MemoryBudget;
use plysolve::games::door::{Context, Grants};
use plysolve::games::dots::book::Books;
use plysolve::games::dots::kept::Kept;
use plysolve::games::registry;
use plysolve::input::surface::Surface;
use serde_json::Value;
use std::sync::Arc;

/// Keys whose values are wall times or speeds: two runs of one answer differ in them.
const TIMES: [&str; 4] = [
    "seconds",
    "simulation_seconds",
    "exact_seconds",
    "boards_per_second",
];

/// `value` with every time ([`TIMES`]) set to null, at any depth.
fn without_times(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, v)| match TIMES.contains(&key.as_str()) {
                    true => (key, Value::Null),
                    false => (key, without_times(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_times).collect()),
        other => other,
    }
}

/// The JSON of `text`.
fn parse_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The data of the last event of a server-sent event stream, which must be named `report`.
fn last_report(stream: &str) -> &str {
    let last = stream
        .trim_end()
        .rsplit("\n\n")
        .next()
        .expect("at least one event");
    let (name, data) = last.split_once('\n').expect("a name and data");
    assert_eq!(name, "event: report", "{stream}");
    data.strip_prefix("data: ").expect("a data line")
}

#[test]
fn the_server_answers_every_question_as_the_library_does() {
    let server = Server::start();
    // What the server grants, with its own tables kept: the same strategies are chosen.
    let grants = ply_web::grants(&Settings::default(), Books::shipped());
    let mut asked = 0;
    for question in registry::questions() {
        let about = question.about();
        let (status, body) = server.post(about.path, about.example);
        assert_eq!(status, 200, "{}: {body}", about.path);
        let served = if about.streams {
            last_report(&body)
        } else {
            body.as_str()
        };
        let context = Context::new(grants.clone(), None);
        let library = registry::ask(about.path, about.example.as_bytes(), Surface::Api, &context)
            .unwrap_or_else(|f| panic!("{}: {}", about.path, f.message));
        assert_eq!(
            without_times(parse_json(served)),
            without_times(parse_json(&library.text)),
            "{}",
            about.path
        );
        asked += 1;
    }
    // Five games: dots (report, analyse, play, review, board, triangle-war), solitaire, the dice
    // race (compare, best, equilibrium, sums, simulate, game), MagicBoard (solve, generate, stats),
    // heaps (report, play, game).
    assert_eq!(asked, 19);
}

#[test]
fn the_server_lists_every_game_and_question() {
    let server = Server::start();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent
        .get(&format!("{}/api/games", server.base))
        .call()
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 200);
    let listed = parse_json(&response.body_mut().read_to_string().expect("a text body"));
    let listed = listed.as_array().expect("a list of games");
    let games = registry::games();
    assert_eq!(listed.len(), games.len());
    for (game, listing) in games.iter().zip(listed) {
        assert_eq!(listing["name"], game.name);
        assert_eq!(listing["title"], game.title);
        let paths: Vec<&str> = listing["questions"]
            .as_array()
            .expect("questions")
            .iter()
            .map(|q| q["path"].as_str().expect("a path"))
            .collect();
        let expected: Vec<&str> = game.questions.iter().map(|q| q.about().path).collect();
        assert_eq!(paths, expected, "{}", game.name);
        let pages = listing["pages"].as_array().expect("pages");
        assert_eq!(pages.len(), game.pages.len(), "{}", game.name);
    }
    let names: Vec<&str> = games.iter().map(|g| g.name).collect();
    assert_eq!(
        names,
        ["dots", "solitaire", "dice-race", "magic-board", "heaps"]
    );
}

#[test]
fn the_command_line_has_a_subcommand_for_every_game() {
    for game in registry::games() {
        let output = ply()
            .args([game.name, "--help"])
            .output()
            .expect("ply runs");
        assert!(output.status.success(), "ply {} --help", game.name);
        let help = String::from_utf8(output.stdout).expect("UTF-8 help");
        assert!(help.contains("Usage: ply"), "{}: {help}", game.name);
    }
}

#[test]
fn the_command_line_answers_every_question_as_the_library_does() {
    let grants = Grants {
        kept: Some(Arc::new(Kept::new(64 << 20, 1))),
        ..Grants::new(MemoryBudget::from_system())
    };
    let mut asked = 0;
    for question in registry::questions() {
        let about = question.about();
        let output = ply()
            .args(["ask", about.game, about.name, about.example])
            .output()
            .expect("ply runs");
        let stdout = String::from_utf8(output.stdout).expect("UTF-8");
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert!(
            output.status.success(),
            "ply ask {} {}: {stderr}",
            about.game,
            about.name
        );
        let context = Context::new(grants.clone(), None);
        let library = registry::ask(about.path, about.example.as_bytes(), Surface::Api, &context)
            .unwrap_or_else(|f| panic!("{}: {}", about.path, f.message));
        assert_eq!(
            without_times(parse_json(&stdout)),
            without_times(parse_json(&library.text)),
            "ply ask {} {}",
            about.game,
            about.name
        );
        asked += 1;
    }
    assert_eq!(asked, 19);
    // `ply ask` lists every question, and refuses a bad request in one line with exit 2.
    let listing = ply().arg("ask").output().expect("ply runs");
    let listing = String::from_utf8(listing.stdout).expect("UTF-8");
    for question in registry::questions() {
        let about = question.about();
        assert!(listing.contains(&format!("ply ask {} {}\n", about.game, about.name)));
    }
    let bad = ply()
        .args(["ask", "heaps", "report", r#"{"heaps": [3, 0]}"#])
        .output()
        .expect("ply runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    assert_eq!(
        String::from_utf8(bad.stderr).expect("UTF-8"),
        "ply: heap 2 holds 0; every heap must hold at least 1 counter\n"
    );
    let unknown = ply()
        .args(["ask", "heaps", "grundy"])
        .output()
        .expect("ply runs");
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(unknown.stderr).expect("UTF-8"),
        "ply: heaps has no question `grundy` (its questions: report, play, game)\n"
    );
}
