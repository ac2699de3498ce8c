"""ply against OpenSpiel's MCTSBot (random rollouts): an opponent no one here wrote, on OpenSpiel's
own ``dots_and_boxes`` (``--game boxes --rows R --cols C``) or on Dots and Triangles
(``--game triangles --size S``: ``plysolve.openspiel_triangles``, ply's boards as an OpenSpiel
game). Seats alternate (ply first in even games); each game is appended to the results file as a
JSON line as soon as it ends, so a stopped run resumes where it stopped (the games already there
are counted). One file per setting: by default ``results/<board>-mcts<sims>[-python]-think<t>s
[-level<L>].jsonl`` beside this script.

The MCTS is OpenSpiel's C++ ``pyspiel.MCTSBot`` by default (``--mcts cpp``; about 0.5 s a move
at 10 000 simulations on the empty 5×5 board), or the same algorithm in OpenSpiel's Python
(``--mcts python``: ``open_spiel.python.algorithms.mcts.MCTSBot``, several seconds a move at 1 000
simulations). Both with the same parameters: UCT constant 2, one random rollout a leaf, solving
proved subtrees (``solve=True``), seeded by the game's seed; the C++ one within
``--max-memory-mb`` of tree. Its game returns +1/0/−1 (OpenSpiel's default, no margin), which the
MCTS maximises.

    python tools/strength/mcts_match.py --game boxes --rows 5 --cols 5 --sims 10000 --games 200
    python tools/strength/mcts_match.py --game triangles --size 5 --sims 1000 --games 200

Prints the record — wins, draws, losses for ply, and its score (a win 1, a draw ½) with a 95 %
Wilson interval. Needs ``plysolve`` and ``open-spiel`` in the same environment; ply thinks
``--think`` seconds a move of wall time, so a loaded machine weakens it (each record keeps the
load average)."""

from __future__ import annotations

import argparse
import pathlib

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from match import RESULTS, Results, add_board_arguments, board_of, timed_play, record_line
from plysolve.openspiel import PlyBot

#: OpenSpiel's MCTS as this match sets it: UCT constant, rollouts a leaf.
UCT_C = 2.0
ROLLOUTS = 1


class HoldingTheGil:
    """OpenSpiel's C++ MCTSBot, stepped through the base class's ``pyspiel.Bot.step``: its own
    ``step`` lets go of Python's lock (the GIL) while it searches, and on a game written in Python
    (Dots and Triangles) the search's first clone of a state then calls into Python without it and
    crashes (a segmentation fault, open-spiel 2.0.2); the base class's ``step`` runs the same search
    holding the lock."""

    def __init__(self, bot) -> None:
        self.bot = bot

    def step(self, state) -> int:
        return pyspiel.Bot.step(self.bot, state)


def mcts_bot(kind: str, game, sims: int, seed: int, max_memory_mb: int):
    """OpenSpiel's MCTSBot, C++ (``cpp``) or Python (``python``), with random rollouts."""
    if kind == "cpp":
        evaluator = pyspiel.RandomRolloutEvaluator(ROLLOUTS, seed)
        return HoldingTheGil(
            pyspiel.MCTSBot(game, evaluator, UCT_C, sims, max_memory_mb, True, seed, False))
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, uct_c=UCT_C, max_simulations=sims,
                        evaluator=mcts.RandomRolloutEvaluator(ROLLOUTS, rng), random_state=rng,
                        solve=True, verbose=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_board_arguments(parser)
    parser.add_argument("--mcts", choices=["cpp", "python"], default="cpp",
                        help="OpenSpiel's MCTSBot in C++ (default) or in Python")
    parser.add_argument("--sims", type=int, default=1000, help="MCTS simulations a move")
    parser.add_argument("--max-memory-mb", type=int, default=1000, help="the C++ MCTS's tree")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0, help="ply's seconds a move")
    parser.add_argument("--level", type=int, default=8, help="ply's level, 1 to 8")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="the results file (JSON lines, resumed)")
    args = parser.parse_args()
    game, board = board_of(args)
    name = (f"{board}-mcts{args.sims}{'-python' if args.mcts == 'python' else ''}"
            f"-think{args.think:g}s{'' if args.level == 8 else f'-level{args.level}'}")
    setting = {"board": board, "mcts": args.mcts, "sims": args.sims, "think": args.think,
               "level": args.level}
    results = Results(pathlib.Path(args.out or RESULTS / f"{name}.jsonl"), setting)
    for g in range(len(results.games), args.games):
        seed = args.seed + g
        ply_seat = g % 2
        ply_bot = PlyBot(game, ply_seat, think=args.think, seed=seed, level=args.level)
        opponent = mcts_bot(args.mcts, game, args.sims, seed, args.max_memory_mb)
        bots = [ply_bot, opponent] if ply_seat == 0 else [opponent, ply_bot]
        returns, choices, seconds = timed_play(game, bots)
        results.add({"game": g, "seed": seed, "ply_first": ply_seat == 0,
                     "ply_return": returns[ply_seat], "ply_choices": choices[ply_seat],
                     "seconds": seconds})
    print(record_line(results.games, "ply_return",
                      f"ply (level {args.level}, {args.think:g} s a move) against "
                      f"{args.mcts} MCTS-{args.sims} on {board}"))


if __name__ == "__main__":
    main()
