"""Every function of `plysolve` against the CLI's `--json` on the same input, its faults against the
CLI's one-line messages, and the solve's behaviour under Ctrl-C, a failing progress callback and
other Python threads."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import plysolve

# Positions answered by tables, whose reports are the same to the last field.
DOTS_CASES = [
    (dict(game="triangles"), []),
    (dict(game="triangles", moves="2-3 4-5 5-6 7-8 8-9 9-10"), ["--moves", "2-3 4-5 5-6 7-8 8-9 9-10"]),
    (dict(game="boxes", rows=2, cols=2, moves="1-2 2-3 4-5"), ["--rows", "2", "--cols", "2", "--moves", "1-2 2-3 4-5"]),
    (dict(game="boxes", rows=3, cols=3, moves="1-2 5-6 6-10 3-4"), ["--rows", "3", "--cols", "3", "--moves", "1-2 5-6 6-10 3-4"]),
    (dict(game="boxes", rows=1, cols=5), ["--rows", "1", "--cols", "5"]),
    (dict(game="triangles", size=4, moves="1-2 2-3 4-7 7-8 11-12 12-13 13-14 14-15 5-6 8-9 9-13 10-15"),
     ["--size", "4", "--moves", "1-2 2-3 4-7 7-8 11-12 12-13 13-14 14-15 5-6 8-9 9-13 10-15"]),
    (dict(game="boxes", rows=2, cols=2, detail="value"), ["--rows", "2", "--cols", "2", "--value-only"]),
    (dict(game="boxes", rows=2, cols=3, strategy="memo", moves=["1-2", "2-3"]),
     ["--rows", "2", "--cols", "3", "--strategy", "memo", "--moves", "1-2 2-3"]),
    (dict(game="boxes", rows=2, cols=2, moves="1-2 2-3 3-6 6-9 8-9 7-8 4-7 1-4 2-5 4-5 5-6 5-8"),
     ["--rows", "2", "--cols", "2", "--moves", "1-2 2-3 3-6 6-9 8-9 7-8 4-7 1-4 2-5 4-5 5-6 5-8"]),
    # The top lines (--lines K).
    (dict(game="triangles", moves="2-3 4-5", lines=3), ["--moves", "2-3 4-5", "--lines", "3"]),
]


# Boards of at most 24 edges: `plysolve` keeps tables between calls, like the server and `ply play`, so its
# automatic choice builds the board's whole table once; one CLI question fills the table of its free
# edges instead (the same values, another strategy and count of states).
SMALL_BOARDS = [dict(game="triangles"), dict(game="triangles", size=3), dict(game="boxes", rows=2, cols=2),
                dict(game="boxes", rows=3, cols=3), dict(game="boxes", rows=1, cols=5)]


def kept_as_the_cli_says_it(kwargs):
    board = {k: v for k, v in kwargs.items() if k in ("game", "size", "rows", "cols")}
    auto = kwargs.get("strategy", "auto") == "auto"
    return ["--strategy", "table"] if auto and board in SMALL_BOARDS else []


@pytest.mark.parametrize("kwargs,args", DOTS_CASES)
def test_dots_equals_the_cli(cli, kwargs, args):
    got = plysolve.dots(**kwargs)
    expected = cli.json("dots", kwargs["game"], *args, *kept_as_the_cli_says_it(kwargs), "--memory", "4G")
    assert got == expected
    assert list(got) == list(expected)  # the keys in the same order


# 4×4 positions: the free-edge table (same to the last field) and the search (whose node count
# depends on how the threads met: every other field the same).
FOUR = "1-2 2-3 3-4 4-5 6-7 7-8 8-9 9-10 11-12 12-13 13-14 14-15 16-17 17-18 18-19 19-20 1-6 5-10 16-21 20-25 21-22 22-23"


def test_dots_equals_the_cli_on_four_by_four(cli):
    kwargs = dict(game="boxes", rows=4, cols=4, moves=FOUR, detail="moves")
    got = plysolve.dots(**kwargs)
    expected = cli.json("dots", "boxes", "--rows", "4", "--cols", "4", "--moves", FOUR, "--memory", "4G")
    assert got["strategy"] == "free-table"
    expected_moves_only = dict(expected, line=[], line_steps=[])
    assert got == expected_moves_only
    searched = plysolve.dots(**kwargs, strategy="search")
    by_cli = cli.json("dots", "boxes", "--rows", "4", "--cols", "4", "--moves", FOUR,
                      "--strategy", "search", "--memory", "4G")
    assert searched["strategy"] == by_cli["strategy"] == "search"
    for report in (searched, by_cli):
        report.pop("states_visited")
        report.update(line=[], line_steps=[])
    assert searched == by_cli
    assert searched["value"] == got["value"]


def test_the_top_lines_start_with_the_best_line():
    report = plysolve.dots("triangles", moves="2-3 4-5", lines=3)
    assert [t["move"] for t in report["lines"]] == [m["move"] for m in report["moves"][:3]]
    assert report["lines"][0]["line"] == report["line"]
    assert all(t["value"] is not None for t in report["lines"])
    with pytest.raises(ValueError, match="lines: 1 to 64 top lines, not 0"):
        plysolve.dots("triangles", lines=0)


def test_a_weaker_level_says_so_and_a_level_out_of_range_is_refused():
    weak = plysolve.dots_move("boxes", rows=2, cols=2, moves="1-2", level=3, seed=4)
    assert (weak["choice"], weak["level"]) == ("level", 3)
    perfect = plysolve.dots_move("boxes", rows=2, cols=2, moves="1-2", seed=4)
    assert perfect["choice"] == "exact" and "level" not in perfect
    with pytest.raises(ValueError) as raised:
        plysolve.dots_move("boxes", rows=2, cols=2, level=9)
    assert str(raised.value) == "level must be a whole number from 1 (weakest) to 8 (perfect), not `9`"


def test_the_estimate_at_the_leaves_is_the_learned_one_unless_the_hand_made_is_asked():
    """The empty 5×5 board, nothing proved in 50 ms: both players estimate, and a name that is no
    estimate is refused."""
    for estimate in (None, "learned", "hand-made"):
        played = plysolve.dots_move("boxes", rows=5, cols=5, think=0.05, estimate=estimate)
        assert (played["choice"], played["lower"], played["upper"]) == ("estimated", -25, 25)
    with pytest.raises(ValueError) as raised:
        plysolve.dots_move("boxes", rows=2, cols=2, estimate="best")
    assert str(raised.value) == 'estimate must be one of "learned", "hand-made", not `"best"`'


def test_a_dots_game_plays_by_the_librarys_rules():
    """_ply.DotsGame: 2×2 boxes after "1-2 1-4 2-5" (B to move): drawing 4-5 takes cell 0 for B,
    who moves again; 2-3 takes nothing and A is to move; a copy goes its own way; faults change
    nothing."""
    from plysolve import _ply
    import copy

    game = _ply.DotsGame(json.dumps({"game": "boxes", "rows": 2, "cols": 2,
                                     "moves": ["1-2", "1-4", "2-5"]}))
    assert (game.to_move, game.score, game.edges) == (1, (0, 0), 12)
    names = [e["name"] for e in plysolve.dots_board(game="boxes", rows=2, cols=2)["edges"]]
    assert game.play(names.index("4-5")) == [0]
    assert (game.to_move, game.score, game.owners) == (1, (0, 1), [1, None, None, None])
    before = copy.deepcopy(game)
    assert game.play(names.index("2-3")) == [] and game.to_move == 0
    assert (before.to_move, len(before.free_edges()), len(game.free_edges())) == (1, 8, 7)
    with pytest.raises(ValueError, match=r"edge 4-5 is already drawn \(by move 4\)"):
        game.play(names.index("4-5"))
    with pytest.raises(ValueError, match="edge 12 is none of the board's 12 edges"):
        game.play(12)
    with pytest.raises(ValueError, match="edge 300 is none"):
        game.play(300)
    assert game.drawn == before.drawn | 1 << names.index("2-3")
    with pytest.raises(ValueError, match="a board of 0×2 boxes has 2 edges"):
        _ply.DotsGame(json.dumps({"game": "boxes", "rows": 0, "cols": 2}))
    with pytest.raises(ValueError, match=r"move 2 `1-2`: edge 1-2 is already drawn \(by move 1\)"):
        _ply.DotsGame(json.dumps({"game": "boxes", "rows": 2, "cols": 2, "moves": ["1-2", "1-2"]}))


def test_a_time_limited_answer_says_what_was_proved():
    # Three moves into 4×4 boxes: past the shipped book (it holds positions at most two moves in).
    report = plysolve.dots("boxes", rows=4, cols=4, moves="1-2 7-8 13-14", time=0.3)
    assert report["exact"] is False and report["value"] is None
    assert report["lower"] <= report["upper"]
    assert report["reason"] and report["best_move"]


def test_a_window_is_answered_by_a_bound():
    """A 4×4 position of 26 free edges worth 4: does it reach 1? reach 6? Each a bound; a window
    around the value gives it exactly."""
    moves = "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8 9-10 1-6 20-25 4-5 11-16"
    reaches = plysolve.dots("boxes", rows=4, cols=4, moves=moves, detail="value", window=(0, 1))
    assert (reaches["exact"], reaches["value"]) == (False, None) and reaches["lower"] >= 2
    assert reaches["reason"] == "the value lies outside the window asked (0, 1)"
    short = plysolve.dots("boxes", rows=4, cols=4, moves=moves, detail="value", window=[5, 6])
    assert short["upper"] <= 4 and short["lower"] <= 4
    inside = plysolve.dots("boxes", rows=4, cols=4, moves=moves, detail="value", window=(-2, 8))
    assert (inside["exact"], inside["value"]) == (True, 4)
    with pytest.raises(ValueError) as raised:
        plysolve.dots("boxes", rows=4, cols=4, moves=moves, window=(0, 1))
    assert str(raised.value) == 'a window bounds the value alone: ask for detail="value" with it'


def test_the_other_games_equal_the_cli(cli):
    assert plysolve.solitaire([0, 3, -2, 5, 1, -4, 2, 7], die=3, expected=True, distribution=True) == cli.json(
        "solitaire", "0", "3", "-2", "5", "1", "-4", "2", "7", "--die", "3", "--expected", "--distribution")
    assert plysolve.solitaire("5 -1 2, 8", explain=True) == cli.json("solitaire", "5", "-1", "2,", "8", "--explain")
    assert plysolve.heaps([3, 4, 5], grundy=True) == cli.json("heaps", "3", "4", "5", "--grundy")
    assert plysolve.heaps("1 1 2", misere=True) == cli.json("heaps", "1", "1", "2", "--misere")
    assert plysolve.dice_race_compare([5, 6, 7, 8], [6, 7, 8, 9]) == cli.json(
        "dice-race", "compare", "5,6,7,8", "6,7,8,9")
    assert plysolve.dice_race_compare("5 6", "7", dice=3, sides=4) == cli.json(
        "dice-race", "compare", "5 6", "7", "--dice", "3", "--sides", "4")
    assert plysolve.dice_race_best(3) == cli.json("dice-race", "best", "--picks", "3")
    assert plysolve.dice_race_best(2, dice=1, sides=6) == cli.json(
        "dice-race", "best", "--picks", "2", "--dice", "1", "--sides", "6")
    board = cli.json("magic-board", "generate", "--size", "7", "--seed", "3", "--solvable")["text"]
    path = os.path.join(cli.cache, "board.txt")
    with open(path, "w") as f:
        f.write(board)
    assert plysolve.magic_board(board) == cli.json("magic-board", path)
    assert plysolve.magic_board(board, start=(0, 6)) == cli.json("magic-board", path, "--start", "0,6")


FAULTS = [
    (lambda: plysolve.dots("triangles", size=9), ["dots", "triangles", "--size", "9"]),
    (lambda: plysolve.dots("boxes", moves="1-2 1-2"), ["dots", "boxes", "--moves", "1-2 1-2"]),
    (lambda: plysolve.dots("boxes", rows=2, cols=2, moves="1-9"), ["dots", "boxes", "--rows", "2", "--cols", "2", "--moves", "1-9"]),
    (lambda: plysolve.dots("boxes", moves="1-2 x"), ["dots", "boxes", "--moves", "1-2 x"]),
    (lambda: plysolve.solitaire([1, 2], die=0), ["solitaire", "1", "2", "--die", "0"]),
    (lambda: plysolve.heaps([3, 0]), ["heaps", "3", "0"]),
    (lambda: plysolve.heaps("3 x"), ["heaps", "3", "x"]),
    # An empty item: the one separator rule, the same text refused the same way.
    (lambda: plysolve.heaps("1,,2"), ["heaps", "1,,2"]),
    (lambda: plysolve.heaps(",1"), ["heaps", ",1"]),
    (lambda: plysolve.solitaire("1,,2"), ["solitaire", "1,,2"]),
]


@pytest.mark.parametrize("call,args", FAULTS)
def test_faults_that_name_no_option_raise_value_error_with_the_cli_message(cli, call, args):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value) == cli.fault(*args)


def test_empty_items_and_too_many_takes_are_refused_in_pythons_terms():
    with pytest.raises(ValueError) as raised:
        plysolve.heaps_game(heaps=[3, 4], moves="2,,1")
    assert str(raised.value) == "moves: item 2 is empty"
    with pytest.raises(ValueError) as raised:
        plysolve.heaps_game(heaps=[20000], moves=[1] * 10001)
    assert str(raised.value) == "moves must hold at most 10000 takes, not 10001"
    with pytest.raises(ValueError) as raised:
        plysolve.dice_race_simulate(first=[7], second=[6], games=10, max_games=5)
    assert str(raised.value) == "games=10 is more than max_games=5"


def test_faults_of_the_bindings_own_arguments():
    # The command line refuses an unknown game as a subcommand; this is the API's word for it.
    with pytest.raises(ValueError) as raised:
        plysolve.dots("hexes")
    assert str(raised.value) == "unrecognized game `hexes` (the games are triangles and boxes)"
    with pytest.raises(ValueError, match="is not a time"):
        plysolve.dots("boxes", time="later")
    with pytest.raises(ValueError, match="more than this machine's"):
        plysolve.dots("boxes", memory="64T")
    with pytest.raises(ValueError):
        plysolve.dots("boxes", memory="lots")


# Faults that name an argument, in Python's terms (never a command line flag, a JSON place or a Rust
# type), each beside the command line's words for the same fault where it has them.
TABLE_REFUSED = ("a table of 2^30 states (one byte each) needs 1.0 GiB (1073741824 bytes) but the "
                 "memory budget is 64.0 MiB (67108864 bytes); try")
EXPLAIN = "is for boards of at most 40 squares; this one has 41"
PYTHON_FAULTS = [
    (lambda: plysolve.dots("triangles", size=4, strategy="table", memory="64M"),
     f'{TABLE_REFUSED} strategy="memo", or a larger memory',
     ["dots", "triangles", "--size", "4", "--strategy", "table", "--memory", "64M"],
     f"{TABLE_REFUSED} --strategy memo, or a larger --memory"),
    (lambda: plysolve.solitaire([]), "no board: squares is an empty list; give at least one number",
     ["solitaire"], "no board: give the numbers as arguments or with --input FILE"),
    (lambda: plysolve.solitaire([1], path=True, no_path=True), "no_path=True cannot be used with path=True",
     None, None),
    (lambda: plysolve.solitaire(list(range(41)), explain=True), f"explain=True {EXPLAIN}",
     ["solitaire", *map(str, range(41)), "--explain"], f"--explain {EXPLAIN}"),
    (lambda: plysolve.dice_race_best(0), "picks must be at least 1",
     ["dice-race", "best", "--picks", "0"], "--picks must be at least 1"),
    (lambda: plysolve.magic_board("1 0\n1 1"),
     "a board of size 2 breaks the size rule (5 to 20; any_size=True allows 2 to 4096)", None, None),
    (lambda: plysolve.dots("boxes", strategy="fast"),
     'strategy must be one of "auto", "recursion", "memo", "table", "free-table", "search", not `"fast"`',
     None, None),
    (lambda: plysolve.dots("boxes", moves=42),
     'moves must be one text ("2-4 4-5") or a list of texts (["2-4", "4-5"]), not `42`', None, None),
    (lambda: plysolve.dots("boxes", moves=[1, 2]),
     'moves must be one text ("2-4 4-5") or a list of texts (["2-4", "4-5"]), not `[1, 2]`', None, None),
    (lambda: plysolve.dots("boxes", rows="x", cols=3), 'rows must be a whole number, not `"x"`', None, None),
    (lambda: plysolve.dots("boxes", rows=2**70, cols=3),
     "rows=1180591620717411303424 is too large (at most 4294967295)", None, None),
    (lambda: plysolve.dots("boxes", rows=3), "rows without cols: boxes take both (or neither, for 3×3)",
     None, None),
    (lambda: plysolve.dots("triangles", cols=3),
     "cols is not for triangles: triangles take size, boxes rows and cols", None, None),
    (lambda: plysolve.dots("boxes", time=float("nan")), "time=nan holds a number that is not finite",
     None, None),
    (lambda: plysolve.dots("boxes", memory=5), "memory must be a str, not `5`", None, None),
    (lambda: plysolve.heaps([2**64]),
     "heap 1 holds 18446744073709551616, more than the largest size (18446744073709551615)",
     ["heaps", str(2**64)], None),
    (lambda: plysolve.dice_race_compare([2**64], [7]),
     "first: sum 18446744073709551616 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)",
     ["dice-race", "compare", str(2**64), "7"],
     "the first list: sum 18446744073709551616 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)"),
    # A list's fault names the list: its argument here, its place on the command line.
    (lambda: plysolve.dice_race_compare([7], [5, 1]),
     "second: sum 1 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)",
     ["dice-race", "compare", "7", "5,1"],
     "the second list: sum 1 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)"),
    (lambda: plysolve.dice_race_compare("7,,8", [7]), "first: item 2 is empty",
     ["dice-race", "compare", "7,,8", "7"], "the first list: item 2 is empty"),
    (lambda: plysolve.dice_race_simulate(first=[7], second=[]), "second needs at least one sum",
     ["dice-race", "simulate", "7", ""], "the second list needs at least one sum"),
    (lambda: plysolve.dots_move("triangles", seed=-1), "seed=-1 must not be negative", None, None),
    (lambda: plysolve.book_stats(5), "path must be a str, not `5`", None, None),
]


@pytest.mark.parametrize("call,message,args,cli_message", PYTHON_FAULTS)
def test_faults_name_arguments_in_pythons_terms(cli, call, message, args, cli_message):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value) == message
    if args is not None:
        # The command line's message for the same fault: the same, unless it names an option.
        assert cli.fault(*args) == (cli_message or message)


def test_only_what_python_refuses_is_a_type_error():
    with pytest.raises(TypeError):
        plysolve.dots("boxes", colour=1)
    with pytest.raises(TypeError):
        plysolve.dots("boxes", rows=object())
    with pytest.raises(TypeError):
        plysolve.dots("boxes", rows=2, cols=2, progress=5)


# Values no JSON carries, each refused naming its argument: (call, exception, message).
NO_JSON_FORM = [
    (lambda: plysolve.heaps("\udcff"), ValueError, "heaps='\\udcff': not text (a lone surrogate)"),
    (lambda: plysolve.dots(game="\udcff"), ValueError, "game='\\udcff': not text (a lone surrogate)"),
    (lambda: plysolve.dots("boxes", moves=["1-2", "\ud800"]), ValueError,
     "moves=['1-2', '\\ud800']: not text (a lone surrogate)"),
    (lambda: plysolve.dice_race_sums(dice="\udcff"), ValueError,
     "dice='\\udcff': not text (a lone surrogate)"),
    (lambda: plysolve.heaps(b"3 4"), TypeError,
     "heaps: bytes has no JSON form (give a str, a number, a bool, a list or a dict)"),
    (lambda: plysolve.dots("boxes", rows=object()), TypeError,
     "rows: object has no JSON form (give a str, a number, a bool, a list or a dict)"),
    (lambda: plysolve.dots("boxes", moves=["1-2", b"2-3"]), TypeError,
     "moves: bytes has no JSON form (give a str, a number, a bool, a list or a dict)"),
    (lambda: plysolve.dots("boxes", time=float("inf")), ValueError,
     "time=inf holds a number that is not finite"),
    (lambda: plysolve.heaps([float("nan")] * 100), ValueError,
     "heaps=[nan, nan, nan, nan, nan, nan, nan, nan,… holds a number that is not finite"),
    (lambda: plysolve.book_import("x.plybook", [{"key": b"1"}]), TypeError,
     "entries[0]: bytes has no JSON form (give a str, a number, a bool, a list or a dict)"),
]


@pytest.mark.parametrize("call, kind, message", NO_JSON_FORM)
def test_a_value_with_no_json_form_is_refused_naming_its_argument(call, kind, message):
    with pytest.raises(kind) as raised:
        call()
    assert type(raised.value) is kind and str(raised.value) == message


# Sets where a list's order matters (heaps, squares, moves, sums): refused, not read in hash order.
SETS = [
    (lambda: plysolve.heaps(heaps={5, 3}), "heaps"),
    (lambda: plysolve.heaps(heaps=frozenset([5, 3])), "heaps"),
    (lambda: plysolve.solitaire(squares={1, 2, 3}), "squares"),
    (lambda: plysolve.dots("boxes", moves={"1-2", "2-3"}), "moves"),
    (lambda: plysolve.dice_race_compare({7, 8}, [6, 5]), "first"),
    (lambda: plysolve.heaps_game(moves={"1", "2"}), "moves"),
    (lambda: plysolve.heaps(heaps=[{5, 3}]), "heaps"),
]


@pytest.mark.parametrize("call, argument", SETS)
def test_a_set_for_an_ordered_list_is_a_type_error_naming_the_argument(call, argument):
    with pytest.raises(TypeError) as raised:
        call()
    assert str(raised.value) == f"{argument}: a set has no order; give a list"


# dots_batch's faults, each naming the position at fault: (positions, exception, message).
BATCH_FAULTS = [
    ([{}], ValueError, "positions[0]: game is missing"),
    ([dict(game="boxes"), dict(rows=2, cols=2)], ValueError, "positions[1]: game is missing"),
    ([dict(game="boxes"), 1], TypeError,
     "positions[1] must be a dict of dots's arguments, not 1"),
    ([None], TypeError, "positions[0] must be a dict of dots's arguments, not None"),
    ([dict(game="boxes", colour=1)], ValueError, "positions[0]: unknown keys ['colour']"),
    ([dict(game="boxes"), dict(game="boxes", rows="x", cols=3)], ValueError,
     'positions[1]: rows must be a whole number, not `"x"`'),
    ([dict(game="boxes", moves={"1-2"})], TypeError,
     "positions[0]: moves: a set has no order; give a list"),
    ("abc", TypeError,
     "positions must be a list of positions (dicts of dots's arguments), not 'abc'"),
    (None, TypeError,
     "positions must be a list of positions (dicts of dots's arguments), not None"),
    (dict(game="boxes"), TypeError,
     "positions must be a list of positions (dicts of dots's arguments), not {'game': 'boxes'}"),
]


@pytest.mark.parametrize("positions, kind, message", BATCH_FAULTS)
def test_dots_batch_names_the_position_at_fault(positions, kind, message):
    with pytest.raises(kind) as raised:
        plysolve.dots_batch(positions)
    assert type(raised.value) is kind and str(raised.value) == message


def test_dots_batch_equals_one_at_a_time():
    positions = [
        dict(game="boxes", rows=2, cols=3, moves="1-2", detail="moves"),
        dict(game="triangles", moves="2-3 4-5"),
        dict(game="boxes", rows=4, cols=4, moves=FOUR, detail="moves"),
    ]
    told = []
    batch = plysolve.dots_batch(positions, progress=told.append)
    assert batch == [plysolve.dots(**p) for p in positions]
    assert told and told[-1] <= 3
    with pytest.raises(ValueError, match="unknown keys"):
        plysolve.dots_batch([dict(game="boxes", colour=1)])


def test_dots_move_is_a_best_move_and_the_game_over_is_refused():
    report = plysolve.dots("triangles", moves="2-3 4-5 5-6 7-8 8-9 9-10", detail="moves")
    best = {m["move"] for m in report["moves"] if m["value"] == report["value"]}
    for seed in range(1, 6):
        played = plysolve.dots_move("triangles", moves="2-3 4-5 5-6 7-8 8-9 9-10", seed=seed)
        assert played["move"] in best and played["choice"] == "exact"
        assert played["value"] == report["value"] == 3 and played["seed"] == seed
    every = "1-2 1-3 2-3 2-4 2-5 3-5 3-6 4-5 5-6 4-7 4-8 5-8 5-9 6-9 6-10 7-8 8-9 9-10"
    with pytest.raises(ValueError, match="the game is over"):
        plysolve.dots_move("triangles", moves=every)


def test_progress_reaches_a_python_callback():
    told = []
    # A 4×4 position of 30 free edges: 2.4 million nodes (whatever the machine's load).
    moves = "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8 9-10"
    report = plysolve.dots("boxes", rows=4, cols=4, moves=moves, strategy="search", progress=told.append)
    assert report["value"] == 4
    # Told every 2^20 nodes at most, the latest count each time the caller looks.
    assert told and told == sorted(told) and 1 << 20 <= told[-1] <= report["states_visited"]


def test_an_exception_in_the_callback_stops_the_solve():
    class Enough(Exception):
        pass

    def progress(n):
        raise Enough(n)

    started = time.monotonic()
    with pytest.raises(Enough):
        plysolve.dots("boxes", rows=4, cols=4, detail="value", no_book=True, progress=progress)
    assert time.monotonic() - started < 20


def test_the_gil_is_released_during_a_solve():
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before = ticks
        plysolve.dots("boxes", rows=4, cols=4, detail="value", no_book=True, time=1.0)
        during = ticks - before
    finally:
        stop.set()
        counter.join()
    assert during > 100, during


def _interrupted(prelude, call, pause, limit):
    """Runs ``call`` (a line of Python) in a child after ``prelude``, which prints a first line when
    the call is under way; sends SIGINT after that line and ``pause`` seconds more, and checks that
    the call raised KeyboardInterrupt within ``limit`` seconds instead of running to its end."""
    script = "\n".join(
        [
            # A user's Python turns SIGINT into KeyboardInterrupt; the child does so whatever the
            # test runner inherited (a background job of a script starts with SIGINT ignored).
            "import signal, sys, plysolve",
            "signal.signal(signal.SIGINT, signal.default_int_handler)",
            prelude,
            "try:",
            f"    {call}",
            "except KeyboardInterrupt:",
            "    print('interrupted', flush=True)",
            "    sys.exit(3)",
            "print('finished', flush=True)",
        ]
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() != ""
        time.sleep(pause)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        rest = child.communicate(timeout=60)[0]
        assert child.returncode == 3, rest
        assert "interrupted" in rest
        assert time.monotonic() - sent < limit
    finally:
        if child.poll() is None:
            child.kill()


def test_ctrl_c_interrupts_a_solve():
    """A solve of the empty 4×4 board (about an hour) stops within seconds of SIGINT and raises
    KeyboardInterrupt."""
    _interrupted(
        "def progress(n):\n    print('progress', n, flush=True)",
        'plysolve.dots("boxes", rows=4, cols=4, detail="value", no_book=True, progress=progress)',
        pause=0,
        limit=10,
    )


def test_ctrl_c_interrupts_a_dice_race():
    """Every long call honours Ctrl-C, not only dots: a race of 3 000 sevens against one six
    (several seconds) raises KeyboardInterrupt soon after SIGINT instead of running to its end."""
    _interrupted(
        "print('started', flush=True)",
        "plysolve.dice_race_compare([7] * 3000, [6])",
        pause=0.3,
        limit=2,
    )
