//! The answers given so far, kept for the next identical request. Every endpoint is a pure function
//! of its path and body (the perfect player's ties are broken by the request's seed, generated boards
//! by theirs), so a repeated request is answered from here at once, without queueing for a solver:
//! what keeps a busy server's latency down once the common positions have been asked for. Identical
//! requests that arrive together are solved once: the first solves, the others wait for its answer.

use axum::body::Bytes;
use quick_cache::sync::{Cache, DefaultLifecycle, PlaceholderGuard};
use quick_cache::{DefaultHashBuilder, Weighter};
use std::sync::Arc;
use std::time::Duration;

/// Bytes of keys and answers kept at most; the least used go first.
pub const CACHE_BYTES: u64 = 64 << 20;

/// A successful answer and what computing it took.
#[derive(Debug)]
pub struct Answer {
    /// The JSON text answered.
    pub text: String,
    /// What the solve took when it ran (for `Server-Timing`).
    pub solve: Duration,
}

/// A request as the cache tells them apart: the endpoint's path and the exact body.
type Key = (&'static str, Bytes);

/// Weighs an entry by the bytes it holds.
#[derive(Clone)]
struct ByBytes;

impl Weighter<Key, Arc<Answer>> for ByBytes {
    fn weight(&self, key: &Key, answer: &Arc<Answer>) -> u64 {
        // The fixed part stands for the entry's bookkeeping, so empty bodies still weigh something.
        (64 + key.1.len() + answer.text.len()) as u64
    }
}

/// The answers cache, shared by every request.
pub struct Answers {
    cache: Cache<Key, Arc<Answer>, ByBytes>,
}

impl Default for Answers {
    fn default() -> Self {
        Answers::new(CACHE_BYTES)
    }
}

impl Answers {
    /// A cache holding up to `bytes` of requests and answers.
    pub fn new(bytes: u64) -> Self {
        Answers {
            cache: Cache::with_weighter((bytes / 1024).max(16) as usize, bytes, ByBytes),
        }
    }

    /// The answer given before to `body` on `path`, if it is kept (no waiting).
    pub fn get(&self, path: &'static str, body: &Bytes) -> Option<Arc<Answer>> {
        self.cache.get(&(path, body.clone()))
    }

    /// The answer given before to `body` on `path`, waiting for it while an identical request is
    /// being solved; otherwise a [`Pending`] slot for the caller to fill (others wait on it until it
    /// is filled or dropped).
    pub async fn get_or_pending(
        &self,
        path: &'static str,
        body: &Bytes,
    ) -> Result<Arc<Answer>, Pending<'_>> {
        self.cache
            .get_value_or_guard_async(&(path, body.clone()))
            .await
            .map_err(Pending)
    }
}

/// A request being solved: [`Pending::keep`] gives its answer to the requests waiting for it and
/// keeps it; dropped unfilled (a failed solve), the next waiting request solves instead.
pub struct Pending<'a>(
    PlaceholderGuard<
        'a,
        Key,
        Arc<Answer>,
        ByBytes,
        DefaultHashBuilder,
        DefaultLifecycle<Key, Arc<Answer>>,
    >,
);

impl Pending<'_> {
    /// Keeps `answer` and hands it to every request waiting for it.
    pub fn keep(self, answer: Arc<Answer>) {
        // Only fails when the slot was taken meanwhile, and then the answer there is as good.
        let _ = self.0.insert(answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(text: &str) -> Arc<Answer> {
        Arc::new(Answer {
            text: text.into(),
            solve: Duration::from_millis(3),
        })
    }

    /// What `answers` gives for `body` on `path`: the text kept, or `None` (and the slot dropped).
    async fn kept(answers: &Answers, path: &'static str, body: &str) -> Option<String> {
        let body = Bytes::from(body.to_owned());
        answers
            .get_or_pending(path, &body)
            .await
            .ok()
            .map(|a| a.text.clone())
    }

    async fn keep(answers: &Answers, path: &'static str, body: &str, text: &str) {
        let body = Bytes::from(body.to_owned());
        match answers.get_or_pending(path, &body).await {
            Ok(_) => panic!("{body:?} was kept already"),
            Err(pending) => pending.keep(answer(text)),
        }
    }

    #[tokio::test]
    async fn the_same_path_and_body_find_the_answer_kept() {
        let answers = Answers::default();
        let body = r#"{"heaps":[1,2]}"#;
        assert_eq!(kept(&answers, "/api/heaps", body).await, None);
        keep(&answers, "/api/heaps", body, "kept").await;
        assert_eq!(
            kept(&answers, "/api/heaps", body).await.as_deref(),
            Some("kept")
        );
        assert_eq!(kept(&answers, "/api/play/heaps", body).await, None);
        assert_eq!(
            kept(&answers, "/api/heaps", r#"{"heaps":[1,3]}"#).await,
            None
        );
    }

    #[tokio::test]
    async fn identical_requests_wait_for_the_first() {
        let answers = Arc::new(Answers::default());
        let body = Bytes::from_static(b"{}");
        let Err(pending) = answers.get_or_pending("/api/heaps", &body).await else {
            panic!("nothing was kept yet");
        };
        let waiting = {
            let (answers, body) = (answers.clone(), body.clone());
            tokio::spawn(async move {
                answers
                    .get_or_pending("/api/heaps", &body)
                    .await
                    .map(|a| a.text.clone())
                    .ok()
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "the second request waits");
        pending.keep(answer("once"));
        assert_eq!(waiting.await.unwrap().as_deref(), Some("once"));
    }

    #[tokio::test]
    async fn a_failed_solve_lets_the_next_request_solve() {
        let answers = Answers::default();
        let body = Bytes::from_static(b"{}");
        let first = answers.get_or_pending("/api/heaps", &body).await;
        assert!(first.is_err());
        drop(first);
        assert!(answers.get_or_pending("/api/heaps", &body).await.is_err());
    }

    #[tokio::test]
    async fn the_cache_stays_within_its_bytes() {
        let answers = Answers::new(64 * 1024);
        let long = "x".repeat(1000);
        for i in 0..1000 {
            keep(&answers, "/api/heaps", &format!("{{\"n\":{i}}}"), &long).await;
        }
        let mut found = 0;
        for i in 0..1000 {
            let body = format!("{{\"n\":{i}}}");
            found += usize::from(kept(&answers, "/api/heaps", &body).await.is_some());
        }
        // Each entry weighs about 1 075 bytes: about 60 fit, never all of them.
        assert!((1..=64).contains(&found), "{found} answers kept");
    }
}
