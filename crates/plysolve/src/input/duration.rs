//! Times as users write them: `30s`, `500ms`, `2m`, `1m 30s`, or a bare number of seconds (`2.5`).

use super::quote;
use std::time::Duration;
use thiserror::Error;

/// The longest time accepted: a day (a longer budget is a typo, and would overflow no clock).
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);

/// A time that does not parse or is out of range.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TimeError {
    /// Not a time at all.
    #[error("{} is not a time (write 30s, 500ms, 2m or a number of seconds)", quote(.0))]
    NotATime(String),
    /// Zero or negative: nothing could be done in it.
    #[error("{} is no time at all; give more than 0 s", quote(.0))]
    NotPositive(String),
    /// Over [`MAX_TIME`].
    #[error("{} is over the longest time accepted, 24 h", quote(.0))]
    TooLong(String),
}

/// Parses a time: a number of seconds, or a number with units as `humantime` reads them.
pub fn parse_time(text: &str) -> Result<Duration, TimeError> {
    let trimmed = text.trim();
    let time = match trimmed.parse::<f64>() {
        Ok(seconds) => seconds_to_duration(seconds, text)?,
        Err(_) => humantime::parse_duration(trimmed).map_err(|e| match e {
            // Past what humantime counts (a fraction below a nanosecond overflows too).
            humantime::DurationError::NumberOverflow if !trimmed.contains('.') => {
                TimeError::TooLong(text.to_string())
            }
            _ => TimeError::NotATime(text.to_string()),
        })?,
    };
    check_time(time, text)
}

/// A number of seconds as a time, refused when not finite, not positive, or over [`MAX_TIME`];
/// `text` is what the user wrote, for the message.
pub fn seconds_to_duration(seconds: f64, text: &str) -> Result<Duration, TimeError> {
    if seconds.is_nan() || seconds.is_infinite() && seconds > 0.0 {
        return Err(if seconds.is_nan() {
            TimeError::NotATime(text.to_string())
        } else {
            TimeError::TooLong(text.to_string())
        });
    }
    if seconds <= 0.0 {
        return Err(TimeError::NotPositive(text.to_string()));
    }
    if seconds > MAX_TIME.as_secs_f64() {
        return Err(TimeError::TooLong(text.to_string()));
    }
    check_time(Duration::from_secs_f64(seconds), text)
}

fn check_time(time: Duration, text: &str) -> Result<Duration, TimeError> {
    if time.is_zero() {
        Err(TimeError::NotPositive(text.to_string()))
    } else if time > MAX_TIME {
        Err(TimeError::TooLong(text.to_string()))
    } else {
        Ok(time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_units() {
        assert_eq!(parse_time("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_time("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_time("1m 30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_time(" 2.5 "), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_time("24h"), Ok(MAX_TIME));
    }

    #[test]
    fn faults_quote_the_text() {
        assert_eq!(
            parse_time("soon").unwrap_err().to_string(),
            "`soon` is not a time (write 30s, 500ms, 2m or a number of seconds)"
        );
        assert_eq!(
            parse_time("0s").unwrap_err().to_string(),
            "`0s` is no time at all; give more than 0 s"
        );
        assert_eq!(
            parse_time("-3").unwrap_err(),
            TimeError::NotPositive("-3".into())
        );
        assert_eq!(parse_time("25h"), Err(TimeError::TooLong("25h".into())));
        assert_eq!(parse_time("inf"), Err(TimeError::TooLong("inf".into())));
        assert_eq!(parse_time("NaN"), Err(TimeError::NotATime("NaN".into())));
        // Past what humantime counts is too long, whatever the unit.
        for text in [
            "99999999999999999999999h",
            "18446744073709551615h",
            "99999999999999999999999s",
        ] {
            assert_eq!(parse_time(text), Err(TimeError::TooLong(text.into())));
        }
        assert_eq!(
            parse_time("0.5ns"),
            Err(TimeError::NotATime("0.5ns".into()))
        );
    }
}
