//! Requests read from JSON (`plysolve::input::json`), as the API reads its bodies and the Python
//! package its arguments, with the dots request (numbers kept as written, a time in seconds or with
//! units, one key under two names).

use plysolve::games::dots::request::DotsRequest;
use plysolve::input::json::read;
use plysolve::input::surface::{Surface, Worded};

/// The longest a fault's message may be: the request's keys listed, a place, what was written cut
/// to 40 characters.
const MOST_MESSAGE_CHARS: usize = 1024;

/// Checks a dots request read from JSON: a request read is written back as JSON that reads to a
/// request written back the same (numbers keep their text); a fault is, for the API and for
/// Python, one non-empty line of at most 1 024 characters with no control
/// character (what the caller wrote is quoted cut and escaped).
pub fn check_json_request(data: &[u8]) {
    match read::<DotsRequest>(data) {
        Ok(request) => {
            let written = serde_json::to_vec(&request).expect("a request has a JSON form");
            let again: DotsRequest = read(&written).expect("a request written back is read");
            let rewritten = serde_json::to_vec(&again).expect("a request has a JSON form");
            assert_eq!(
                String::from_utf8_lossy(&rewritten),
                String::from_utf8_lossy(&written),
                "written back twice"
            );
        }
        Err(fault) => {
            for surface in [Surface::Api, Surface::Python] {
                let message = fault.worded(surface);
                assert!(!message.is_empty(), "an empty message");
                assert!(
                    message.chars().count() <= MOST_MESSAGE_CHARS,
                    "a message of {} characters: {message}",
                    message.chars().count()
                );
                assert!(
                    !message.chars().any(char::is_control),
                    "a control character in {message:?}"
                );
            }
        }
    }
}
