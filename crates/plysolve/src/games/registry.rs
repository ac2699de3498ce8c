//! The one list of games: every front end is built from it (the server's routes and its
//! `GET /api/games`, the page's menu, the Python package's functions, the registry test). Adding a
//! game is its home with a `door.rs` stating its [`Game`], and its name in `games/mod.rs`'s `homes!`.

use super::door::{Answer, Context, Fault, FaultKind, Game, Question};
use crate::input::surface::Surface;

/// Every game, in the order the page's menu lists them (the homes `games/mod.rs` declares).
pub fn games() -> &'static [Game] {
    super::GAMES
}

/// Every question of every game, game by game.
pub fn questions() -> impl Iterator<Item = &'static dyn Question> {
    games()
        .iter()
        .flat_map(|game| game.questions.iter().copied())
}

/// The question whose server path (`/api/dice-race/best`) or Python name (`dice_race_best`) is
/// `name`.
pub fn question(name: &str) -> Option<&'static dyn Question> {
    questions().find(|q| q.about().path == name || q.about().python == name)
}

/// Asks the question named `name` (a path or a Python name) with the request `json`, its faults
/// worded for `surface`: checked, then answered under `context` whatever its cost (a front end
/// answering its own user; a server gates by the cost first).
pub fn ask(
    name: &str,
    json: &[u8],
    surface: Surface,
    context: &Context<'_>,
) -> Result<Answer, Fault> {
    let question = question(name).ok_or_else(|| Fault {
        message: format!("no question is called {}", crate::input::quote(name)),
        kind: FaultKind::Bad,
    })?;
    question.check_json(json, surface)?.answer(context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::MemoryBudget;
    use crate::games::door::Grants;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_examples_are_answered() {
        let mut paths = HashSet::new();
        let mut pythons = HashSet::new();
        let mut pages = HashSet::new();
        for game in games() {
            assert!(!game.questions.is_empty(), "{}", game.name);
            for page in game.pages {
                assert!(pages.insert(page.id), "{}", page.id);
            }
            for q in game.questions {
                let about = q.about();
                assert_eq!(about.game, game.name);
                assert!(about.path.starts_with("/api/"), "{}", about.path);
                assert!(paths.insert(about.path), "{}", about.path);
                assert!(pythons.insert(about.python), "{}", about.python);
            }
        }
        assert_eq!(pages.len(), 6);
        let context = Context::new(Grants::new(MemoryBudget::new(256 << 20)), None);
        for q in questions() {
            let about = q.about();
            let answer = ask(
                about.python,
                about.example.as_bytes(),
                Surface::Api,
                &context,
            )
            .unwrap_or_else(|f| panic!("{}: {}", about.path, f.message));
            assert!(answer.text.starts_with('{') || answer.text.starts_with('['));
            assert!(answer.text.ends_with('\n'));
        }
    }

    #[test]
    fn faults_are_worded_for_the_surface() {
        let context = Context::new(Grants::new(MemoryBudget::new(1 << 20)), None);
        let fault = ask(
            "/api/magic-board/generate",
            br#"{"size": 6, "solvable": true, "unsolvable": true}"#,
            Surface::Python,
            &context,
        )
        .unwrap_err();
        assert_eq!(
            (fault.message.as_str(), fault.kind),
            (
                "solvable=True cannot be used with unsolvable=True",
                FaultKind::Bad
            )
        );
        let fault = ask(
            "heaps",
            br#"{"heaps": [1], "colour": 1}"#,
            Surface::Api,
            &context,
        )
        .unwrap_err();
        assert_eq!(fault.kind, FaultKind::Unreadable);
        assert!(fault.message.contains("\"colour\""), "{}", fault.message);
        let fault = ask("chess", b"{}", Surface::Api, &context).unwrap_err();
        assert_eq!(fault.message, "no question is called `chess`");
    }
}
