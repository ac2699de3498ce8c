//! Requests read from JSON (`input::json`) as the API and Python read them, with a game's request
//! for the example (the reader is generic; a test of it with a game lives here, above both layers):
//! the same values serde_json reads, faults in the caller's terms.

use plysolve::games::dots::request::DotsRequest;
use plysolve::input::json::{read, read_beside};
use plysolve::input::surface::{Surface, Worded};
use serde::Deserialize;

fn fault(json: &str, surface: Surface) -> String {
    read::<DotsRequest>(json.as_bytes())
        .unwrap_err()
        .worded(surface)
}

#[test]
fn a_request_reads_as_serde_json_reads_it() {
    let json = r#"{"game":"boxes","rows":2,"cols":3,"moves":["1-2","2-3"],"time":2.5,"window":[-1,0],"detail":"value","strategy":"free-table"}"#;
    let ours: DotsRequest = read(json.as_bytes()).unwrap();
    let theirs: DotsRequest = serde_json::from_str(json).unwrap();
    assert_eq!(ours, theirs);
}

#[test]
fn faults_are_in_the_callers_terms() {
    let api = |json| fault(json, Surface::Api);
    let python = |json| fault(json, Surface::Python);
    assert_eq!(
        api(r#"{"game":"boxes","rows":99999999999999999999}"#),
        "\"rows\": 99999999999999999999 is too large (at most 4294967295)"
    );
    assert_eq!(
        python(r#"{"game":"boxes","rows":99999999999999999999}"#),
        "rows=99999999999999999999 is too large (at most 4294967295)"
    );
    assert_eq!(
        api(r#"{"game":"boxes","rows":-1}"#),
        "\"rows\": -1 must not be negative"
    );
    assert_eq!(
        api(r#"{"game":"boxes","rows":1e3}"#),
        "\"rows\": 1e3 is not a whole number"
    );
    assert_eq!(
        api(r#"{"game":"boxes","rows":"x"}"#),
        "\"rows\" must be a whole number, not `\"x\"`"
    );
    assert_eq!(
        python(r#"{"game":"boxes","rows":null,"cols":true}"#),
        "cols must be a whole number, not `True`"
    );
    assert_eq!(
        api("[]"),
        "the request must be an object of keys and values, not `[]`"
    );
    assert_eq!(
        api("null"),
        "the request must be an object of keys and values, not `null`"
    );
    assert_eq!(
        api(r#""x""#),
        "the request must be an object of keys and values, not `\"x\"`"
    );
    assert_eq!(
        api("{\"game\":"),
        "the request is not JSON: EOF while parsing a value (line 1, column 8)"
    );
    assert_eq!(api("{}"), "\"game\" is missing");
    assert_eq!(
        api(r#"{"game":"boxes","strategy":"fast"}"#),
        "\"strategy\" must be one of \"auto\", \"recursion\", \"memo\", \"table\", \"free-table\", \"search\", not `\"fast\"`"
    );
    assert_eq!(
        api(r#"{"game":"boxes","colour":1}"#),
        "unknown key \"colour\" (the keys are \"game\", \"size\", \"rows\", \"cols\", \"moves\", \"played\", \"detail\", \"strategy\", \"tie_order\", \"time\", \"window\", \"lines\")"
    );
    assert_eq!(
        python(r#"{"game":"boxes","moves":42}"#),
        "moves must be one text (\"2-4 4-5\") or a list of texts ([\"2-4\", \"4-5\"]), not `42`"
    );
    assert_eq!(
        api(r#"{"game":"boxes","window":[1,2,3]}"#),
        "\"window\" must be a list of 2, not `[1,2,3]`"
    );
    assert_eq!(
        api(r#"{"game":"boxes","window":[1,"x"]}"#),
        "\"window\" item 2 must be a whole number, not `\"x\"`"
    );
    assert_eq!(
        api(r#"{"game":"boxes","game":"triangles"}"#),
        "\"game\" is given twice"
    );
}

#[test]
fn a_front_ends_own_keys_beside_a_request() {
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Seed {
        seed: Option<u64>,
    }
    let (request, seed): (DotsRequest, Seed) =
        read_beside(br#"{"game":"triangles","seed":7}"#, &["seed"]).unwrap();
    assert_eq!((request.game.as_str(), seed.seed), ("triangles", Some(7)));
    let e =
        read_beside::<DotsRequest, Seed>(br#"{"game":"triangles","x":7}"#, &["seed"]).unwrap_err();
    assert!(
        e.worded(Surface::Api).ends_with(", \"lines\", \"seed\")"),
        "{e}"
    );
    let e = read_beside::<DotsRequest, Seed>(br#"{"game":"triangles","seed":-7}"#, &["seed"])
        .unwrap_err();
    assert_eq!(e.to_string(), "\"seed\": -7 must not be negative");
}

#[test]
fn numbers_are_quoted_as_the_caller_wrote_them() {
    let api = |json| fault(json, Surface::Api);
    let python = |json| fault(json, Surface::Python);
    // Inside a list or an object, not re-printed as a float (`1.8446744073709552e+19`).
    assert_eq!(
        api(r#"{"game":"boxes","window":[18446744073709551616,1,2]}"#),
        "\"window\" must be a list of 2, not `[18446744073709551616,1,2]`"
    );
    assert_eq!(
        python(r#"{"game":"boxes","moves":[18446744073709551616, true, null]}"#),
        "moves must be one text (\"2-4 4-5\") or a list of texts ([\"2-4\", \"4-5\"]), not `[18446744073709551616, True, None]`"
    );
    assert_eq!(
        api(r#"{"game":"boxes","moves":{"a":1180591620717411303424}}"#),
        "\"moves\" must be one text (\"2-4 4-5\") or a list of texts ([\"2-4\", \"4-5\"]), not `{\"a\":1180591620717411303424}`"
    );
    // A time in seconds, however it is written.
    for (written, why) in [
        (
            "18446744073709551616",
            "is over the longest time accepted, 24 h",
        ),
        ("1E+5", "is over the longest time accepted, 24 h"),
        ("1e-300", "is no time at all; give more than 0 s"),
        ("-0.0", "is no time at all; give more than 0 s"),
    ] {
        let json = format!(r#"{{"game":"boxes","time":{written}}}"#);
        let request: DotsRequest = read(json.as_bytes()).unwrap();
        let e = request.validate().unwrap_err();
        assert_eq!(
            e.worded(Surface::Python),
            format!("time: `{written}` {why}")
        );
    }
    let two_and_a_half: DotsRequest = read(br#"{"game":"boxes","time":2.5}"#).unwrap();
    let time = two_and_a_half.validate().unwrap().time;
    assert_eq!(time, Some(std::time::Duration::from_millis(2500)));
    // Written back as the number it was.
    let json = serde_json::to_string(&two_and_a_half).unwrap();
    assert!(json.contains(r#""time":2.5"#), "{json}");
}

#[test]
fn a_key_the_caller_wrote_is_quoted_cut_and_escaped() {
    let key = format!("{}\\n\\u202e", "x".repeat(60));
    let json = format!(r#"{{"game":"boxes","{key}":1}}"#);
    let cut = format!("{}…", "x".repeat(40));
    assert_eq!(
        fault(&json, Surface::Python),
        format!("unknown argument {cut} (the arguments are game, size, rows, cols, moves, played, detail, strategy, tie_order, time, window, lines)")
    );
    let short = r#"{"game":"boxes","a\tb":1}"#;
    assert!(
        fault(short, Surface::Api).starts_with(r#"unknown key "a\tb" (the keys are"#),
        "{}",
        fault(short, Surface::Api)
    );
}

#[test]
fn one_key_given_under_two_names_is_refused_naming_both() {
    // `played` (a report's name for the moves) is another name for `moves`.
    let both = r#"{"game":"boxes","moves":"1-2","played":["2-3"]}"#;
    assert_eq!(
        fault(both, Surface::Api),
        "\"played\" is another name for \"moves\", which is given too: give one of them"
    );
    assert_eq!(
        fault(both, Surface::Python),
        "played is another name for moves, which is given too: give one of them"
    );
    let other_order = r#"{"game":"boxes","played":["2-3"],"rows":2,"cols":2,"moves":"1-2"}"#;
    assert_eq!(
        fault(other_order, Surface::Api),
        "\"moves\" is another name for \"played\", which is given too: give one of them"
    );
    // The same name twice is said so, under the name written.
    assert_eq!(
        fault(r#"{"game":"boxes","played":[],"played":[]}"#, Surface::Api),
        "\"played\" is given twice"
    );
    // Either name alone is read.
    for one in [
        r#"{"game":"boxes","played":["1-2"]}"#,
        r#"{"game":"boxes","moves":"1-2"}"#,
    ] {
        let request: DotsRequest = read(one.as_bytes()).unwrap();
        assert_eq!(request.moves.text(), "1-2");
    }
}

/// A request's key set to `null` counts as not given, whatever its type (an optional number, a
/// word, a list): the default board, `"cols"` alone (refused later, as without the null), no
/// moves. A key given twice is refused even
/// when one of them is `null`, and an unknown key set to `null` is still unknown.
#[test]
fn a_key_set_to_null_counts_as_not_given() {
    let read_ = |json: &str| read::<DotsRequest>(json.as_bytes());
    let given: DotsRequest =
        read_(r#"{"game":"triangles","size":null,"moves":null,"detail":null}"#).unwrap();
    let absent: DotsRequest = read_(r#"{"game":"triangles"}"#).unwrap();
    assert_eq!(given, absent);
    assert_eq!(given.size, None);
    assert_eq!(
        read_(r#"{"game":"boxes","rows":null,"cols":2}"#).unwrap(),
        read_(r#"{"game":"boxes","cols":2}"#).unwrap()
    );
    assert_eq!(
        fault(r#"{"game":"boxes","rows":2,"rows":null}"#, Surface::Api),
        "\"rows\" is given twice"
    );
    assert!(
        fault(r#"{"game":"boxes","bogus":null}"#, Surface::Api)
            .starts_with("unknown key \"bogus\""),
        "{}",
        fault(r#"{"game":"boxes","bogus":null}"#, Surface::Api)
    );
}
