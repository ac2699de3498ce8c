//! `ply play` driven through a pipe: whole games to the end, hints, undo, bad commands, end of input.

use crate::common;

use common::stdout_of;

#[test]
fn triangles_a_whole_game_with_a_bad_command() {
    // Size 1: three edges, one triangle. A plays 1-2; whatever B answers, A's move onto the edge B took
    // is refused with a hint, and A's other move closes the triangle.
    let out = stdout_of(
        &["play", "triangles", "--size", "1", "--seed", "1"],
        Some("1-2\n2-3\n1-3\n"),
    );
    assert!(out.starts_with(
        "You against ply, which thinks up to 3 s a move (seed 1). Commands: a move like 2-3, hint, \
         undo, redo, lines, line N, help, quit.\n"
    ));
    // Every move is graded as it is played.
    assert!(out.contains("> A (you) plays 1-2: best (+1)\n"));
    assert!(out.contains("B (ply) plays 2-3 (value -1, proved best)\n"));
    assert!(out.contains(
        "> edge 2-3 is already drawn (by move 2) (type a move like 2-3, or hint, undo, redo, lines, \
         line N, help, quit)\n"
    ));
    assert!(out.contains("> A (you) plays 1-3 and scores 1; moves again: best (+1)\n"));
    assert!(out.ends_with(
        "  1\n /A\\\n2---3\n\nScore: A 1, B 0.\nGame over: A 1, B 0: A (you) wins by 1.\n\
         A (you): 2 moves: 2 best.\nB (ply): 1 move: 1 best.\n"
    ));
}

#[test]
fn triangles_hint_on_the_classic_board_and_watching_a_perfect_game() {
    let out = stdout_of(&["play", "triangles", "--seed", "2"], Some("hint\nquit\n"));
    // The empty classic board is worth -3 to A whatever A does; moves equal under a symmetry of
    // the board share a line.
    assert!(out.contains(
        "Moves for A (you), best first (value = net triangles still to gain, by table):\n\
         \x20    1-2    -3  (also 1-3, 4-7, 6-10, 7-8, 9-10)\n\
         \x20    2-5    -3  (also 3-5, 4-5, 5-6, 5-8, 5-9)\n\
         \x20    2-3    -5  (also 4-8, 6-9)\n\
         \x20    2-4    -5  (also 3-6, 8-9)\n> "
    ));
    assert!(out.ends_with("> You left the game.\n"));
    // Two perfect players end the game with the value of the empty board: B wins by 3.
    let watched = stdout_of(&["play", "triangles", "--watch", "--seed", "4"], None);
    assert!(watched.starts_with("ply against itself, up to 3 s a move (seed 4)."));
    assert_eq!(watched.matches(" (ply) plays ").count(), 18);
    assert_eq!(watched.matches(", proved best)").count(), 18);
    assert!(watched.ends_with("Game over: A 3, B 6: B (ply) wins by 3.\nA (ply): 8 moves: 8 best.\nB (ply): 10 moves: 10 best.\n"));
}

#[test]
fn triangles_undo_takes_back_the_reply_too() {
    let out = stdout_of(
        &["play", "triangles", "--size", "2", "--seed", "3"],
        Some("undo\nredo\n2-3\nundo\nredo\nredo\n"),
    );
    assert!(out.contains("> Nothing to undo: you have not moved yet.\n"));
    assert!(out.contains("> Nothing to redo.\n> A (you) plays 2-3: "));
    assert!(out.contains("B (ply) plays 2-4 (value +2, proved best)\n"));
    // After the undo the board is empty again, A to move; redo plays both moves again.
    assert!(out.contains(
        "> Took back your last move and the replies to it.\n\n    1\n   . .\n  2 . 3\n . . . .\n4 . 5 . 6\n\n\
         Score: A 0, B 0. A to move (you).\n"
    ));
    assert!(out.ends_with(
        "> Played again what undo took back.\n\n    1\n   . .\n  2---3\n / . . .\n4 . 5 . 6\n\n\
         Score: A 0, B 0. A to move (you).\n> Nothing to redo.\n> \nEnd of input: the game is left unfinished.\n"
    ));
}

#[test]
fn ply_moves_first_and_boxes_play_to_the_end() {
    // One box: the fourth edge scores it, so the second player (you, here) wins.
    let out = stdout_of(
        &[
            "play", "boxes", "--rows", "1", "--cols", "1", "--first", "ply", "--seed", "5",
        ],
        Some("1-2\n1-3\n2-4\n3-4\n"),
    );
    assert!(out.contains("Score: A 0, B 0. A to move (ply).\nA (ply) plays "));
    assert_eq!(out.matches("(ply) plays").count(), 2);
    assert!(out.contains("A (ply) plays 1-3 (value -1, proved best)\n"));
    assert!(out.contains("> edge 1-3 is already drawn (by move 1)"));
    assert!(out.contains("> B (you) plays 2-4 and scores 1; moves again: best (+1)\n"));
    assert!(out.ends_with(
        "1---2\n| B |\n3---4\n\nScore: A 0, B 1.\nGame over: A 0, B 1: B (you) wins by 1.\n\
         A (ply): 2 moves: 2 best.\nB (you): 2 moves: 2 best.\n"
    ));
    // Too long, blank, and unknown dots get one-line hints; the game goes on.
    let long = "9".repeat(60);
    let out = stdout_of(
        &["play", "boxes", "--rows", "1", "--cols", "1", "--seed", "5"],
        Some(&format!("{long}\n\n7-8\nquit\n")),
    );
    assert!(out.contains(&format!("> `{}…` is too long to be a command", &long[..40])));
    assert!(
        out.contains("> Type a move like 2-3, or hint, undo, redo, lines, line N, help, quit.\n")
    );
    assert!(out.contains("> dot 7 does not exist (this board has dots 1 to 4)"));
}

#[test]
fn boxes_4x4_says_plainly_what_the_time_to_think_did_not_prove() {
    // The empty 4×4 board is proved only in minutes: in 0.1 s, with no book, nothing is proved of
    // any move. Bounds
    // as wide as the cells left (-16..+16) are no result: every move is "not proved yet", the
    // user's move is not graded, and ply's reply says it was estimated.
    let out = stdout_of(
        &[
            "play",
            "boxes",
            "--rows",
            "4",
            "--cols",
            "4",
            "--think",
            "100ms",
            "--seed",
            "1",
            "--no-book",
        ],
        Some("hint\n1-2\nquit\n"),
    );
    assert!(out.starts_with("You against ply, which thinks up to 0.1 s a move (seed 1)."));
    assert!(out.contains(
        "> Moves for A (you), best first (value = net boxes still to gain, by search; bounds, or \
         \"not proved yet\", where it is not proved in the time to think):\n\
         \x20    1-2  not proved yet  (also 1-6, 4-5, 5-10, 16-21, 20-25, 21-22, 24-25)\n\
         \x20    2-3  not proved yet  (also 3-4, 6-11, 10-15, 11-16, 15-20, 22-23, 23-24)\n"
    ));
    assert!(!out.contains("-16..+16"));
    assert!(out.contains("> A (you) plays 1-2: not graded: not proved in the time to think\n"));
    assert_eq!(out.matches("B (ply) plays ").count(), 1);
    assert!(out.contains("B (ply) plays ") && out.contains("; not proved yet)\n"));
    assert!(out.ends_with("> You left the game.\n"));
}

#[test]
fn heaps_a_whole_game_hint_and_undo() {
    let out = stdout_of(
        &["play", "heaps", "2", "3", "--seed", "1"],
        Some("hint\n1\nundo\nundo\nfive\n4\nall\n"),
    );
    assert!(out.contains(
        "> Moves for A (you), best first:\n  take 1           wins, 3 moves to the end\n  take 2           loses, 2 moves to the end\n"
    ));
    // Losing, the perfect player makes the game last.
    assert!(out.contains("B (ply) takes 1 from heap 1 (loses, 2 moves to the end)\n"));
    assert!(out.contains("> Took back your last move and the replies to it.\n"));
    assert!(out.contains("> Nothing to undo: you have not moved yet.\n"));
    assert!(out.contains("> `five` is not a number of counters"));
    assert!(out.contains("> heap 1 has 2 counters: take 1 to 2"));
    assert!(out.contains("> A (you) takes 2 from heap 1\n"));
    // Winning, it hurries.
    assert!(out.ends_with(
        "B (ply) takes 3 from heap 2 (wins, 1 move to the end)\n\nheap 1:   0 \nheap 2:   0 \n\
         Game over: B (ply) wins: took the last counter.\n"
    ));
    let misere = stdout_of(
        &["play", "heaps", "1", "--misere", "--seed", "1"],
        Some("1\n"),
    );
    assert!(misere.ends_with("Game over: B (ply) wins: did not take the last counter.\n"));
    let one = stdout_of(&["play", "heaps", "1", "--seed", "1"], Some("2\n1\n"));
    assert!(
        one.contains("> heap 1 has 1 counter: take 1 (type"),
        "{one}"
    );
}

#[test]
fn a_move_after_undo_keeps_the_line_undone() {
    let out = stdout_of(
        &["play", "heaps", "5", "5", "5", "--seed", "1"],
        Some("1\nundo\n2\nlines\nline 1\nredo\nlines\nline 7\nquit\n"),
    );
    let kept = "> Lines kept (line N goes to one; redo then plays it):\n  1. from your move 1: ";
    assert!(
        out.contains(&format!("{kept}A (you) takes 1 from heap 1\n")),
        "{out}"
    );
    assert!(out.contains(
        "> Back at your move 1, where line 1 branches (the line left is kept); redo plays it.\n"
    ));
    assert!(out.contains("> Played again what undo took back.\n"));
    // After redo the game is on the first line, and the line left (taking 2) is the one kept.
    assert!(
        out.contains(&format!("{kept}A (you) takes 2 from heap 1\n")),
        "{out}"
    );
    assert!(out.contains("> No line `7` branches from this game's line (lines lists them)\n"));
    let none = stdout_of(
        &["play", "heaps", "5", "--seed", "1"],
        Some("lines\nquit\n"),
    );
    assert!(none.contains("> No other line: a move played after undo keeps the line undone.\n"));
}

#[test]
fn dice_race_roll_by_roll_with_exact_chances() {
    let out = stdout_of(
        &["play", "dice-race", "5,6,7", "7,8", "--seed", "10"],
        Some("\n\nbad\n"),
    );
    assert!(out.starts_with(
        "Dice race with 2 dice of 6 sides (seed 10). Press Enter to roll, or type quit.\n\
         first  5 6 7\nsecond 7 8\n\
         \x20 P(first wins)  = 2693/11088 ≈ 0.242875\n\
         \x20 P(second wins) = 31769/55440 ≈ 0.573034\n\
         \x20 P(tie)         = 81/440 ≈ 0.184091\n"
    ));
    // Seed 10 rolls 7 then 6 (each die's face drawn in turn); with 5 against 8 left, the chances are 4/36 against 5/36.
    assert!(out.contains("> roll 1: 7 (both cross it off)\nfirst  5 6 ~7~\nsecond ~7~ 8\n"));
    assert!(out.contains(
        "> roll 2: 6 (first crosses it off)\nfirst  5 ~6~ ~7~\nsecond ~7~ 8\n\
         \x20 P(first wins)  = 4/9 ≈ 0.444444\n  P(second wins) = 5/9 ≈ 0.555556\n  P(tie)         = 0 ≈ 0.000000\n"
    ));
    assert!(out.contains("> `bad` is not a command: press Enter to roll, or type quit\n"));
    assert!(out.ends_with("> \nEnd of input: the race is left unfinished.\n"));
}

#[test]
fn dice_race_auto_runs_to_the_end() {
    let out = stdout_of(
        &[
            "play",
            "dice-race",
            "5,6,7,8,9",
            "5,6,7,8,7",
            "--auto",
            "--seed",
            "167",
        ],
        None,
    );
    assert!(out.contains("P(first wins)  = 1138029621/3424590400 ≈ 0.332311\n"));
    assert_eq!(out.matches("\nroll ").count(), 18);
    assert!(out.ends_with(
        "first  ~5~ ~6~ ~7~ ~8~ ~9~\nsecond ~5~ ~6~ ~7~ ~8~ ~7~\n\
         Race over after 18 rolls: a tie: both lists are crossed off on the same roll.\n"
    ));
}

#[test]
fn the_opening_of_a_board_in_the_shipped_book_is_exact_at_once() {
    // 3×4 boxes: every position up to two moves is in the shipped book. In 0.1 s a turn, every move
    // of the empty board is valued exactly, the user's move graded and ply's reply proved best.
    let out = stdout_of(
        &[
            "play", "boxes", "--rows", "3", "--cols", "4", "--think", "100ms", "--seed", "1",
        ],
        Some("hint\n3-8\nquit\n"),
    );
    assert!(out.contains(
        "> Moves for A (you), best first (value = net boxes still to gain, by book):\n\
         \x20    3-8     0  (also 13-18)\n\
         \x20   8-13     0\n\
         \x20    1-2    -2  (also 4-5, 16-17, 19-20)\n"
    ));
    assert!(out.contains("> A (you) plays 3-8: best (0)\n"));
    assert!(out.contains("B (ply) plays 14-19 (value 0, proved best)\n"));
}

/// The hint after a heaps line that cannot be a move or a command.
fn heaps_hint(hint: &str) -> String {
    format!(
        "> {hint} (type a number of counters to take (or all), or hint, undo, redo, lines, line N, \
         help, quit)\n"
    )
}

#[test]
fn lines_too_long_not_utf8_or_with_control_bytes_get_a_hint_and_the_game_goes_on() {
    // A line of 5 000 bytes (the bound is 4 096), one not UTF-8, one with an escape (an arrow key),
    // one with a NUL, each ended differently; then a move.
    let mut input = vec![b'1'; 5000];
    input.extend_from_slice(b"\r\n\xff\xfe1\r\x1b[A\n1\x002\n1\n");
    let output = common::ply()
        .args(["play", "heaps", "2", "3", "--seed", "1"])
        .write_stdin(input)
        .assert()
        .success()
        .stderr("")
        .get_output()
        .clone();
    let out = String::from_utf8(output.stdout).unwrap();
    let expected = [
        heaps_hint("that line is longer than 4096 bytes, which no move or command is"),
        heaps_hint("that line is not UTF-8 text (`\\xff` is no character)"),
        heaps_hint("that line holds `\\x1b`, which no move or command holds"),
        heaps_hint("that line holds `\\0`, which no move or command holds"),
        "> A (you) takes 1 from heap 1\n".to_string(),
    ]
    .concat();
    assert!(out.contains(&expected), "{out}");
    assert!(
        out.ends_with("> \nEnd of input: the game is left unfinished.\n"),
        "{out}"
    );
}

#[test]
fn a_long_line_costs_no_memory_and_an_endless_one_ends_the_game() {
    // 256 KiB without a line end, then a move, under a 256 MiB address space: ply reads the line
    // within 4 KiB, answers it with a hint and the game goes on; 256 MiB without an end (binary
    // input, `< /dev/zero`) is no one's typing: past 1 MiB the game ends with one line, at once.
    use std::io::Write;
    let run = |bytes: usize| {
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 262144; exec \"$0\" \"$@\"")
            .arg(assert_cmd::cargo::cargo_bin("ply"))
            .args(["play", "heaps", "2", "3", "--seed", "1"])
            .env_remove("PLY_PROGRESS")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let chunk = vec![b'7'; 1 << 16];
            for _ in 0..bytes / chunk.len() {
                stdin.write_all(&chunk)?;
            }
            stdin.write_all(b"\n1\nquit\n")
        });
        let output = child.wait_with_output().unwrap();
        // The game that ended early closed its input: the writer's broken pipe is expected.
        let _ = writer.join().unwrap();
        output
    };
    let output = run(256 << 10);
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(output.status.code(), Some(0));
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(
        out.contains(&format!(
            "{}> A (you) takes 1 from heap 1\n",
            heaps_hint("that line is longer than 4096 bytes, which no move or command is")
        )),
        "{out}"
    );
    assert!(out.ends_with("> You left the game.\n"), "{out}");
    let output = run(256 << 20);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "ply: line 1: the line is longer than 1048576 bytes (with any blank lines before it); no \
         valid line is that long\n"
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn dice_race_a_line_that_is_not_text_gets_a_hint() {
    let output = common::ply()
        .args(["play", "dice-race", "5,6,7", "7,8", "--seed", "10"])
        .write_stdin(&b"\xc3(\n\nquit\n"[..])
        .assert()
        .success()
        .stderr("")
        .get_output()
        .clone();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(out.contains(
        "> that line is not UTF-8 text (`\\xc3` is no character): press Enter to roll, or type quit\n> roll 1: 7"
    ), "{out}");
    assert!(out.ends_with("> You left the race.\n"), "{out}");
}
