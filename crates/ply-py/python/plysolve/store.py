"""The SQLite record of a distributed solve (``plysolve.distributed``): one row per question answered —
a position's key, the window its value was asked about in, the bounds proved, the best move of an
expanded position, nodes and seconds — written as it is answered, so a killed run resumes from it
and two runs may share it. A file that is not such a store is refused with one line."""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Any, Dict, List, Optional, Tuple

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
    ``ValueError`` with one line naming the file, before anything is written."""

    def __init__(self, path: str) -> None:
        self.path = path
        if os.path.isdir(path):
            raise ValueError(f"store {path!r} is a directory, not a SQLite file")
        try:
            self._db = sqlite3.connect(path, timeout=60, isolation_level=None)
        except sqlite3.Error as e:
            raise ValueError(f"cannot open the store {path!r}: {e}") from None
        try:
            self._open()
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise ValueError(f"store {path!r} is not a SQLite database ply can use: {e}") from None
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
            raise ValueError(f"store {self.path!r} is a SQLite database of another application, "
                             "not a plysolve.distributed store")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        columns = [r[1] for r in db.execute("PRAGMA table_info(proved)")]
        if version != VERSION or columns != COLUMNS:
            raise ValueError(f"store {self.path!r} is a plysolve.distributed store of another layout "
                             f"(version {version}; this ply reads version {VERSION})")
        damage = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if damage != "ok":
            raise ValueError(f"store {self.path!r} is damaged: {damage}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")

    def _run(self, sql: str, args: Tuple[Any, ...]) -> sqlite3.Cursor:
        """``sql`` on the store; a damaged file is a ``ValueError`` of one line."""
        try:
            return self._db.execute(sql, args)
        except sqlite3.DatabaseError as e:
            raise ValueError(f"store {self.path!r}: {e}") from None

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        """What the store proves of ``key``: every row's bounds met (``lower``, ``upper``), a best
        move proving the lower bound if one is recorded, and the nodes and seconds of its jobs;
        ``None`` when it holds nothing of it."""
        rows = self._run(
            "SELECT lower, upper, best_move, nodes, seconds, kind FROM proved WHERE key = ? "
            "ORDER BY upper - lower, written DESC",
            (key,),
        ).fetchall()
        if not rows:
            return None
        lower = max(r[0] for r in rows)
        jobs = [r for r in rows if r[5] == "job"] or rows
        return {
            "lower": lower,
            "upper": min(r[1] for r in rows),
            "best_move": next((r[2] for r in rows if r[0] == lower and r[2]), None),
            "nodes": sum(r[3] for r in jobs),
            "seconds": sum(r[4] for r in jobs),
        }

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
