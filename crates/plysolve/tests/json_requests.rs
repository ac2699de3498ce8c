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
        "\"rows\": -1 is too small (at least 0)"
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
    assert_eq!(e.to_string(), "\"seed\": -7 is too small (at least 0)");
}
