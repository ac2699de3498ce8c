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
    let time = match trimmed.parse::<f64>().ok().or_else(|| one_unit(trimmed)) {
        Some(seconds) => seconds_to_duration(seconds, text)?,
        None if trimmed.starts_with('-') && humantime::parse_duration(&trimmed[1..]).is_ok() => {
            return Err(TimeError::NotPositive(text.to_string()))
        }
        None => humantime::parse_duration(trimmed).map_err(|e| match e {
            // Past what humantime counts (a fraction below a nanosecond overflows too).
            humantime::DurationError::NumberOverflow if !trimmed.contains('.') => {
                TimeError::TooLong(text.to_string())
            }
            _ => TimeError::NotATime(text.to_string()),
        })?,
    };
    check_time(time, text)
}

/// The seconds of one number with one unit, the number as any number is written (`1.5m`, `1e3s`,
/// `-1s`: humantime reads neither exponents nor signs), so that `1e30s` is read as `1e30` is.
fn one_unit(text: &str) -> Option<f64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')?;
    let (number, unit) = text.split_at(split);
    let factor = match unit.trim() {
        "ns" => 1e-9,
        "us" | "µs" => 1e-6,
        "ms" => 1e-3,
        "s" | "sec" | "secs" => 1.0,
        "m" | "min" | "mins" => 60.0,
        "h" | "hr" | "hrs" => 3600.0,
        _ => return None,
    };
    number.trim().parse::<f64>().ok().map(|n| n * factor)
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
    // Under a nanosecond is no time a clock counts.
    if seconds < 1e-9 {
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
        // One number with one unit is read as any number is: exponents and signs too.
        assert_eq!(parse_time("1e3ms"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_time("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_time("1e30s"), Err(TimeError::TooLong("1e30s".into())));
        assert_eq!(parse_time("1e30"), Err(TimeError::TooLong("1e30".into())));
        assert_eq!(parse_time("-1s"), Err(TimeError::NotPositive("-1s".into())));
        assert_eq!(parse_time("-1"), Err(TimeError::NotPositive("-1".into())));
        assert_eq!(
            parse_time("-1m 30s"),
            Err(TimeError::NotPositive("-1m 30s".into()))
        );
        assert_eq!(parse_time("1e3x"), Err(TimeError::NotATime("1e3x".into())));
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
            Err(TimeError::NotPositive("0.5ns".into()))
        );
    }
}
