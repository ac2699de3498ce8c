"""The book from Python: plysolve.book_* against `ply dots book` on the same files, the file read by Python's
own sqlite3 as the README documents it, answers from a book, and bad files and conflicts refused
with the CLI's one-line messages."""

import json
import shutil
import sqlite3

import pytest

import plysolve


def build(path, **kwargs):
    return plysolve.book_build(str(path), "triangles", size=3, depth=1, memory="1G", **kwargs)


def test_a_build_is_what_the_cli_exports(cli, tmp_path):
    path = tmp_path / "t.plybook"
    entries = build(path)
    # The empty board and its four classes of first moves, each exact with a best move.
    assert len(entries) == 5
    assert entries[0]["free"] == 18 and entries[0]["lower"] == entries[0]["upper"] == -3
    assert all(e["lower"] == e["upper"] and e["best"] for e in entries)
    exported = [json.loads(line) for line in cli.run("dots", "book", "export", str(path)).stdout.splitlines()]
    assert plysolve.book_export(str(path)) == exported
    by_key = {e["key"]: e for e in exported}
    for e in entries:
        assert {k: v for k, v in by_key[e["key"]].items() if k != "position"} == e
    stats = json.loads(cli.run("dots", "book", "stats", str(path), "--json").stdout)
    assert plysolve.book_stats(str(path)) == stats["boards"]
    assert stats["boards"][0]["positions"] == 5 and stats["boards"][0]["exact"] == 5


def test_a_depth_past_the_last_edge_builds_every_position(tmp_path):
    # 1×1 boxes: 4 edges, so the largest depth there is (2^32 - 1) ends after 4 levels.
    deep = plysolve.book_build(str(tmp_path / "deep.plybook"), "boxes", rows=1, cols=1,
                               depth=2**32 - 1)
    four = plysolve.book_build(str(tmp_path / "four.plybook"), "boxes", rows=1, cols=1, depth=4)
    proved = [[(e["key"], e["free"], e["lower"], e["upper"], e["best"]) for e in entries]
              for entries in (deep, four)]
    assert proved[0] == proved[1]
    assert sorted({e["free"] for e in deep}) == [0, 1, 2, 3, 4]
    assert (deep[0]["free"], deep[0]["lower"], deep[0]["upper"]) == (4, -1, -1)


def test_python_sqlite3_reads_the_documented_format(tmp_path):
    path = tmp_path / "t.plybook"
    build(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == 0x706C7962
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    board, edges = db.execute("SELECT board, edges FROM boards").fetchone()
    assert board == "triangles-3" and edges.split()[:3] == ["1-2", "1-3", "2-3"]
    rows = db.execute("SELECT key, free, lower, upper, best FROM positions ORDER BY free DESC, key").fetchall()
    # The empty board first: key 0, 18 free edges, -3 (B wins 6-3).
    assert rows[0][:4] == (0, 18, -3, -3)
    assert len(rows) == 5 and all(r[1] == 17 for r in rows[1:])
    db.close()


def test_export_import_and_merge_round_trip(tmp_path):
    a, b, c = (str(tmp_path / n) for n in ("a.plybook", "b.plybook", "c.plybook"))
    build(a)
    exported = plysolve.book_export(a)
    assert plysolve.book_import(b, exported) == 5
    assert plysolve.book_export(b) == exported
    assert plysolve.book_merge(c, a) == 5
    assert plysolve.book_export(c) == exported


def test_a_conflict_is_refused_naming_the_position(tmp_path):
    a, forged = str(tmp_path / "a.plybook"), str(tmp_path / "f.plybook")
    build(a)
    wrong = [dict(e, lower=-1, upper=-1, best=None) for e in plysolve.book_export(a) if e["free"] == 18]
    plysolve.book_import(forged, wrong)
    with pytest.raises(ValueError) as caught:
        plysolve.book_merge(a, forged)
    message = str(caught.value)
    assert "position triangles-3 0x0 (``) is proved -3 there and -1 here" in message
    assert "\n" not in message
    # Nothing written: the book still says -3.
    assert [e["lower"] for e in plysolve.book_export(a) if e["free"] == 18] == [-3]


def test_verify_agrees_and_marks_entries_checked(tmp_path):
    path = str(tmp_path / "v.plybook")
    build(path)
    found = plysolve.book_verify(path, memory="1G")
    assert found == {"triangles-3": {
        "agreed": 5, "from_children": 1, "already": 0, "unsettled": 0, "disagreements": []}}
    # The empty board, proved from its children, is checked from theirs.
    assert sorted(e["checked_by"].split(" ", 2)[2] for e in plysolve.book_export(path)) == [
        "children"] + ["search high-first"] * 4
    resumed = plysolve.book_verify(path, memory="1G", resume=True)
    assert resumed["triangles-3"]["already"] == 5 and resumed["triangles-3"]["agreed"] == 0


def test_dots_answers_from_a_book_and_not_without(tmp_path):
    path = str(tmp_path / "d.plybook")
    build(path)
    from_book = plysolve.dots("triangles", size=3, detail="moves", book=path)
    assert from_book["strategy"] == "book" and from_book["value"] == -3
    assert from_book["states_visited"] == 0
    searched = plysolve.dots("triangles", size=3, detail="moves", strategy="search", no_book=True)
    assert searched["strategy"] == "search"
    assert [m["value"] for m in searched["moves"]] == [m["value"] for m in from_book["moves"]]


def test_bad_book_files_raise_value_error(tmp_path):
    junk = tmp_path / "junk.plybook"
    junk.write_bytes(b"not a database at all, just bytes " * 100)
    with pytest.raises(ValueError, match=r"not a ply book \(not an SQLite file\)$"):
        plysolve.book_stats(str(junk))
    with pytest.raises(ValueError, match="not a ply book"):
        plysolve.dots("triangles", size=3, book=str(junk))
    with pytest.raises(ValueError, match="no such book"):
        plysolve.book_export(str(tmp_path / "none.plybook"))
    with pytest.raises(ValueError, match="tie_order"):
        plysolve.book_build(str(tmp_path / "x.plybook"), "triangles", tie_order="sideways")
    # A keep takes seconds: keeping more often than each second is refused, as on the command line.
    with pytest.raises(ValueError, match=r"^keep_every: `0.5s` is under a second: a keep takes seconds$"):
        plysolve.book_build(str(tmp_path / "x.plybook"), "triangles", keep_every="0.5s")
    with pytest.raises(ValueError, match=r"^keep_every: `0.5s` is under a second: a keep takes seconds$"):
        plysolve.book_verify(str(tmp_path / "x.plybook"), keep_every="0.5s")


def test_stats_count_what_unfinished_proofs_kept(tmp_path):
    """A finished build keeps nothing; what unfinished proofs kept is counted per part: blocks of
    12 bytes a state, and an older version's rows a state."""
    path = tmp_path / "t.plybook"
    build(path, keep_every=None)
    assert [(b["kept"], b["kept_checks"]) for b in plysolve.book_stats(str(path))] == [(0, 0)]
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE unfinished_checks (board TEXT NOT NULL, state INTEGER NOT NULL, "
                     "lower INTEGER NOT NULL, upper INTEGER NOT NULL, best INTEGER, root INTEGER, "
                     "PRIMARY KEY (board, state)) STRICT, WITHOUT ROWID")
        conn.execute("INSERT INTO unfinished_checks VALUES ('triangles-3', 3, -2, 2, NULL, 0)")
        conn.execute("CREATE TABLE unfinished_blocks (board TEXT NOT NULL, part TEXT NOT NULL, "
                     "root INTEGER NOT NULL, block INTEGER NOT NULL, states BLOB NOT NULL, "
                     "PRIMARY KEY (board, part, root, block)) STRICT")
        # Two states of 12 bytes: the drawn edges, lower, upper, no best move, free edges.
        two = b"".join(s.to_bytes(8, "little") + bytes([254, 2, 255, 7]) for s in (3, 5))
        conn.execute("INSERT INTO unfinished_blocks VALUES ('triangles-3', 'build', 0, 0, ?)", (two,))
        conn.execute("INSERT INTO unfinished_blocks VALUES ('triangles-3', 'check', 0, 0, ?)", (two[:12],))
    conn.close()
    assert [(b["kept"], b["kept_checks"]) for b in plysolve.book_stats(str(path))] == [(2, 2)]


def test_a_missing_book_is_refused_by_what_only_reads_or_checks_it(tmp_path, monkeypatch):
    """Stats, export and verify of a book that is not there: the CLI's `no such book`, as a
    ValueError naming the path, and no file (an empty book) left behind."""
    monkeypatch.chdir(tmp_path)
    calls = [plysolve.book_stats, plysolve.book_export, plysolve.book_verify,
             lambda path: plysolve.book_merge("into.plybook", path)]
    for call in calls:
        with pytest.raises(ValueError) as raised:
            call("missing.plybook")
        assert type(raised.value) is ValueError
        assert str(raised.value) == "`missing.plybook`: no such book"
    # A path in a folder that does not exist is not made either.
    with pytest.raises(ValueError, match="^`gone/missing.plybook`: no such book$"):
        plysolve.book_verify("gone/missing.plybook")
    assert list(tmp_path.iterdir()) == []


def test_a_book_that_contradicts_itself_or_the_search_raises_value_error(tmp_path, monkeypatch):
    # The probe's book (issue 30): 1-2 is +3, the book says +1. A short path: messages quote it whole.
    monkeypatch.chdir(tmp_path)
    path = "w.plybook"
    build(path)
    # The start's best move (1-2) left out: with it, the book contradicts itself as it is read (below).
    conn = sqlite3.connect(path)
    conn.execute("UPDATE positions SET lower = 1, upper = 1 WHERE key = 1")
    conn.execute("UPDATE positions SET best = NULL WHERE key = 0")
    conn.commit()
    conn.close()
    damaged = "; the book is damaged (ply dots book verify)"
    with pytest.raises(ValueError) as at_child:
        plysolve.dots("triangles", size=3, moves="1-2", book=path)
    assert str(at_child.value) == (
        f"the book `{path}` contradicts the search at 1-2: +1 there, but the search proves +3{damaged}"
    )
    with pytest.raises(ValueError) as at_start:
        plysolve.dots("triangles", size=3, book=path)
    assert str(at_start.value) == (
        f"the book `{path}` contradicts itself at the start: -3 there, but -1 by its entries after each move{damaged}"
    )
    # The start's best move back (in another file: this process keeps what it read of `path`): its
    # entry and 1-2's disagree, whatever is asked (a value alone too).
    shutil.copy(path, "w2.plybook")
    conn = sqlite3.connect("w2.plybook")
    conn.execute("UPDATE positions SET best = '1-2' WHERE key = 0")
    conn.commit()
    conn.close()
    for moves, detail in [("", "moves"), ("1-2", "value")]:
        with pytest.raises(ValueError) as refused:
            plysolve.dots("triangles", size=3, moves=moves, book="w2.plybook", detail=detail)
        assert str(refused.value) == (
            "the book `w2.plybook` contradicts itself at the start: -3 there with best move 1-2, "
            f"but that move is worth -1 by its entry of 1-2{damaged}"
        )
    with pytest.raises(ValueError, match=r"^book and no_book=True contradict each other"):
        plysolve.dots("triangles", size=3, book=path, no_book=True)
    # One book merged into itself, by another path: refused.
    with pytest.raises(ValueError, match="a book is not merged into itself$"):
        plysolve.book_merge(path, "./w.plybook")
