//! The `dice_race` fuzz target: the property check of `ply_fuzz::check_dice_race`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_dice_race(data));
