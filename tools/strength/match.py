"""What the strength matches share (``mcts_match.py``, ``ab_match.py``): the board arguments, the
game played to its end with ply's choices counted, the resumable results file (JSON lines, one a
game, every game of one setting), and the record with its 95 % Wilson interval."""

from __future__ import annotations

import argparse
import time
import collections
import json
import math
import os
import pathlib
import sys
from typing import Any, Dict, List, Sequence, Tuple

import pyspiel

from plysolve.openspiel import PlyBot
from plysolve.openspiel_triangles import triangles_game

#: Where the results files are by default, one per setting.
RESULTS = pathlib.Path(__file__).resolve().parent / "results"


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """``--game boxes --rows R --cols C`` or ``--game triangles --size S``."""
    parser.add_argument("--game", choices=["boxes", "triangles"], default="boxes")
    parser.add_argument("--rows", type=int, default=5, help="boxes: rows of boxes")
    parser.add_argument("--cols", type=int, default=5, help="boxes: columns of boxes")
    parser.add_argument("--size", type=int, default=5,
                        help="triangles: rows of triangles (5: the 21-dot board)")


def board_of(args: argparse.Namespace, margin: bool = False) -> Tuple[Any, str]:
    """The OpenSpiel game of the board the arguments name, and its name in results
    (``boxes-5x5``, ``triangles-5``). Its returns are +1/0/−1, or with ``margin`` the margin in
    cells (OpenSpiel's ``utility_margin``)."""
    if args.game == "triangles":
        return triangles_game(args.size, margin), f"triangles-{args.size}"
    game = pyspiel.load_game("dots_and_boxes", {"num_rows": args.rows, "num_cols": args.cols,
                                                "utility_margin": margin})
    return game, f"boxes-{args.rows}x{args.cols}"


def play(game: Any, bots: Sequence[Any]) -> Tuple[List[float], List[Dict[str, int]]]:
    """One game from the empty board, ``bots[p]`` moving for player ``p``: the returns, and for
    each seat how many of its moves a :class:`PlyBot` chose each way (``exact``, ``estimated``)."""
    state = game.new_initial_state()
    choices: List[Dict[str, int]] = [collections.Counter(), collections.Counter()]
    while not state.is_terminal():
        player = state.current_player()
        bot = bots[player]
        state.apply_action(bot.step(state))
        if isinstance(bot, PlyBot):
            choices[player][bot.last["choice"]] += 1
    return state.returns(), [dict(c) for c in choices]


class Results:
    """A results file of one setting: the games played so far (read back, so that a stopped run
    resumes where it stopped), each appended as soon as it ends. Every record holds the setting's
    fields; a file holding games of another setting is refused rather than mixed with."""

    def __init__(self, path: pathlib.Path, setting: Dict[str, Any]) -> None:
        self.path = path
        self.setting = setting
        self.games: List[Dict[str, Any]] = []
        if path.exists():
            self.games = [json.loads(line) for line in path.read_text().splitlines() if line]
        for record in self.games:
            for key, value in setting.items():
                if record.get(key) != value:
                    sys.exit(f"{path} holds games with {key}={record.get(key)!r}, not {value!r}: "
                             "give another --out")

    def add(self, record: Dict[str, Any]) -> None:
        """Appends one game (the setting's fields added) and prints it."""
        record = {**record, **self.setting, "load": round(os.getloadavg()[0], 2)}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as f:
            f.write(json.dumps(record) + "\n")
        self.games.append(record)
        print(json.dumps(record), flush=True)


def timed_play(game: Any, bots: Sequence[Any]) -> Tuple[List[float], List[Dict[str, int]], float]:
    """``play``, and the game's seconds (to a tenth) for its results line."""
    started = time.time()
    returns, choices = play(game, bots)
    return returns, choices, round(time.time() - started, 1)


def wilson(score: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    """The 95 % Wilson interval of a proportion ``score`` over ``n`` games."""
    if n == 0:
        return (0.0, 1.0)
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def record_line(games: Sequence[Dict[str, Any]], key: str, who: str) -> str:
    """The record of ``who`` over ``games`` (its return in each under ``key``): wins, draws,
    losses, its score (a win 1, a draw ½) with the 95 % Wilson interval, and the seconds a game."""
    wins = sum(g[key] > 0 for g in games)
    draws = sum(g[key] == 0 for g in games)
    losses = sum(g[key] < 0 for g in games)
    n = len(games)
    score = (wins + draws / 2) / n if n else 0.0
    low, high = wilson(score, n)
    seconds = sum(g["seconds"] for g in games) / n if n else 0.0
    return (f"{who}: {n} games, {wins} wins, {draws} draws, {losses} losses; score {score:.1%} "
            f"(95 % interval {low:.1%}–{high:.1%}); {seconds:.0f} s a game")
