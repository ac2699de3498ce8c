//! A stable fingerprint of bytes: the same in every process, build and version (unlike the
//! standard library's randomly keyed hashers), so that processes can name and check what they
//! share by it.

/// FNV-1a of `bytes` (64 bits): a stable fingerprint, usable in constants.
pub const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x100_0000_01b3);
        i += 1;
    }
    hash
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_published_values() {
        // The FNV-1a test vectors of its authors' reference (`""`, `"a"`, `"foobar"`).
        assert_eq!(super::fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(super::fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(super::fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
