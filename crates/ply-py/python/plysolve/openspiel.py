"""ply as an exact oracle and player for OpenSpiel's ``dots_and_boxes``, and for Dots and Triangles
(``ply_dots_and_triangles``, :mod:`plysolve.openspiel_triangles`, registered on import).

OpenSpiel numbers a boxes board's lines as actions: the horizontal lines first, row by row
(``(rows+1) × cols`` of them), then the vertical lines, row by row (``rows × (cols+1)``). ply
numbers the dots row by row from 1 and names a line by its two dots (``"1-2"``). The mapping below
is the only thing this module knows of either; a triangle board's actions are ply's own edges. Every
value comes from ply (:func:`plysolve.dots`, :func:`plysolve.dots_move`).

- :func:`analyse` — the value of a state for the player to move (net cells still to gain under
  perfect play) and every legal action's value.
- :func:`label` — the same for a batch of states, on every core: exact labels for training data.
- :class:`PlyBot` — a ``pyspiel.Bot`` playing exactly where its time to think proves the position.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import pyspiel

from . import dots, dots_batch, dots_move
from .openspiel_triangles import SHORT_NAME as TRIANGLES, triangles_board

__all__ = ["analyse", "label", "PlyBot", "action_to_move", "move_to_action"]

Time = Union[None, float, int, str]


class _Board:
    """What the bridge knows of a game's board: the board as :func:`plysolve.dots` takes it
    (``game``, ``rows``/``cols`` or ``size``) and ply's name of each action's edge."""

    def __init__(self, request: Dict[str, Any], names: List[str]) -> None:
        self.request = request
        self.names = names
        self.actions = {name: action for action, name in enumerate(names)}

    def action(self, move: str) -> int:
        """The action of ply's edge ``move`` (``"a-b"`` or ``"b-a"``)."""
        return self.actions[_normal(move)]


_BOARDS: Dict[Tuple[str, int, int], _Board] = {}


def _boxes_board(rows: int, cols: int) -> _Board:
    """The board of ``dots_and_boxes`` with ``rows`` × ``cols`` boxes."""
    key = ("boxes", rows, cols)
    if key not in _BOARDS:
        count = (rows + 1) * cols + rows * (cols + 1)
        names = [action_to_move(rows, cols, a) for a in range(count)]
        _BOARDS[key] = _Board({"game": "boxes", "rows": rows, "cols": cols}, names)
    return _BOARDS[key]


def _triangles_board(size: int) -> _Board:
    """The board of ``ply_dots_and_triangles`` with ``size`` rows of triangles."""
    key = ("triangles", size, 0)
    if key not in _BOARDS:
        _BOARDS[key] = _Board({"game": "triangles", "size": size}, triangles_board(size).names)
    return _BOARDS[key]


def _board(game: Any) -> _Board:
    """The board of an OpenSpiel ``dots_and_boxes`` or ``ply_dots_and_triangles`` game."""
    name = game.get_type().short_name
    params = game.get_parameters()
    if name == "dots_and_boxes":
        return _boxes_board(int(params["num_rows"]), int(params["num_cols"]))
    if name == TRIANGLES:
        return _triangles_board(int(params["size"]))
    raise ValueError(f"plysolve.openspiel answers dots_and_boxes and {TRIANGLES} games, not {name}")


def action_to_move(rows: int, cols: int, action: int) -> str:
    """ply's name (``"a-b"``, dots numbered row by row from 1) of OpenSpiel's line ``action`` on a
    board of ``rows`` × ``cols`` boxes."""
    horizontal = (rows + 1) * cols
    if 0 <= action < horizontal:
        r, c = divmod(action, cols)
        a = r * (cols + 1) + c + 1
        return f"{a}-{a + 1}"
    if horizontal <= action < horizontal + rows * (cols + 1):
        r, c = divmod(action - horizontal, cols + 1)
        a = r * (cols + 1) + c + 1
        return f"{a}-{a + cols + 1}"
    raise ValueError(f"action {action} is not a line of a {rows}×{cols} board")


def move_to_action(rows: int, cols: int, move: str) -> int:
    """OpenSpiel's action id of ply's line ``move`` (``"a-b"``)."""
    return _boxes_board(rows, cols).action(move)


def _normal(move: str) -> str:
    a, b = sorted(int(d) for d in move.split("-"))
    return f"{a}-{b}"


def _position(state: Any) -> Dict[str, Any]:
    """The keyword arguments of :func:`plysolve.dots` for an OpenSpiel state."""
    board = _board(state.get_game())
    return dict(board.request, moves=[board.names[a] for a in state.history()])


def _analysis(report: Dict[str, Any], board: _Board) -> Dict[str, Any]:
    found: Dict[str, Any] = {
        "value": report["value"],
        "actions": {board.action(m["move"]): m["value"] for m in report["moves"]},
        "exact": report["exact"],
    }
    if not report["exact"]:
        found["lower"], found["upper"] = report["lower"], report["upper"]
    return found


def analyse(state: Any, time: Time = None, memory: Optional[str] = "4G") -> Dict[str, Any]:
    """The exact value of an OpenSpiel ``dots_and_boxes`` (or ``ply_dots_and_triangles``) state
    and of each legal action.

    Returns:
        ``{"value": v, "actions": {action_id: value, …}, "exact": True}``: ``v`` is the net
        number of cells the player to move still gains under perfect play (its final margin less
        the margin now), each action's value the same for that player after the action (cells it
        completes included). With ``time`` the answer may stop short: ``exact`` is then false,
        ``value`` and unproved actions' values ``None``, and ``lower``/``upper`` bound the value.
    """
    report = dots(**_position(state), detail="moves", time=time, memory=memory)
    return _analysis(report, _board(state.get_game()))


def label(
    states: Sequence[Any], memory: Optional[str] = "4G", progress: Any = None
) -> List[Dict[str, Any]]:
    """:func:`analyse` for a batch of states, on every core (small positions in parallel, larger
    ones each on every core): exact labels — value and per-action values — for training data."""
    positions = [dict(_position(s), detail="moves") for s in states]
    reports = dots_batch(positions, memory=memory, progress=progress)
    return [_analysis(r, _board(s.get_game())) for r, s in zip(reports, states)]


#: PlyBot's time to think per move by default: ``ply play``'s.
THINK = 3.0


class PlyBot(pyspiel.Bot):
    """A ``pyspiel.Bot`` for ``dots_and_boxes`` and ``ply_dots_and_triangles``: ply's player, as
    ``ply play`` plays.

    Each move it asks for every move's value within ``think`` (seconds or ``"2s"``; default 3 s;
    ``None``: no limit, always exact — minutes a move early on 4×4): where every move is proved it
    plays a best one (ties drawn by ``seed``); otherwise the strongest move its anytime search
    finds among those the proof allows, so a position proved won or drawn is never given away.
    Boards of up to 24 lines are answered from their whole table, always exactly; larger ones by
    the search within ``memory``, positions of up to 18 free lines by their table, exactly. What
    its searches learn is kept between moves and games (256 MiB for each of two boards). ``level``
    (1 to 8, as ``ply play --level``) makes it weaker by design; ``estimate`` (``"learned"``, the
    default, or ``"hand-made"``) names the estimate its search values unproved positions by
    (:func:`plysolve.dots_move`): two bots differing in it alone are an A/B of the estimate.
    """

    def __init__(
        self,
        game: Any,
        player_id: int,
        think: Time = THINK,
        seed: int = 1,
        memory: Optional[str] = "4G",
        level: int = 8,
        estimate: Optional[str] = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self._board = _board(game)
        self.player_id = player_id
        self.think = think
        self.seed = seed
        self.memory = memory
        #: How well it plays, 1 to 8 (8: perfect), as ``ply play --level``.
        self.level = level
        #: The estimate at its search's leaves (``None``: the learned one).
        self.estimate = estimate
        #: The last move's record from ply (choice, value, seconds, …).
        self.last: Optional[Dict[str, Any]] = None

    def step(self, state: Any) -> int:
        if state.current_player() != self.player_id:
            raise ValueError(
                f"PlyBot plays player {self.player_id}; player {state.current_player()} is to move"
            )
        self.last = dots_move(**_position(state), seed=self.seed, think=self.think,
                              memory=self.memory, level=self.level, estimate=self.estimate)
        return self._board.action(self.last["move"])

    def restart_at(self, state: Any) -> None:
        self.last = None

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False
