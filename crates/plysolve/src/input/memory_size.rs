//! Memory sizes as people write them (`8G`, `512M`, `1.5GiB`, `1000000`): the `--memory` reader.
//! The budget it feeds is the engine's ([`crate::engine::MemoryBudget`]); reading the user's text is
//! this module's.

use super::quote;
use thiserror::Error;

/// Why a memory size could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MemorySizeError {
    /// Not a size at all: the input quoted (at most 40 characters, control characters escaped)
    /// and what is wrong with it.
    #[error("{quoted} is not a memory size like 8G or 512M ({reason})")]
    NotASize {
        /// The input, quoted.
        quoted: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A size of no bytes (`0`, `0.0001K`): no work can be done in it, so it is refused where it
    /// is read, on every surface alike, not later by the solver.
    #[error("{0} is no memory at all: give a size like 1G")]
    Nothing(String),
    /// A size below nothing (`-1`, `-2G`): said so, rather than in the size reader's words.
    #[error("{0} must not be negative: give a size like 1G")]
    Negative(String),
}

/// The most digits a memory size may have (18 digits of bytes are already 888 PiB).
const MAX_SIZE_DIGITS: usize = 18;

/// The largest memory size: 18 digits of bytes.
const MAX_SIZE_BYTES: u64 = 999_999_999_999_999_999;

/// Parses a memory size such as `8G`, `512M`, `1.5GiB` or `1000000` (bytes); K, M, G, T are binary.
pub fn parse_memory_size(text: &str) -> Result<u64, MemorySizeError> {
    // No memory size needs more than 18 digits, and parse-size 1.1 overflows rounding a 21-digit
    // number up (found by fuzzing): such input is refused before it is handed on.
    if text.bytes().filter(u8::is_ascii_digit).count() > MAX_SIZE_DIGITS {
        return Err(MemorySizeError::NotASize {
            quoted: quote(text),
            reason: format!("more than {MAX_SIZE_DIGITS} digits"),
        });
    }
    if text
        .trim_start()
        .strip_prefix('-')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
    {
        return Err(MemorySizeError::Negative(quote(text)));
    }
    // `1Gb`, `512Mb`, `2Gib`: a capital unit and a small b is the way bits are written; read as
    // bytes it would be 8 times what was meant, so it is refused (`1gb`, all small, stays bytes).
    let unit = text.trim_end();
    if unit.ends_with('b') && unit.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(MemorySizeError::NotASize {
            quoted: quote(text),
            reason: "a small b after a capital unit is bits: write B, or the unit alone".into(),
        });
    }
    let bytes = parse_size::Config::new()
        .with_binary()
        .parse_size(text)
        .map_err(|e| MemorySizeError::NotASize {
            quoted: quote(text),
            reason: e.to_string(),
        })?;
    // A unit can carry a short number past 18 digits of bytes (`5151.55p`); such a size could not be
    // written back in bytes, so it is refused the same way (found by fuzzing).
    if bytes > MAX_SIZE_BYTES {
        return Err(MemorySizeError::NotASize {
            quoted: quote(text),
            reason: format!("more than {MAX_SIZE_DIGITS} digits in bytes"),
        });
    }
    if bytes == 0 {
        return Err(MemorySizeError::Nothing(quote(text)));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    #[test]
    fn bits_are_refused_and_small_letters_are_bytes() {
        for bits in ["1Gb", "512Mb", "2Gib", "1 Tb "] {
            assert_eq!(
                parse_memory_size(bits),
                Err(MemorySizeError::NotASize {
                    quoted: quote(bits),
                    reason: "a small b after a capital unit is bits: write B, or the unit alone"
                        .into()
                }),
                "{bits}"
            );
        }
        assert_eq!(parse_memory_size("1gb"), Ok(GIB));
        assert_eq!(parse_memory_size("1GB"), Ok(GIB));
        assert_eq!(parse_memory_size("1GiB"), Ok(GIB));
        assert_eq!(parse_memory_size("64b"), Ok(64));
    }

    #[test]
    fn parses_memory_sizes() {
        assert_eq!(parse_memory_size("8G"), Ok(8 * GIB));
        assert_eq!(parse_memory_size("512M"), Ok(512 << 20));
        assert_eq!(parse_memory_size("1.5GiB"), Ok(3 * GIB / 2));
        assert_eq!(parse_memory_size("1000000"), Ok(1_000_000));
        for nothing in ["0", "0K", "0.0001K"] {
            assert_eq!(
                parse_memory_size(nothing).unwrap_err().to_string(),
                format!("`{nothing}` is no memory at all: give a size like 1G")
            );
        }
        for negative in ["-1", " -2G", "-.5M"] {
            assert_eq!(
                parse_memory_size(negative).unwrap_err().to_string(),
                format!("`{negative}` must not be negative: give a size like 1G")
            );
        }
        assert_eq!(
            parse_memory_size("lots").unwrap_err().to_string(),
            "`lots` is not a memory size like 8G or 512M (invalid digit found in string)"
        );
        let long = format!("\u{1}{}", "9".repeat(100));
        assert_eq!(
            parse_memory_size(&long).unwrap_err().to_string(),
            format!(
                "`\\x01{}…` is not a memory size like 8G or 512M (more than 18 digits)",
                "9".repeat(36)
            )
        );
        // parse-size 1.1 overflows rounding these up; they are refused before it sees them.
        for text in ["184467440737095516157", "1844674407370955161.55"] {
            assert_eq!(
                parse_memory_size(text).unwrap_err().to_string(),
                format!("`{text}` is not a memory size like 8G or 512M (more than 18 digits)")
            );
        }
        assert_eq!(
            parse_memory_size("999999999999999999"),
            Ok(999_999_999_999_999_999)
        );
        // A unit carries a short number past 18 digits of bytes: refused too (found by fuzzing).
        assert_eq!(
            parse_memory_size("5151.55p").unwrap_err().to_string(),
            "`5151.55p` is not a memory size like 8G or 512M (more than 18 digits in bytes)"
        );
        assert_eq!(parse_memory_size("888P"), Ok(888 << 50));
    }
}
