//! The page: every file of `static/`, compiled into the binary (nothing to build, nothing read
//! from disk; `build.rs` lists them), each served at its own path with its type, `index.html` at
//! `/`. Its game menu and the scripts of each game's page come from the registry
//! (`GET /api/games`), so a new game's page is one file in `static/`.

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// Every file of the page: its path, its content type and its text.
const FILES: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/page_files.rs"));

/// `router` with a GET route for every file of the page.
pub fn routes<S: Clone + Send + Sync + 'static>(mut router: Router<S>) -> Router<S> {
    for &(path, content_type, text) in FILES {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_script_a_page_loads_is_served() {
        let served: Vec<&str> = FILES.iter().map(|&(path, _, _)| path).collect();
        for game in plysolve::games::registry::games() {
            for page in game.pages {
                for script in page.scripts {
                    assert!(served.contains(&format!("/{script}").as_str()), "{script}");
                }
            }
        }
        assert!(served.contains(&"/") && served.contains(&"/app.js"));
    }
}
