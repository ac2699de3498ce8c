"""An A/B of the estimate alone: ply against ply, the same player in all but the estimate its
anytime search values unproved positions by — the learned one (every front end's) against the
hand-made one it replaced (``PlyBot(estimate="hand-made")``). Played on OpenSpiel's
``dots_and_boxes`` (``--game boxes --rows R --cols C``) or Dots and Triangles (``--game triangles
--size S``), seats alternating (the learned estimate first in even games), each game appended to
the results file as a JSON line as soon as it ends, so a stopped run resumes where it stopped. One
file per setting: by default ``results/<board>-ab-estimate-think<t>s.jsonl`` beside this script.

    python tools/strength/ab_match.py --game boxes --rows 5 --cols 5 --think 1 --games 200

Both players run in this one process, one move at a time, each with the whole machine while it
thinks; they share what ply keeps between moves (the proofs of its search memory), which helps
either side alike. Each record's ``learned_return`` is the learned side's margin in cells. Prints
the learned estimate's record — wins, draws, losses, and its score (a
win 1, a draw ½) with a 95 % Wilson interval."""

from __future__ import annotations

import argparse
import pathlib

from match import RESULTS, Results, add_board_arguments, board_of, timed_play, record_line
from plysolve.openspiel import PlyBot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_board_arguments(parser)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0, help="each player's seconds a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="the results file (JSON lines, resumed)")
    args = parser.parse_args()
    game, board = board_of(args, margin=True)
    setting = {"board": board, "think": args.think, "a": "learned", "b": "hand-made"}
    name = f"{board}-ab-estimate-think{args.think:g}s"
    results = Results(pathlib.Path(args.out or RESULTS / f"{name}.jsonl"), setting)
    for g in range(len(results.games), args.games):
        seed = args.seed + g
        seat = g % 2
        learned = PlyBot(game, seat, think=args.think, seed=seed)
        hand_made = PlyBot(game, 1 - seat, think=args.think, seed=seed, estimate="hand-made")
        bots = [learned, hand_made] if seat == 0 else [hand_made, learned]
        returns, choices, seconds = timed_play(game, bots)
        results.add({"game": g, "seed": seed, "learned_first": seat == 0,
                     "learned_return": returns[seat], "learned_choices": choices[seat],
                     "hand_made_choices": choices[1 - seat], "seconds": seconds})
    print(record_line(results.games, "learned_return",
                      f"the learned estimate against the hand-made on {board}, "
                      f"{args.think:g} s a move"))


if __name__ == "__main__":
    main()
