//! The page: its files, compiled into the binary (nothing to build, nothing read from disk), each
//! served at its own path with its type.

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// Every file of the page: its path, its content type and its text.
const FILES: [(&str, &str, &str); 13] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../static/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../static/style.css"),
    ),
    ("/app.js", JS, include_str!("../static/app.js")),
    ("/common.js", JS, include_str!("../static/common.js")),
    ("/move-tree.js", JS, include_str!("../static/move-tree.js")),
    ("/dots.js", JS, include_str!("../static/dots.js")),
    (
        "/dots-record.js",
        JS,
        include_str!("../static/dots-record.js"),
    ),
    ("/dots-draw.js", JS, include_str!("../static/dots-draw.js")),
    (
        "/dots-layout.js",
        JS,
        include_str!("../static/dots-layout.js"),
    ),
    ("/solitaire.js", JS, include_str!("../static/solitaire.js")),
    ("/dice-race.js", JS, include_str!("../static/dice-race.js")),
    (
        "/magic-board.js",
        JS,
        include_str!("../static/magic-board.js"),
    ),
    ("/heaps.js", JS, include_str!("../static/heaps.js")),
];

/// The content type of the scripts.
const JS: &str = "text/javascript; charset=utf-8";

/// `router` with a GET route for every file of the page.
pub fn routes<S: Clone + Send + Sync + 'static>(mut router: Router<S>) -> Router<S> {
    for (path, content_type, text) in FILES {
        router =
            router.route(
                path,
                get(move || async move {
                    ([(header::CONTENT_TYPE, content_type)], text).into_response()
                }),
            );
    }
    router
}
