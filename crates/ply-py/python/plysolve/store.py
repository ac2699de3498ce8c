"""The SQLite record of a distributed solve (``plysolve.distributed``): one row per question answered —
a position's key, the window its value was asked about in, the bounds proved, the best move of an
expanded position, nodes and seconds — written as it is answered, so a killed run resumes from it
and two runs may share it. A file that is not such a store is refused with one line, and so is a
row no search proves (bounds out of range, crossed, of the wrong parity, not whole numbers), naming
it, when it is read."""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Any, Dict, List, Optional, Tuple

# What a message quotes of a path or of what a file holds: escaped, at most 40 characters.
from ._quoting import shown as _shown

__all__ = ["Store", "APPLICATION_ID", "VERSION"]

Range = Tuple[int, int]

SCHEMA = """
CREATE TABLE IF NOT EXISTS proved (
    key          TEXT NOT NULL,     -- the position up to symmetries and twins (ply's jobs::key)
    window_lower INTEGER NOT NULL,  -- the window its value was asked about in: [t - 1, t] asks
    window_upper INTEGER NOT NULL,  --   whether it reaches t
    lower        INTEGER NOT NULL,  -- the bounds proved on its value for the player to move
    upper        INTEGER NOT NULL,
    best_move    TEXT,              -- a move proving the lower bound (expanded positions; null
                                    --   for a job, whose search proves a bound, not a move)
    moves        TEXT NOT NULL,     -- the moves that reached it, as ply notation
    nodes        INTEGER NOT NULL,  -- search nodes (for an expanded position: its children's)
    seconds      REAL NOT NULL,     -- time of the job (for an expanded position: its children's)
    kind         TEXT NOT NULL,     -- 'job' or 'expanded'
    written      REAL NOT NULL,     -- when it was written (Unix time)
    PRIMARY KEY (key, window_lower, window_upper)
)
"""


#: SQLite's application id of a store ("ply" + 1): a file holding another application's tables is
#: refused rather than written into.
APPLICATION_ID = 0x706C7901
#: The store's layout (SQLite's user_version): 2 since jobs are tests in a window.
VERSION = 2
COLUMNS = ["key", "window_lower", "window_upper", "lower", "upper", "best_move", "moves", "nodes",
           "seconds", "kind", "written"]


class Store:
    """The SQLite record of a solve: one row per question answered (a position and the window its
    value was asked about in), written as it is answered.

    A new or empty file becomes a store; a file that is no SQLite database, or a database of
    something else (another application id, other tables or columns, an older layout), raises
    ``ValueError`` with one line naming the file (its path escaped, at most 40 characters of it),
    before anything is written."""

    def __init__(self, path: str) -> None:
        self.path = path
        if path in ("", ":memory:"):
            # SQLite's names of a database in memory: the record would be lost with the process.
            raise ValueError(f"store {_shown(path)} names no file: give the path of a SQLite file "
                             "(created if missing)")
        if os.path.isdir(path):
            raise ValueError(f"store {_shown(path)} is a directory, not a SQLite file")
        try:
            self._db = sqlite3.connect(path, timeout=60, isolation_level=None)
        except sqlite3.Error as e:
            raise ValueError(f"cannot open the store {_shown(path)}: {e}") from None
        try:
            self._open()
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise ValueError(f"store {_shown(path)} is not a SQLite database ply can use: {e}") from None
        except ValueError:
            self._db.close()
            raise

    def _open(self) -> None:
        db = self._db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        if app == 0 and not tables:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN IMMEDIATE")
            try:
                # Another run may have made it meanwhile: CREATE … IF NOT EXISTS.
                db.execute(SCHEMA)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {VERSION}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            app = APPLICATION_ID
        if app != APPLICATION_ID:
            raise ValueError(f"store {_shown(self.path)} is a SQLite database of another application, "
                             "not a plysolve.distributed store")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        columns = [r[1] for r in db.execute("PRAGMA table_info(proved)")]
        if version != VERSION or columns != COLUMNS:
            raise ValueError(f"store {_shown(self.path)} is a plysolve.distributed store of another layout "
                             f"(version {version}; this ply reads version {VERSION})")
        damage = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if damage != "ok":
            raise ValueError(f"store {_shown(self.path)} is damaged: {damage}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")

    def _run(self, sql: str, args: Tuple[Any, ...]) -> sqlite3.Cursor:
        """``sql`` on the store; a damaged file is a ``ValueError`` of one line."""
        try:
            return self._db.execute(sql, args)
        except sqlite3.DatabaseError as e:
            raise ValueError(f"store {_shown(self.path)}: {e}") from None

    def get(self, key: str, cells: int) -> Optional[Dict[str, Any]]:
        """What the store proves of ``key``, a position of ``cells`` open cells: every row's bounds
        met (``lower``, ``upper``), a best move proving the lower bound if one is recorded, and the
        nodes and seconds of its jobs; ``None`` when it holds nothing of it. A row no search
        proves raises ``ValueError`` naming it (``_checked``)."""
        rows = self._run(
            "SELECT rowid, window_lower, window_upper, lower, upper, best_move, nodes, seconds, "
            "kind FROM proved WHERE key = ? ORDER BY upper - lower, written DESC",
            (key,),
        ).fetchall()
        if not rows:
            return None
        rows = [self._checked(key, cells, row) for row in rows]
        lower = max(r["lower"] for r in rows)
        jobs = [r for r in rows if r["kind"] == "job"] or rows
        return {
            "lower": lower,
            "upper": min(r["upper"] for r in rows),
            "best_move": next((r["best_move"] for r in rows
                               if r["lower"] == lower and r["best_move"]), None),
            "nodes": sum(r["nodes"] for r in jobs),
            "seconds": sum(r["seconds"] for r in jobs),
        }

    def _checked(self, key: str, cells: int, row: Tuple[Any, ...]) -> Dict[str, Any]:
        """A row of ``key`` (``get``'s columns) as a search could have written it: a window of
        two whole numbers, the lower end below the upper; bounds whole numbers within ±``cells``,
        the lower at most the upper, both of the parity of ``cells`` (a value is the cells one
        player takes less the other's); a best move of text or none; nodes and seconds at least
        0; kind ``job`` or ``expanded``. Else ``ValueError``: the store, the row and its fault."""
        rowid, w_lower, w_upper, lower, upper, best_move, nodes, seconds, kind = row
        fault = None
        whole = [(name, v) for name, v in (("window", w_lower), ("window", w_upper),
                                             ("bounds", lower), ("bounds", upper))
                 if type(v) is not int]
        if whole:
            name, value = whole[0]
            fault = f"its {name} hold {_shown(value)}, not a whole number"
        elif w_lower >= w_upper:
            fault = f"its window [{w_lower}, {w_upper}] holds no value"
        elif not -cells <= lower <= cells or not -cells <= upper <= cells:
            fault = (f"its bounds [{lower}, {upper}] lie beyond ±{cells}, the cells open in the "
                     "position")
        elif lower > upper:
            fault = f"its bounds [{lower}, {upper}] are crossed (the lower above the upper)"
        elif (lower - cells) % 2 or (upper - cells) % 2:
            fault = (f"its bounds [{lower}, {upper}] are not of the parity of the position's "
                     f"{cells} open cells")
        elif best_move is not None and type(best_move) is not str:
            fault = f"its best move {_shown(best_move)} is not text"
        elif type(nodes) is not int or nodes < 0:
            fault = f"its nodes {_shown(nodes)} are not a count"
        elif type(seconds) not in (int, float) or not seconds >= 0:
            fault = f"its seconds {_shown(seconds)} are not a time"
        elif kind not in ("job", "expanded"):
            fault = f"its kind {_shown(kind)} is neither 'job' nor 'expanded'"
        if fault is not None:
            raise ValueError(f"store {_shown(self.path)} is damaged: row {rowid} (position "
                             f"{_shown(key)}): {fault}")
        return {"lower": lower, "upper": upper, "best_move": best_move, "nodes": nodes,
                "seconds": float(seconds), "kind": kind}

    def put(
        self,
        key: str,
        window: Range,
        bounds: Range,
        best_move: Optional[str],
        moves: List[str],
        nodes: int,
        seconds: float,
        kind: str,
    ) -> None:
        """Writes what was proved of ``key`` asked about in ``window`` (committed at once; the
        same question answered again replaces its row)."""
        self._run(
            "INSERT OR REPLACE INTO proved VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, window[0], window[1], bounds[0], bounds[1], best_move, " ".join(moves), nodes,
             seconds, kind, time.time()),
        )

    def count(self) -> int:
        """Rows in the store."""
        return self._run("SELECT COUNT(*) FROM proved", ()).fetchone()[0]

    def close(self) -> None:
        """Closes the file (every row is already committed)."""
        self._db.close()
