"""The registry test of the Python package: every question of ply's registry (`_ply.questions()`) is a
function of `plysolve`, answers its example as `POST` to the server does (and as `_ply.ask` does),
and refuses a bad body with a one-line ValueError naming the argument. A question added to the
registry is checked here with no edit to Python; one per game is checked against a value known
from the game's rules."""

import inspect
import json

import pytest

import plysolve
from plysolve import _ply

QUESTIONS = json.loads(_ply.questions())

# Keys whose values are wall times or speeds: two runs of one answer differ in them.
TIMES = {"seconds", "simulation_seconds", "exact_seconds", "boards_per_second"}


def without_times(value):
    """`value` with every time (TIMES) set to None, at any depth."""
    if isinstance(value, dict):
        return {k: None if k in TIMES else without_times(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def last_report(stream: str) -> str:
    """The data of the last event of a server-sent event stream, which must be named `report`."""
    name, data = stream.strip().split("\n\n")[-1].split("\n", 1)
    assert name == "event: report", stream
    assert data.startswith("data: "), stream
    return data[len("data: "):]


def by_name(about):
    return about["python"]


def test_the_registry_lists_every_question_of_every_game():
    assert [q["python"] for q in QUESTIONS] == [
        "dots", "dots_analyse", "play_dots", "dots_review", "dots_board", "triangle_war",
        "solitaire",
        "dice_race_compare", "dice_race_best", "dice_race_equilibrium", "dice_race_sums",
        "dice_race_simulate", "dice_race_game",
        "magic_board", "magic_board_generate", "magic_board_stats",
        "heaps", "play_heaps", "heaps_game",
    ]
    assert plysolve.questions() == QUESTIONS


@pytest.mark.parametrize("about", QUESTIONS, ids=by_name)
def test_every_question_is_a_function_of_the_package(about):
    name = about["python"]
    function = getattr(plysolve, name)
    assert callable(function) and function.__module__ == "plysolve" and function.__name__ == name
    assert name in plysolve.__all__
    assert function.__doc__


def test_a_function_made_from_the_registry_says_what_it_answers():
    doc = plysolve.dice_race_sums.__doc__
    assert doc.startswith("Every sum of the dice with its number of ways and its chance "
                          "(``POST /api/dice-race/sums``).")
    assert "Example: ``plysolve.dice_race_sums(dice=2, sides=6)``." in doc
    assert str(inspect.signature(plysolve.dice_race_sums)) == "(*, dice=None, sides=None, memory=None, **request)"


@pytest.mark.parametrize("about", QUESTIONS, ids=by_name)
def test_the_example_is_answered_as_the_server_answers_it(server, about):
    example = json.loads(about["example"])
    got = getattr(plysolve, about["python"])(**example)
    status, body = server.post(about["path"], about["example"])
    assert status == 200, body
    served = json.loads(last_report(body) if about["streams"] else body)
    assert without_times(got) == without_times(served)
    asked = json.loads(_ply.ask(about["python"], about["example"]))
    assert without_times(got) == without_times(asked)


def wrong(value):
    """A value of another kind than `value`: a dict, which no request key takes."""
    return {"wrong": value}


@pytest.mark.parametrize("about", QUESTIONS, ids=by_name)
def test_a_bad_body_is_a_one_line_value_error_naming_the_argument(server, about):
    example = json.loads(about["example"])
    key = next(iter(example))
    with pytest.raises(ValueError) as raised:
        getattr(plysolve, about["python"])(**dict(example, **{key: wrong(example[key])}))
    message = str(raised.value)
    assert "\n" not in message and message.startswith(f"{key} "), message
    body = json.dumps(dict(example, **{key: wrong(example[key])}))
    with pytest.raises(ValueError) as asked:
        _ply.ask(about["python"], body)
    assert str(asked.value) == message
    # The server refuses the same body too (in its own terms).
    assert server.post(about["path"], body)[0] == 400


def test_an_unknown_keyword_of_a_made_function_is_named():
    with pytest.raises(ValueError) as raised:
        plysolve.dice_race_sums(dice=2, colour=1)
    assert str(raised.value) == 'unknown argument colour (the arguments are dice, sides)'
    with pytest.raises(ValueError) as raised:
        _ply.ask("chess", "{}")
    assert str(raised.value) == "no question is called `chess`"
    with pytest.raises(ValueError, match="more than this machine's"):
        plysolve.dice_race_sums(dice=2, memory="64T")


def test_a_fault_of_a_made_function_is_in_pythons_terms():
    with pytest.raises(ValueError) as raised:
        plysolve.magic_board_generate(size=6, solvable=True, unsolvable=True)
    assert str(raised.value) == "solvable=True cannot be used with unsolvable=True"


# One question per game against what its rules say.


def test_dots_a_board_of_two_by_two_boxes_has_nine_dots_twelve_edges_four_cells():
    board = plysolve.dots_board(game="boxes", rows=2, cols=2)
    assert (len(board["dots"]), len(board["edges"]), len(board["cells"])) == (9, 12, 4)


def test_solitaire_the_best_path_skips_the_negative_squares():
    # 1, -2, 0, 9, -1, -2 with a die of 6: 1 + 9 - 2 (square 0, 3, then the last, 5).
    assert plysolve.solitaire([1, -2, 0, 9, -1, -2], die=6)["best"] == 8


def test_dice_race_seven_is_the_likeliest_sum_of_two_dice():
    sums = {s["sum"]: s for s in plysolve.dice_race_sums(dice=2, sides=6)}
    assert sorted(sums) == list(range(2, 13))
    assert [sums[s]["ways"] for s in range(2, 13)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]


def test_magic_board_a_generated_solvable_board_is_solved_from_a_corner():
    generated = plysolve.magic_board_generate(size=6, seed=3, solvable=True)
    assert len(generated["text"].splitlines()) == 6
    solved = plysolve.magic_board(generated["text"], any_size=True)
    assert any(corner["solvable"] for corner in solved["corners"])


def test_heaps_the_player_leaves_one_in_the_lowest_heap():
    # Heaps 2 and 3, taking from the lowest: all 2 leaves 3 to the opponent, who takes them and
    # wins; one leaves 1 and 3: the opponent must take the 1, and the 3 are the player's.
    played = plysolve.play_heaps(heaps=[2, 3], seed=1)
    assert played["heaps"] == [1, 3]
