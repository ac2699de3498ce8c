"""plysolve.openspiel against OpenSpiel's own rules: action ids, values checked by playing on in
OpenSpiel, labels, and PlyBot against the uniform random bot; the Dots and Triangles game
(plysolve.openspiel_triangles) against plysolve.dots, and PlyBot against OpenSpiel's C++ MCTS on it."""

import os
import random

import pyspiel
import pytest

import plysolve
from plysolve import openspiel as bridge
from plysolve.openspiel_triangles import triangles_board, triangles_game


def game(rows, cols):
    return pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols},utility_margin=true)")


def margin_now(state):
    """(boxes of player 0) − (boxes of player 1) so far, read from OpenSpiel's own drawing."""
    text = str(state)
    return text.count("1") - text.count("2")


def test_action_ids_are_openspiels_lines():
    """Each action's line, as OpenSpiel names it (`P1(h,row,col)`, `P1(v,row,col)`), joins the two
    dots ply names, and every line is one action."""
    for rows, cols in [(1, 1), (2, 3), (3, 4), (4, 4)]:
        state = game(rows, cols).new_initial_state()
        seen = set()
        for action in state.legal_actions():
            kind, r, c = state.action_to_string(action)[3:-1].split(",")
            r, c = int(r), int(c)
            a = r * (cols + 1) + c + 1
            b = a + 1 if kind == "h" else a + cols + 1
            assert bridge.action_to_move(rows, cols, action) == f"{a}-{b}"
            assert bridge.move_to_action(rows, cols, f"{b}-{a}") == action
            seen.add((a, b))
        assert len(seen) == (rows + 1) * cols + rows * (cols + 1)


def check_random_games(rows, cols, games, seed):
    """At every state of random games: the actions are the legal ones, the value is the best
    action's, each action's value agrees with OpenSpiel's next state (who moves, boxes scored),
    and playing ply's best moves on to the end in OpenSpiel ends at the margin ply predicted."""
    rng = random.Random(seed)
    g = game(rows, cols)
    states = 0
    final = {}  # history → player 0's final margin under ply's best play (OpenSpiel's returns)

    def play_on(state):
        key = tuple(state.history())
        if key not in final:
            if state.is_terminal():
                final[key] = state.returns()[0]
            else:
                a = bridge.analyse(state)
                best = max(a["actions"], key=lambda x: a["actions"][x])
                final[key] = play_on(state.child(best))
        return final[key]

    for _ in range(games):
        state = g.new_initial_state()
        while not state.is_terminal():
            mover = state.current_player()
            a = bridge.analyse(state)
            assert a["exact"] is True
            assert sorted(a["actions"]) == sorted(state.legal_actions())
            assert a["value"] == max(a["actions"].values())
            sign = 1 if mover == 0 else -1
            # Under perfect play from here the mover ends `value` ahead of where it stands now.
            assert sign * (play_on(state) - margin_now(state)) == a["value"]
            for action, value in a["actions"].items():
                child = state.child(action)
                scored = sign * (margin_now(child) - margin_now(state))
                if child.is_terminal():
                    assert value == scored
                    continue
                after = bridge.analyse(child)["value"]
                same = child.current_player() == mover
                assert same == (scored > 0)
                assert value == (scored + after if same else scored - after)
            states += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize("rows,cols,games", [(2, 2, 30), (2, 3, 15), (3, 3, 6)])
def test_analyse_agrees_with_openspiel_on_every_state_of_random_games(rows, cols, games):
    assert check_random_games(rows, cols, games, seed=rows * 10 + cols) >= games * 12


def test_label_equals_analyse_and_win_loss_games_are_read_too():
    rng = random.Random(5)
    g = pyspiel.load_game("dots_and_boxes(num_rows=3,num_cols=3)")
    states = []
    for _ in range(20):
        s = g.new_initial_state()
        for _ in range(rng.randrange(0, 20)):
            s.apply_action(rng.choice(s.legal_actions()))
        states.append(s)
    told = []
    labels = bridge.label(states, progress=told.append)
    assert labels == [bridge.analyse(s) for s in states]
    assert told[-1] == len(states)
    with pytest.raises(ValueError, match="dots_and_boxes"):
        bridge.analyse(pyspiel.load_game("tic_tac_toe").new_initial_state())


#: Games of PlyBot from the empty 3×4 board in CI (the issue's 200 are run by setting it; their
#: figures are in BENCHMARKS.md).
GAMES_3X4 = int(os.environ.get("PLY_PLYBOT_GAMES_3X4", "20"))


@pytest.mark.parametrize("rows,cols,games,think,value", [(3, 3, 200, None, None),
                                                          (3, 4, GAMES_3X4, 0.1, 0)])
def test_plybot_never_finishes_below_the_exact_value(rows, cols, games, think, value):
    """Seeded games from the empty board against OpenSpiel's uniform random bot, half in each
    seat: the bot ends at least the empty board's exact value ahead from its seat. On 3×3 (its
    whole table kept) every move is exact and keeps the value; on 3×4 (value 0 for the player to
    move: plysolve.dots, 11 s) it thinks 0.1 s a move, estimating where nothing is proved, and every
    move from 12 free lines on is exact (the table of the free lines: 4 096 states, well inside
    0.1 s even on a machine loaded many times over — from 18 on it is exact on a quiet one)."""
    g = game(rows, cols)
    below = []
    moves = 0
    for seed in range(games):
        seat = seed % 2
        state = g.new_initial_state()
        if value is None:
            value = bridge.analyse(state)["value"]
        # The first player ends `value` ahead under perfect play.
        exact = value if seat == 0 else -value
        ours = bridge.PlyBot(g, seat, think=think, seed=seed)
        random_bot = pyspiel.make_uniform_random_bot(1 - seat, seed)
        while not state.is_terminal():
            if state.current_player() != seat:
                state.apply_action(random_bot.step(state))
                continue
            proved = bridge.analyse(state)["value"] if think is None else None
            action = ours.step(state)
            moves += 1
            if think is None or len(state.legal_actions()) <= 12:
                assert ours.last["choice"] == "exact"
            if proved is not None:
                assert ours.last["value"] == proved
            state.apply_action(action)
        mine = state.returns()[seat]
        if mine < exact:
            below.append((seed, seat, mine, exact))
    assert below == []
    assert moves >= games * 4


@pytest.mark.parametrize("size,games,time", [(3, 12, None), (4, 4, "20ms")])
def test_the_triangles_game_plays_by_plysolves_rules(size, games, time):
    """Random games of ply_dots_and_triangles, every state beside plysolve.dots of the same moves:
    the legal actions are the report's moves, each action completes the cells the report says
    (`points`, the mover then moving again), who moves, the score and each cell's owner agree, and
    the end's returns are the library's final cells."""
    rng = random.Random(size)
    game = triangles_game(size, True)
    board = triangles_board(size)
    players = {"A": 0, "B": 1}
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            moves = [board.names[a] for a in state.history()]
            report = plysolve.dots("triangles", size=size, moves=moves, detail="moves", time=time)
            assert [state.scores[0], state.scores[1]] == [report["score"]["A"], report["score"]["B"]]
            assert state.owners == [None if o is None else players[o] for o in report["owners"]]
            if state.is_terminal():
                assert report["over"] and report["moves"] == []
                margin = report["score"]["A"] - report["score"]["B"]
                assert state.returns() == [margin, -margin]
                break
            mover = state.current_player()
            assert mover == players[report["to_move"]]
            points = {board.actions[m["move"]]: m["points"] for m in report["moves"]}
            assert sorted(points) == state.legal_actions()
            for action, cells in points.items():
                child = state.child(action)
                assert child.scores[mover] - state.scores[mover] == cells
                if not child.is_terminal():
                    assert child.current_player() == (mover if cells else 1 - mover)
            state.apply_action(rng.choice(state.legal_actions()))
    assert str(state).endswith(f"cells {state.scores[0]}-{state.scores[1]}")


def test_the_triangles_game_refuses_what_is_no_move_or_no_board():
    state = triangles_game(2).new_initial_state()
    state.apply_action(0)
    clone = state.clone()
    clone.apply_action(1)
    assert (state.history(), clone.history()) == ([0], [0, 1])
    # The library's Position refuses it, in its words (no rule restated in Python).
    with pytest.raises(ValueError, match=r"edge 1-2 is already drawn \(by move 1\)"):
        state.apply_action(0)
    with pytest.raises(ValueError, match="edge 9 is none of the board's 9 edges"):
        state.apply_action(9)
    assert (state.history(), str(state)) == ([0], "1-2; cells 0-0")
    with pytest.raises(ValueError, match="triangle boards have size 1 to 6"):
        triangles_game(7)
    assert triangles_game(5).num_distinct_actions() == 45
    assert triangles_game(5, True).max_utility() == 25.0


def test_analyse_and_plybot_read_the_triangles_game():
    """The classic 10-dot board (size 3), worth −3 to the first player (the original program's
    table): analyse gives it, and PlyBot from either seat, against OpenSpiel's C++ MCTSBot, ends
    at least its exact value ahead from its seat, every move exact."""
    game = triangles_game(3, True)
    found = bridge.analyse(game.new_initial_state())
    assert (found["value"], sorted(found["actions"].values()).count(-3)) == (-3, 12)
    for seat in (0, 1):
        ours = bridge.PlyBot(game, seat, think=None, seed=seat)
        # Through the base class's step: MCTSBot's own lets go of Python's lock while it searches,
        # and on a game written in Python its search then crashes (open-spiel 2.0.2).
        theirs = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seat), 2.0, 300, 100,
                                 True, seat, False)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(ours.step(state))
                assert ours.last["choice"] == "exact"
            else:
                state.apply_action(pyspiel.Bot.step(theirs, state))
        assert state.returns()[seat] >= (-3 if seat == 0 else 3)
