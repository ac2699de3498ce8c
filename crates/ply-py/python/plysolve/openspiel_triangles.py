"""Dots and Triangles as an OpenSpiel game, ``ply_dots_and_triangles`` (OpenSpiel has none): so
that OpenSpiel's players — its C++ ``pyspiel.MCTSBot`` among them — can play ply's triangle boards.

The board is ply's (:func:`plysolve.dots_board`, the registry's ``board`` question, asked once a
size): its edges, in the board's edge order, are the actions (action ``i`` draws the edge ply names
``edges[i]``, ``"2-5"``). The state is a game of the library's (``plysolve._ply.DotsGame``), which
applies each move by ply's rules (the cells an edge completes are the mover's, who then moves
again): nothing here restates them. The game ends when every edge is drawn. Player 0 moves first
(ply's A).

Parameters: ``size`` (rows of triangles, 1 to 6, as ``plysolve.dots(size=…)``; default 5, the
21-dot board) and ``utility_margin`` (as OpenSpiel's ``dots_and_boxes``: the returns are the
margin in cells instead of +1/0/−1 for a win, a draw, a loss).

    import pyspiel, plysolve.openspiel_triangles
    game = pyspiel.load_game("ply_dots_and_triangles(size=5)")

or :func:`triangles_game`. :class:`plysolve.openspiel.PlyBot` plays it as it plays
``dots_and_boxes``.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any, Dict, List

import pyspiel

from . import _ply, dots_board

__all__ = ["SHORT_NAME", "DEFAULT_SIZE", "TrianglesBoard", "triangles_board", "triangles_game",
           "DotsAndTrianglesGame", "DotsAndTrianglesState"]

#: The game's name in OpenSpiel's registry.
SHORT_NAME = "ply_dots_and_triangles"

#: The board when no ``size`` is given: 5 rows of triangles, 21 dots, 45 edges, 25 cells.
DEFAULT_SIZE = 5

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Dots and Triangles (ply's boards)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"size": DEFAULT_SIZE, "utility_margin": False},
)


class TrianglesBoard:
    """A triangle board as ply builds it, read once: the edges' names in the board's order (the
    actions), its cells, and its empty position as a library game that states copy."""

    def __init__(self, size: int) -> None:
        request = json.dumps({"game": "triangles", "size": size})
        view = dots_board(game="triangles", size=size)
        #: The board's size (rows of triangles).
        self.size = size
        #: Action ``i`` draws the edge named ``names[i]`` (``"2-5"``).
        self.names: List[str] = [edge["name"] for edge in view["edges"]]
        #: The action of each edge name.
        self.actions: Dict[str, int] = {name: i for i, name in enumerate(self.names)}
        #: How many cells the board has.
        self.cells = len(view["cells"])
        #: The empty board, A to move: every state starts from a copy of it.
        self.empty = _ply.DotsGame(request)

    def __deepcopy__(self, memo: Any) -> "TrianglesBoard":
        """The board itself: it never changes, and OpenSpiel deep-copies a state's attributes at
        every clone."""
        return self


@functools.lru_cache(maxsize=None)
def triangles_board(size: int) -> TrianglesBoard:
    """The triangle board of ``size`` rows, asked of ply once. A size ply has no board of raises
    ValueError (ply's message)."""
    return TrianglesBoard(size)


def triangles_game(size: int = DEFAULT_SIZE, utility_margin: bool = False) -> Any:
    """The OpenSpiel game of Dots and Triangles on ply's board of ``size`` rows of triangles."""
    return pyspiel.load_game(SHORT_NAME, {"size": size, "utility_margin": utility_margin})


class DotsAndTrianglesGame(pyspiel.Game):
    """Dots and Triangles on one of ply's triangle boards (see the module)."""

    def __init__(self, params: Any = None) -> None:
        params = dict(params or {})
        size = params.get("size", DEFAULT_SIZE)
        if isinstance(size, bool) or not isinstance(size, int):
            raise ValueError(f"size must be a whole number, not {size!r}")
        self.board = triangles_board(size)
        self.utility_margin = bool(params.get("utility_margin", False))
        most = float(self.board.cells if self.utility_margin else 1)
        edges = len(self.board.names)
        info = pyspiel.GameInfo(
            num_distinct_actions=edges,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0,
            max_game_length=edges,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> "DotsAndTrianglesState":
        """The empty board, player 0 to move."""
        return DotsAndTrianglesState(self)


class DotsAndTrianglesState(pyspiel.State):
    """A position: the edges drawn (a bitmask over actions), who moves, and who took each cell."""

    def __init__(self, game: DotsAndTrianglesGame) -> None:
        super().__init__(game)
        self._board = game.board
        self._margin = game.utility_margin
        #: The position, played by the library's rules.
        self._game = copy.copy(self._board.empty)

    @property
    def owners(self) -> List[Any]:
        """The player who took each cell (``None``: open)."""
        return self._game.owners

    @property
    def scores(self) -> List[int]:
        """Cells taken by player 0 and by player 1."""
        return list(self._game.score)

    def current_player(self) -> int:
        """The player to move, or ``pyspiel.PlayerId.TERMINAL`` once every edge is drawn."""
        return pyspiel.PlayerId.TERMINAL if self._full() else self._game.to_move

    def _full(self) -> bool:
        """Whether every edge is drawn."""
        return self._game.drawn == (1 << self._game.edges) - 1

    def _legal_actions(self, player: int) -> List[int]:
        """The free edges, in ascending order."""
        return self._game.free_edges()

    def _apply_action(self, action: int) -> None:
        """Draws edge ``action`` by ply's rules (the mover takes the cells it completes and then
        moves again; otherwise the turn passes). An edge already drawn, or none of the board's,
        is a ValueError."""
        self._game.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """``P1(2-5)``: the player (from 1, as OpenSpiel's ``dots_and_boxes``) and ply's edge."""
        return f"P{player + 1}({self._board.names[action]})"

    def is_terminal(self) -> bool:
        """Whether every edge is drawn."""
        return self._full()

    def returns(self) -> List[float]:
        """At the end, +1/0/−1 for a win, a draw, a loss (the margin in cells with
        ``utility_margin``); 0 for both before."""
        if not self._full():
            return [0.0, 0.0]
        a, b = self._game.score
        margin = a - b
        if not self._margin:
            margin = (margin > 0) - (margin < 0)
        return [float(margin), float(-margin)]

    def __str__(self) -> str:
        """The edges drawn, in order, and the cells each player has."""
        drawn = " ".join(self._board.names[a] for a in self.history())
        a, b = self._game.score
        return f"{drawn or '(no edge)'}; cells {a}-{b}"


pyspiel.register_game(_GAME_TYPE, DotsAndTrianglesGame)
