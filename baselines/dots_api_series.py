#!/usr/bin/env python3
"""Random dots positions asked of a running `ply serve`: is each answered exactly, and how fast?

    python3 baselines/dots_api_series.py URL GAME SIZE FREE COUNT [DETAIL]

URL: the server (e.g. http://127.0.0.1:8080); GAME: boxes or triangles; SIZE: ROWSxCOLS for boxes, N for
triangles; FREE: free edges of each position; COUNT: positions (seeds 0..COUNT-1); DETAIL: value, moves
or line (default moves). A position is made by random safe moves (drawing no cell's last edge but one)
while there are any, then random moves; the board's edges and cells come from POST /api/dots/board.
Prints one line per position (exact, strategy, value, time) and a summary: how many were exact, and
the median and largest time (whole requests, seen from here)."""
import json
import random
import statistics
import sys
import time
import urllib.request


def post(url, path, body):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


def position(view, drawn, seed):
    rnd = random.Random(seed)
    free = [e["name"] for e in view["edges"]]
    rnd.shuffle(free)
    chosen = []
    cells_of = {e: [c for c in view["cells"] if e in c["edges"]] for e in free}
    def safe(e):
        return all(sum(x in chosen or x == e for x in c["edges"]) <= len(c["edges"]) - 2
                   for c in cells_of[e])
    while len(chosen) < drawn:
        options = [e for e in free if safe(e)] or free
        e = rnd.choice(options)
        chosen.append(e)
        free.remove(e)
    return " ".join(chosen)


def main():
    url, game, size, free, count = sys.argv[1:6]
    detail = sys.argv[6] if len(sys.argv) > 6 else "moves"
    board = {"game": game}
    if game == "boxes":
        rows, cols = size.split("x")
        board.update(rows=int(rows), cols=int(cols))
    else:
        board.update(size=int(size))
    view = post(url, "/api/dots/board", board)
    drawn = len(view["edges"]) - int(free)
    times, exact = [], 0
    for seed in range(int(count)):
        body = dict(board, moves=position(view, drawn, seed), detail=detail)
        started = time.time()
        report = post(url, "/api/dots", body)
        seconds = time.time() - started
        times.append(seconds)
        exact += report["exact"]
        print(f"{game} {size} free {free} seed {seed}: exact {report['exact']} "
              f"{report['strategy']} value {report['value']} {seconds:.3f} s", flush=True)
    print(f"{exact}/{count} exact; median {statistics.median(times):.3f} s, "
          f"largest {max(times):.3f} s ({detail})")


if __name__ == "__main__":
    main()
