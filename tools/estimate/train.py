"""Trains the learned estimate of dots positions (crates/plysolve/src/games/dots/theory/learned.rs)
from the exactly valued positions of tools/estimate/data/ (made by make_data.sh), and measures it.

    python3 -m venv /tmp/estimate && /tmp/estimate/bin/pip install -r tools/estimate/requirements.txt
    /tmp/estimate/bin/python tools/estimate/train.py

Every set is split by a fixed rule before anything is fitted: the measurement pools (4×4 at 32–36
free edges, 5×5 at 40–44) half for training, half held out; the training sets 80 % / 20 %. Models
are chosen on a validation slice of the training part only; the held-out part is read once, at the
end, for the table (printed as markdown, for BENCHMARKS.md) and for the error the estimate reports
(its mean absolute error per board and free-edge count, in the model file).

Writes crates/plysolve/src/games/dots/theory/estimate-model.json: the features' names (checked by the
Rust side against its own list), the gradient-boosted trees (sklearn's GradientBoostingRegressor:
the prediction is `init + rate · Σ tree(x)`; a tree goes left when `x[feature] <= threshold`), and
the error table.

    python3 tools/estimate/train.py --held-out train-boxes-5x5 > held.csv

writes the rows of one set that are held out (never trained on), as the set's own CSV: what
`cargo run --release -p plysolve --example estimate_regret -- held.csv N DEPTH...` measures the
estimates' play on."""

from __future__ import annotations

import csv
import hashlib
import json
import pathlib
import sys

import numpy as np
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.linear_model import Ridge

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tools" / "estimate" / "data"
MODEL = ROOT / "crates" / "plysolve" / "src" / "games" / "dots" / "theory" / "estimate-model.json"
META = ["board", "free", "moves", "quiet", "value", "nodes", "seconds"]


def board_name(board: str) -> str:
    """`boxes:4x4` → `boxes-4x4`, as the books name boards."""
    return board.replace(":", "-")


def share(moves: str) -> float:
    """A fixed number in [0, 1) for a position: what splits the sets, the same on every run."""
    return int(hashlib.sha256(moves.encode()).hexdigest()[:8], 16) / 2**32


def load():
    rows, names = [], None
    for path in sorted(DATA.glob("*.csv")):
        with path.open() as f:
            reader = csv.DictReader(f)
            # The meta columns, then the features (the first of which, `free`, repeats a meta one).
            assert reader.fieldnames[:len(META)] == META, path
            names = reader.fieldnames[len(META):]
            for r in reader:
                r["set"] = path.stem
                rows.append(r)
    return rows, names


def trains(set_name: str, moves: str) -> bool:
    """Whether the position `moves` of the set `set_name` is trained on (else held out): half of
    each measurement pool, 80 % of each training set."""
    return share(moves) < (0.5 if set_name.startswith("pool-") else 0.8)


def split(rows):
    train, held = [], []
    for r in rows:
        (train if trains(r["set"], r["moves"]) else held).append(r)
    return train, held


#: How much more a position of the measurement pools weighs in the fit than one of the training
#: sets: they are few (each takes ply a minute to value) but they are the positions people reach.
POOL_WEIGHT = 20.0


def matrix(rows, names):
    x = np.array([[float(r[n]) for n in names] for r in rows])
    y = np.array([float(r["value"]) for r in rows])
    return x, y


def weights(rows):
    return np.array([POOL_WEIGHT if r["set"].startswith("pool-") else 1.0 for r in rows])


def measures(pred, y, constant):
    nonzero = y != 0
    sign = float(np.mean(np.sign(np.round(pred[nonzero])) == np.sign(y[nonzero]))) if nonzero.any() else float("nan")
    corr = float(np.corrcoef(pred, y)[0, 1]) if np.std(pred) > 0 and np.std(y) > 0 else float("nan")
    return {
        "mae": float(np.mean(np.abs(pred - y))),
        "constant": float(np.mean(np.abs(constant - y))),
        "sign": sign,
        "corr": corr,
    }


def on_lattice(pred, open_cells):
    """The value nearest each prediction that its position can have — the parity of its open cells,
    within ±open cells — as the estimate is shown (`learned::on_lattice` in Rust)."""
    k = np.clip(np.round((open_cells - pred) / 2.0), 0, open_cells)
    return open_cells - 2 * k


def gbdt(seed=0):
    return GradientBoostingRegressor(loss="huber", n_estimators=400, max_depth=4, learning_rate=0.05,
                                     subsample=0.8, random_state=seed)


def export(model, names, errors, counts):
    trees = []
    for (est,) in model.estimators_:
        t = est.tree_
        trees.append({
            "feature": [int(f) for f in t.feature],
            "threshold": [float(v) for v in t.threshold],
            "left": [int(v) for v in t.children_left],
            "right": [int(v) for v in t.children_right],
            "value": [round(float(v), 6) for v in t.value[:, 0, 0]],
        })
    init = float(model.init_.predict(np.zeros((1, len(names))))[0])
    return {
        "version": 1,
        "features": names,
        "init": init,
        "rate": model.learning_rate,
        "trees": trees,
        "errors": errors,
        "trained_on": counts,
    }


def main():
    rows, names = load()
    train, held = split(rows)
    if not train or not held:
        sys.exit("no data: run tools/estimate/make_data.sh first")
    # Model choice on a validation slice of the training part.
    fit_rows = [r for r in train if share(r["moves"] + "/v") >= 0.2]
    val_rows = [r for r in train if share(r["moves"] + "/v") < 0.2]
    xf, yf = matrix(fit_rows, names)
    xv, yv = matrix(val_rows, names)
    candidates = {"ridge": Ridge(alpha=1.0), "gbdt": gbdt()}
    scores = {}
    for name, m in candidates.items():
        m.fit(xf, yf, sample_weight=weights(fit_rows))
        scores[name] = float(np.mean(np.abs(m.predict(xv) - yv)))
    print("validation mean error:", {k: round(v, 3) for k, v in scores.items()}, file=sys.stderr)
    if min(scores, key=scores.get) != "gbdt":
        sys.exit("the trees lost to the linear model on validation: export a linear model instead")
    x, y = matrix(train, names)
    model = gbdt().fit(x, y, sample_weight=weights(train))
    constant = float(np.median(y))
    # The held-out part, once.
    xh, yh = matrix(held, names)
    raw = model.predict(xh)
    # What reports show: the prediction on the values the open cells allow.
    pred = on_lattice(raw, xh[:, names.index("open_cells")])
    today = xh[:, names.index("estimate")]
    errors = {}
    groups = {}
    for r, p, t, v, q in zip(held, pred, today, yh, raw):
        groups.setdefault((r["set"], board_name(r["board"]), int(r["free"])), []).append((p, t, v, q))
        errors.setdefault(board_name(r["board"]), {}).setdefault(int(r["free"]), []).append(abs(p - v))
    errors = {b: {str(f): round(float(np.mean(e)), 2) for f, e in sorted(fs.items()) if len(e) >= 5}
              for b, fs in errors.items()}
    counts = {}
    for r in train:
        counts[board_name(r["board"])] = counts.get(board_name(r["board"]), 0) + 1
    MODEL.write_text(json.dumps(export(model, names, errors, counts), separators=(",", ":")) + "\n")
    print(f"wrote {MODEL.relative_to(ROOT)} ({len(train)} positions trained on, {len(held)} held out)",
          file=sys.stderr)
    # The table: per set and free-edge range, held-out positions only.
    print("| set | free edges | positions | mean error: learned (shown) | learned, unrounded | best constant | today's estimate | sign right (learned / today) | correlation |")
    print("|---|---|---|---|---|---|---|---|---|")
    by_set = {}
    for (s, b, f), items in groups.items():
        by_set.setdefault(s, []).extend((f, *i) for i in items)
    for s, items in sorted(by_set.items()):
        frees = [i[0] for i in items]
        p = np.array([i[1] for i in items])
        t = np.array([i[2] for i in items])
        v = np.array([i[3] for i in items])
        q = np.array([i[4] for i in items])
        best_constant = float(np.median(v))
        m = measures(p, v, best_constant)
        mt = measures(t, v, best_constant)
        print(f"| {s} | {min(frees)}–{max(frees)} | {len(v)} | {m['mae']:.2f} | {np.mean(np.abs(q - v)):.2f} | {m['constant']:.2f} | "
              f"{mt['mae']:.2f} | {m['sign']:.0%} / {mt['sign']:.0%} | {m['corr']:.2f} |")


def held_out(name: str) -> None:
    """Prints the held-out rows of the set `name` (a CSV's stem in tools/estimate/data/)."""
    path = DATA / f"{name}.csv"
    if not path.is_file():
        sys.exit(f"no set {name!r} in {DATA}")
    lines = path.read_text().splitlines()
    moves = lines[0].split(",").index("moves")
    print(lines[0])
    for line in lines[1:]:
        if not trains(name, line.split(",")[moves]):
            print(line)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--held-out":
        held_out(sys.argv[2])
    else:
        main()
