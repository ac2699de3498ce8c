"""plysolve: ply's exact solvers for small games, from Python.

Every function asks the same question as a ``ply`` command and returns the same data as its
``--json`` output, parsed into plain dicts and lists (the keys identical): the request is built
from the keyword arguments (named after the command's long options), answered by the same library
call, and faults raise ``ValueError`` with a one-line message naming the argument at fault in
Python's terms (``strategy="memo"``, ``rows=99999999999999999999 is too large``; the command's
message otherwise, without ``ply: ``).

Errors: a bad value of any argument — of the wrong kind too, as ``rows="x"`` or ``moves=42`` — is a
``ValueError``. ``TypeError`` is raised only for what Python itself refuses: an unknown keyword, a
missing argument, an object with no JSON form (``rows=object()``, ``moves=b"1-2"``), a set where a
list is expected (``heaps={5, 3}``: a set has no order), or a ``progress`` that cannot be called.
Every message names the argument at fault (``moves: bytes has no JSON form …``, ``game='\\udcff':
not text (a lone surrogate)``), quoting at most 40 characters of its value.

Every question of ply's registry (what ``GET /api/games`` lists, one ``POST /api/…`` each) is a
function of this package, named by the registry (:func:`questions` lists them). The functions below
are written by hand; every other question's (``play_dots``, ``dots_review``, ``dice_race_sums``,
``magic_board_generate``, …) is made from the registry at import time: its keyword arguments are
the request's keys (the body its ``POST`` takes), and ``memory``; it returns what the server
answers. Such a function has no fixed keywords, so ply judges them all: an unknown one is a
``ValueError`` naming it and the arguments there are.

Solves release the GIL, stop on Ctrl-C (``KeyboardInterrupt``) and can report progress to a
callable (``progress=print``: it is called with the states visited so far, from the calling
thread; an exception it raises stops the solve and propagates).

Submodules: :mod:`plysolve.openspiel` (an exact bridge and bot for OpenSpiel's ``dots_and_boxes``
and Dots and Triangles), :mod:`plysolve.openspiel_triangles` (Dots and Triangles as an OpenSpiel
game, on ply's boards) and :mod:`plysolve.distributed` (a job-level search on Ray, resumable from a SQLite store).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterable, Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from . import _ply
from ._quoting import shown

__version__: str = _ply.__version__

__all__ = [
    "dots",
    "dots_batch",
    "dots_move",
    "book_build",
    "book_stats",
    "book_export",
    "book_merge",
    "book_import",
    "book_verify",
    "solitaire",
    "heaps",
    "dice_race_compare",
    "dice_race_best",
    "magic_board",
    "questions",
]

Moves = Union[str, Sequence[str]]
Numbers = Union[str, Sequence[int]]
Time = Union[None, float, int, str]
Progress = Optional[Callable[[int], Any]]


def _request(**keys: Any) -> str:
    """The request (or a function's own arguments) as JSON, keys left out where the caller gave
    ``None`` (the library's default), each argument converted by :func:`_json` (what JSON cannot
    hold refused there, naming the argument). ply reads and judges every value."""
    given = ", ".join(f"{json.dumps(k)}: {_json(k, v)}" for k, v in keys.items() if v is not None)
    return "{" + given + "}"


def _json(name: str, value: Any) -> str:
    """The argument ``name``'s ``value`` as JSON text, or refused naming it (in one line, the
    value quoted escaped and short): a set (``TypeError``: it has no order, and every list ply
    takes is ordered), an object with no JSON form (``TypeError``: ``bytes``, ``object()``), a
    float JSON cannot hold (``ValueError``: ``nan``, ``inf``) and text that is not text (a lone
    surrogate, which no UTF-8 holds: ``ValueError``)."""
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False, default=_no_json_form)
    except TypeError as e:
        raise TypeError(f"{name}: {e}") from None
    except ValueError as e:
        # json's two refusals: a float out of range, and a value that holds itself.
        fault = "holds itself" if "Circular" in str(e) else "holds a number that is not finite"
        raise ValueError(f"{name}={shown(value)} {fault}") from None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{name}={shown(value)}: not text (a lone surrogate)") from None
    return text


def _no_json_form(value: Any) -> Any:
    """What ``json.dumps`` calls for a ``value`` it cannot write: always a ``TypeError`` saying
    why (:func:`_json` adds the argument's name)."""
    if isinstance(value, (set, frozenset)):
        raise TypeError("a set has no order; give a list")
    raise TypeError(f"{type(value).__name__} has no JSON form (give a str, a number, a bool, a "
                    "list or a dict)")


def _callable(progress: Progress) -> Progress:
    """``progress`` if it can be called (or ``None``); else TypeError, before any work, whether or not
    the solve would have called it."""
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable (as print is), not {progress!r:.40}")
    return progress


def _listed(value: Any) -> Any:
    """A sequence (list, tuple, generator) as a list, for JSON; anything else as it is, for ply to
    judge (``moves=42`` is refused with what ``moves`` must be) or :func:`_json` to refuse (a set,
    which has no order)."""
    if isinstance(value, (str, bytes, dict, set, frozenset)) or not isinstance(value, Iterable):
        return value
    return list(value)


def _ask(name: str, request: str, memory: Optional[str] = None) -> Any:
    """The answer of the registry's question ``name`` (its Python name) to ``request`` (JSON),
    parsed: what ``POST`` to its path answers. ``memory`` bounds the answer's tables."""
    return json.loads(_ply.ask(name, request, _request(memory=memory)))


def _dots_request(
    game: str,
    rows: Optional[int],
    cols: Optional[int],
    size: Optional[int],
    moves: Moves,
    detail: Optional[str],
    strategy: Optional[str],
    tie_order: Optional[str],
    time: Time,
    window: Optional[Sequence[int]] = None,
    lines: Optional[int] = None,
) -> str:
    return _request(
        game=game,
        rows=rows,
        cols=cols,
        size=size,
        moves=_listed(moves),
        detail=detail,
        strategy=strategy,
        tie_order=tie_order,
        time=time,
        window=_listed(window),
        lines=lines,
    )


def dots(
    game: str,
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    size: Optional[int] = None,
    moves: Moves = "",
    detail: str = "line",
    strategy: str = "auto",
    memory: Optional[str] = "4G",
    time: Time = None,
    tie_order: str = "low-first",
    progress: Progress = None,
    window: Optional[Sequence[int]] = None,
    book: Optional[str] = None,
    no_book: bool = False,
    lines: Optional[int] = None,
) -> Dict[str, Any]:
    """A dots position explained: ``ply dots GAME … --json``.

    Args:
        game: ``"boxes"`` (Dots and Boxes) or ``"triangles"`` (Dots and Triangles).
        rows, cols: boxes per column and row (default 3×3).
        size: rows of triangles, 1 to 6 (default 3, the classic 10-dot board).
        moves: the moves played, A first: ``"1-2 2-3"`` or ``["1-2", "2-3"]`` (dots numbered
            from 1, row by row); a report's ``played`` list can be passed back.
        detail: ``"value"`` (the value alone, one proof on every core: the largest positions),
            ``"moves"`` (every move's value) or ``"line"`` (and a best line; what ``--json`` gives).
        strategy: ``"auto"``, ``"recursion"``, ``"memo"``, ``"table"``, ``"free-table"`` or
            ``"search"``.
        memory: the most memory the solver may take (``"4G"``, ``"512M"``; ``None``: what the
            system allows less 512 MiB), as ``--memory``.
        time: the most time to take (seconds, or ``"30s"``, ``"2m"``); past it the report says
            what was proved (``exact`` false, bounds, the best move found).
        tie_order: ``"low-first"`` or ``"high-first"``: the search's order among equal moves.
        progress: called with the states visited (or nodes searched) now and then.
        window: ``(lower, upper)``, with ``detail="value"``: the value is wanted exactly only
            where it lies strictly between them; otherwise a bound showing it at or below
            ``lower`` or at or above ``upper`` answers (``exact`` false, ``lower``/``upper``).
            ``(t - 1, t)`` asks whether the value reaches ``t``: one null-window test of the
            search, much cheaper than the exact value.
        book: a book file of proved positions (``--book FILE``): read besides the books shipped
            inside ply, and written into with what this call proves (positions of at least 24
            free edges); made if missing.
        no_book: answer from no book at all, not even the shipped ones (``--no-book``).
        lines: the number of top moves to give each with its line (``--lines K``, 1 to 64; with
            ``detail="line"``): the report's ``lines``, best first, each with its ``value`` (or
            ``lower``/``upper`` and an ``estimate``) and ``line``.

    Returns:
        The report: ``value`` (net cells still to gain for the player to move under perfect
        play), ``moves`` (each legal move's value, best first), ``best_move``, ``line``,
        ``final_score``, ``winner``, ``picture``, … as documented in the README.

    Raises:
        ValueError: a bad argument (a board, move, time or memory, of the wrong kind too: ``rows="x"``,
            ``moves=42``), or a table over the memory budget (with what could still work:
            ``strategy="memo"``, a larger ``memory``).
        TypeError: only what Python refuses (an unknown keyword, an object with no JSON form).
        KeyboardInterrupt: Ctrl-C during the solve (the solve is stopped first).
    """
    text = _ply.dots(
        _dots_request(game, rows, cols, size, moves, detail, strategy, tie_order, time, window, lines),
        _request(memory=memory, book=book, no_book=no_book),
        _callable(progress),
    )
    return json.loads(text)


def book_build(
    path: str,
    game: str,
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    size: Optional[int] = None,
    moves: Moves = "",
    depth: int = 0,
    time: Optional[str] = None,
    tie_order: str = "low-first",
    memory: Optional[str] = None,
    progress: Progress = None,
    keep_every: Optional[str] = "10m",
) -> List[Dict[str, Any]]:
    """Proves every position up to ``depth`` moves after ``moves`` into the book at ``path``
    (``ply dots book build``): deepest first, each entry written as it is proved, so a stopped
    build resumes where it stopped; ``time`` (``"10m"``) bounds one position's search, which then
    keeps its bounds. A long proof keeps what its search has proved so far every ``keep_every``
    (``None``: only when stopped), so a build killed outright starts again from it. Returns the
    entries (dicts as ``book_export`` gives them, without ``position``), shallowest first.
    ``progress`` is told the positions settled.

    Raises:
        ValueError: a bad argument (a board, move, depth, time, memory, of the wrong kind too) or
            book file (foreign, newer, damaged).
        TypeError: only what Python refuses (an unknown keyword, an object with no JSON form).
        KeyboardInterrupt: Ctrl-C (the entries proved so far are kept).
    """
    request = _dots_request(game, rows, cols, size, moves, "value", "auto", None, None)
    args = _request(path=path, depth=depth, time=time, tie_order=tie_order, memory=memory,
                    keep_every=keep_every)
    return json.loads(_ply.book_build(request, args, _callable(progress)))


def book_stats(path: str) -> List[Dict[str, Any]]:
    """Each board of the book at ``path`` summed up (``ply dots book stats --json``): ``board``,
    ``positions``, ``exact``, ``checked``, ``fewest_free``, ``most_free``, ``nodes``,
    ``seconds``, and ``kept`` and ``kept_checks``: the states unfinished proofs kept, a build's and
    a verification's. A bad ``path`` (or file) raises ValueError."""
    return json.loads(_ply.book_stats(_request(path=path)))


def book_export(path: str) -> List[Dict[str, Any]]:
    """Every entry of the book at ``path`` (``ply dots book export``): ``board``, ``key`` (the
    position up to symmetry, see the README), ``free``, ``lower``, ``upper`` (equal: exact),
    ``best``, ``nodes``, ``seconds``, ``proved_by``, ``checked_by`` and ``position`` (its edges). A
    bad ``path`` (or file) raises ValueError."""
    return json.loads(_ply.book_export(_request(path=path)))


def book_merge(into: str, source: str) -> int:
    """Writes every entry of the book ``source`` into the book ``into`` (made if missing); returns
    how many. Two proofs that disagree raise ValueError naming the position, as does a bad path."""
    return _ply.book_merge(_request(path=into, source=source))


def book_import(path: str, entries: Sequence[Dict[str, Any]]) -> int:
    """Writes ``entries`` (dicts as :func:`book_export` gives them) into the book at ``path``, all
    checked first; returns how many. A bad entry or path raises ValueError; an entry with no JSON
    form, TypeError."""
    lines = (_json(f"entries[{i}]", e) for i, e in enumerate(entries))
    return _ply.book_import(_request(path=path), "\n".join(lines))


def book_verify(
    path: str,
    time: Optional[str] = None,
    memory: Optional[str] = None,
    resume: bool = False,
    keep_every: Optional[str] = "10m",
) -> Dict[str, Any]:
    """Proves every exact entry of the book at ``path`` again (``ply dots book verify``): an entry
    whose children are all in the book and confirmed, from their entries (Wilson's rule) whatever
    proved it; any other by the search in the other tie order and without any book. Entries that agree
    are marked checked; with ``resume``, entries checked before are skipped (``already``) and a
    second proof stopped part way starts from what it kept (every ``keep_every``, ``None``: only
    when stopped), so a verification stopped part way resumes. Returns per board ``{"agreed", "from_children",
    "already", "unsettled", "disagreements": [{"position", "key", "book", "found"}]}``. A bad
    path (a missing book too: `` `x.plybook`: no such book ``, and no file is made), time or memory
    raises ValueError."""
    return json.loads(_ply.book_verify(_request(path=path, time=time, memory=memory, resume=resume,
                                                keep_every=keep_every)))


def dots_batch(
    positions: Sequence[Dict[str, Any]],
    memory: Optional[str] = "4G",
    progress: Progress = None,
) -> List[Dict[str, Any]]:
    """Reports of many dots positions at once, each as :func:`dots` gives it.

    Each position is a dict of :func:`dots`'s keyword arguments (``game``, ``rows``, ``cols``,
    ``size``, ``moves``, ``detail``, ``strategy``, ``time``, ``tie_order``, ``window``, ``lines``).
    Positions with at most 28 free edges are answered in parallel, the others one after another,
    each on every core. ``progress`` is told how many positions are answered.

    Raises:
        ValueError: an unknown key in a position, a missing ``game``, or a bad value (as
            :func:`dots` raises it), the position named (``positions[3]: game is missing``).
        TypeError: only what Python refuses (``positions`` that are no list, a position that is no
            dict, an object with no JSON form).
    """
    if isinstance(positions, (str, bytes, Mapping)) or not isinstance(positions, Iterable):
        raise TypeError(f"positions must be a list of positions (dicts of dots's arguments), "
                        f"not {shown(positions)}")
    requests = [_position_request(i, p) for i, p in enumerate(positions)]
    return [json.loads(t) for t in _ply.dots_batch(requests, _request(memory=memory), _callable(progress))]


#: The keys of a position of :func:`dots_batch`: :func:`dots`'s arguments of the position.
_POSITION_KEYS = frozenset(
    ["game", "rows", "cols", "size", "moves", "detail", "strategy", "time", "tie_order", "window",
     "lines"]
)


def _position_request(index: int, position: Any) -> str:
    """The request of ``positions[index]`` of :func:`dots_batch` (a dict of :func:`dots`'s
    arguments), its faults named by the position (``positions[3]: …``); a ``game`` left out is
    passed on as missing, for ply to refuse as :func:`dots` refuses it."""
    where = f"positions[{index}]"
    if not isinstance(position, Mapping):
        raise TypeError(f"{where} must be a dict of dots's arguments, not {shown(position)}")
    unknown = set(position) - _POSITION_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown keys {shown(sorted(unknown, key=str))}")
    p = position
    try:
        return _dots_request(
            p.get("game"),
            p.get("rows"),
            p.get("cols"),
            p.get("size"),
            p.get("moves", ""),
            p.get("detail", "line"),
            p.get("strategy", "auto"),
            p.get("tie_order", "low-first"),
            p.get("time"),
            p.get("window"),
            p.get("lines"),
        )
    except TypeError as e:
        raise TypeError(f"{where}: {e}") from None
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def dots_move(
    game: str,
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    size: Optional[int] = None,
    moves: Moves = "",
    seed: int = 1,
    think: Time = None,
    memory: Optional[str] = "4G",
    level: int = 8,
    estimate: Optional[str] = None,
) -> Dict[str, Any]:
    """ply's move in a dots position: the reply of ``ply play`` and ``POST /api/play/dots``.

    Exact (a best move, ties drawn by ``seed``) where ``think`` (seconds or ``"2s"``; ``None``:
    no limit) proves the position; otherwise the strongest move found among those the proof
    allows. The search memory is kept between calls, for two boards at a time. ``level`` (1 to
    8, as ``ply play --level``) makes a weaker player: below 8 it plays now and then at random or
    greedily, and otherwise by values with a few cells of noise (``"choice": "level"``).
    ``estimate`` names the estimate at the leaves of its search where nothing is proved:
    ``"learned"`` (the default, every front end's) or ``"hand-made"`` (the one it replaced, kept
    for an A/B of the estimate alone: ``tools/strength/ab_match.py``).

    Returns:
        ``{"seed", "player", "move", "choice": "exact"|"estimated"|"level", "value", "points",
        "equal_moves", "seconds", …}`` (and ``"level"`` below 8).

    Raises:
        ValueError: a bad argument (a position, seed, level, estimate, of the wrong kind too), or
            a game already over.
        TypeError: only what Python refuses (an unknown keyword, an object with no JSON form).
    """
    request = _dots_request(game, rows, cols, size, moves, "moves", "auto", None, think)
    return json.loads(_ply.dots_move(request, _request(seed=seed, level=level, estimate=estimate, memory=memory)))


def solitaire(
    squares: Numbers,
    die: Optional[int] = None,
    no_path: bool = False,
    path: bool = False,
    expected: bool = False,
    distribution: bool = False,
    explain: bool = False,
) -> Dict[str, Any]:
    """Number Solitaire: ``ply solitaire SQUARES … --json``.

    ``squares`` is the board from square 0 (a list of integers, or one text of numbers separated
    by spaces or commas); ``die`` its faces (default 6). ``expected``/``distribution`` add the
    game under fair throws, ``explain`` the table of best totals.

    A bad argument (of the wrong kind too) raises ValueError; TypeError only what Python refuses
    (an unknown keyword, an object with no JSON form).
    """
    return _ask(
        "solitaire",
        _request(
            squares=_listed(squares),
            die=die,
            no_path=no_path,
            path=path,
            expected=expected,
            distribution=distribution,
            explain=explain,
        ),
    )


def heaps(heaps: Numbers, misere: bool = False, grundy: bool = False) -> Dict[str, Any]:
    """Lowest-heap Nim: ``ply heaps SIZES … --json`` (the winner, a winning move, remoteness,
    and with ``grundy`` the Grundy value).

    A bad argument (of the wrong kind too) raises ValueError; TypeError only what Python refuses
    (an unknown keyword, an object with no JSON form).
    """
    return _ask("heaps", _request(heaps=_listed(heaps), misere=misere, grundy=grundy))


def dice_race_compare(
    first: Numbers, second: Numbers, dice: Optional[int] = None, sides: Optional[int] = None
) -> Dict[str, Any]:
    """The dice race: ``ply dice-race compare FIRST SECOND … --json`` (exact probabilities that
    each list wins or that they tie, and the expected rolls; default two six-sided dice).

    A bad argument (of the wrong kind too) raises ValueError; TypeError only what Python refuses
    (an unknown keyword, an object with no JSON form).
    """
    return _ask(
        "dice_race_compare",
        _request(first=_listed(first), second=_listed(second), dice=dice, sides=sides),
    )


def dice_race_best(
    picks: int, dice: Optional[int] = None, sides: Optional[int] = None
) -> Dict[str, Any]:
    """The pick game's best list: ``ply dice-race best --picks M … --json``.

    A bad argument (of the wrong kind too) raises ValueError; TypeError only what Python refuses
    (an unknown keyword, an object with no JSON form).
    """
    return _ask("dice_race_best", _request(picks=picks, dice=dice, sides=sides))


def magic_board(
    board: str,
    start: Optional[Sequence[int]] = None,
    any_size: bool = False,
    memory: Optional[str] = None,
) -> Dict[str, Any]:
    """MagicBoard: ``ply magic-board FILE … --json`` for the board's text (d lines of d numbers):
    every corner's verdict and shortest path, or the corner ``start`` = ``(row, col)``.

    A bad argument (of the wrong kind too) raises ValueError; TypeError only what Python refuses
    (an unknown keyword, an object with no JSON form).
    """
    return _ask(
        "magic_board",
        _request(board=board, start=_listed(start), any_size=any_size),
        memory,
    )


def questions() -> List[Dict[str, Any]]:
    """Every question ply answers, from its registry, game by game: ``game``, ``name``, ``path``
    (the server's ``POST``), ``python`` (this package's function), ``summary``, ``example`` (a
    valid request body, as JSON text: its keys are the function's keyword arguments) and
    ``streams`` (whether the server streams live reports; the function returns the last)."""
    return json.loads(_ply.questions())


def _asking(about: Dict[str, Any]) -> Callable[..., Any]:
    """The function of a question with none written by hand: keyword arguments only, the request's
    keys and ``memory``; its signature shows the example's keys, its docstring the question's
    summary and its example as a call."""
    name = about["python"]

    def asked(*, memory: Optional[str] = None, **request: Any) -> Any:
        return _ask(name, _request(**{k: _listed(v) for k, v in request.items()}), memory)

    example = json.loads(about["example"])
    keys = [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None) for k in example]
    asked.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        keys
        + [
            inspect.Parameter("memory", inspect.Parameter.KEYWORD_ONLY, default=None),
            inspect.Parameter("request", inspect.Parameter.VAR_KEYWORD),
        ]
    )
    call = ", ".join(f"{k}={v!r}" for k, v in example.items())
    summary = about["summary"]
    asked.__name__ = asked.__qualname__ = name
    asked.__doc__ = (
        f"{summary[:1].upper()}{summary[1:]} (``POST {about['path']}``).\n\n"
        f"Example: ``plysolve.{name}({call})``.\n\n"
        "The keyword arguments are the request's keys, as the server's body takes them (``None``:\n"
        "the default); ``memory`` bounds the answer's tables (``\"4G\"``; ``None``: what the system\n"
        "allows). Returns the answer as ``POST`` gives it. A bad argument, an unknown one too,\n"
        "raises ValueError naming it; Ctrl-C raises KeyboardInterrupt."
    )
    return asked


def _made_from_the_registry() -> None:
    """Defines the function of every question of the registry with none written by hand."""
    for about in questions():
        name = about["python"]
        if name not in globals():
            globals()[name] = _asking(about)
            __all__.append(name)


_made_from_the_registry()
