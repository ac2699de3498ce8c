"""ply against OpenSpiel's MCTSBot (random rollouts), on OpenSpiel's own ``dots_and_boxes``: an
opponent no one here wrote. Seats alternate; each game is appended to ``--out`` as a JSON line as
soon as it ends, so a stopped run resumes where it stopped (the games already there are counted).

    target/py-venv/bin/python tools/strength/mcts_match.py --rows 5 --cols 5 --sims 1000 \\
        --games 200 --think 1 --out tools/strength/results/boxes-5x5-mcts1000.jsonl

Prints the record — wins, draws, losses for ply, and its score (a win 1, a draw ½) with a 95 %
Wilson interval. OpenSpiel has no Dots and Triangles, so the triangle boards are not matched here.
Needs the ``ply`` package and ``open-spiel`` in the same environment (``.ci/run`` makes one)."""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from plysolve.openspiel import PlyBot


def wilson(score: float, n: int, z: float = 1.96):
    """The 95 % Wilson interval of a proportion `score` over `n` games."""
    if n == 0:
        return (0.0, 1.0)
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(game, bots):
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(bots[player].step(state))
    return state.returns()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--cols", type=int, default=5)
    parser.add_argument("--sims", type=int, default=1000, help="MCTS simulations a move")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0, help="ply's seconds a move")
    parser.add_argument("--level", type=int, default=8, help="ply's level, 1 to 8")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="JSON lines, one a game (resumed)")
    args = parser.parse_args()
    game = pyspiel.load_game("dots_and_boxes", {"num_rows": args.rows, "num_cols": args.cols})
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    for g in range(len(done), args.games):
        seed = args.seed + g
        ply_seat = g % 2
        rng = np.random.RandomState(seed)
        mcts_bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.sims,
                                evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng,
                                solve=True, verbose=False)
        ply_bot = PlyBot(game, ply_seat, think=args.think, seed=seed, level=args.level)
        bots = [ply_bot, mcts_bot] if ply_seat == 0 else [mcts_bot, ply_bot]
        started = time.time()
        returns = play(game, bots)
        record = {"game": g, "seed": seed, "ply_first": ply_seat == 0, "ply_return": returns[ply_seat],
                  "seconds": round(time.time() - started, 1), "sims": args.sims, "think": args.think,
                  "level": args.level, "rows": args.rows, "cols": args.cols}
        with out.open("a") as f:
            f.write(json.dumps(record) + "\n")
        done.append(record)
        print(json.dumps(record), flush=True)
    wins = sum(r["ply_return"] > 0 for r in done)
    draws = sum(r["ply_return"] == 0 for r in done)
    losses = sum(r["ply_return"] < 0 for r in done)
    n = len(done)
    score = (wins + draws / 2) / n if n else 0.0
    low, high = wilson(score, n)
    print(f"ply (level {args.level}, {args.think} s a move) against MCTS-{args.sims} on "
          f"{args.rows}x{args.cols} boxes: {n} games, {wins} wins, {draws} draws, {losses} losses; "
          f"score {score:.1%} (95 % interval {low:.1%}–{high:.1%})")


if __name__ == "__main__":
    main()
