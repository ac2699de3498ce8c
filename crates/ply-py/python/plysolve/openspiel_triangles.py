"""Dots and Triangles as an OpenSpiel game, ``ply_dots_and_triangles`` (OpenSpiel has none): so
that OpenSpiel's players — its C++ ``pyspiel.MCTSBot`` among them — can play ply's triangle boards.

The board is ply's (:func:`plysolve.dots_board`, the registry's ``board`` question, asked once a
size): its edges, in the board's edge order, are the actions (action ``i`` draws the edge ply names
``edges[i]``, ``"2-5"``), and its cells, each with its edges, say which cells a drawn edge
completes. The state only applies them: a drawn edge completes every cell of it whose other edges
are drawn, the mover takes those cells and moves again, and otherwise the turn passes; the game
ends when every edge is drawn. Player 0 moves first (ply's A).

Parameters: ``size`` (rows of triangles, 1 to 6, as ``plysolve.dots(size=…)``; default 5, the
21-dot board) and ``utility_margin`` (as OpenSpiel's ``dots_and_boxes``: the returns are the
margin in cells instead of +1/0/−1 for a win, a draw, a loss).

    import pyspiel, plysolve.openspiel_triangles
    game = pyspiel.load_game("ply_dots_and_triangles(size=5)")

or :func:`triangles_game`. :class:`plysolve.openspiel.PlyBot` plays it as it plays
``dots_and_boxes``.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, List, Tuple

import pyspiel

from . import dots_board

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
    actions) and, for each edge, the cells it borders, each as ``(cell, mask of its edges)``."""

    def __init__(self, size: int) -> None:
        view = dots_board(game="triangles", size=size)
        #: The board's size (rows of triangles).
        self.size = size
        #: Action ``i`` draws the edge named ``names[i]`` (``"2-5"``).
        self.names: List[str] = [edge["name"] for edge in view["edges"]]
        #: The action of each edge name.
        self.actions: Dict[str, int] = {name: i for i, name in enumerate(self.names)}
        masks = [sum(1 << self.actions[name] for name in cell["edges"]) for cell in view["cells"]]
        #: How many cells the board has.
        self.cells = len(masks)
        #: Per edge, the cells it borders: ``(cell, mask of the cell's edges)``.
        self.borders: List[Tuple[Tuple[int, int], ...]] = [
            tuple((cell, mask) for cell, mask in enumerate(masks) if mask >> edge & 1)
            for edge in range(len(self.names))
        ]

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
        self._drawn = 0
        self._free = len(self._board.names)
        self._mover = 0
        #: The player who took each cell (``None``: open).
        self.owners: List[Any] = [None] * self._board.cells
        #: Cells taken by player 0 and by player 1.
        self.scores = [0, 0]

    def current_player(self) -> int:
        """The player to move, or ``pyspiel.PlayerId.TERMINAL`` once every edge is drawn."""
        return pyspiel.PlayerId.TERMINAL if self._free == 0 else self._mover

    def _legal_actions(self, player: int) -> List[int]:
        """The free edges, in ascending order."""
        drawn = self._drawn
        return [a for a in range(len(self._board.names)) if not drawn >> a & 1]

    def _apply_action(self, action: int) -> None:
        """Draws edge ``action``: the mover takes the cells it completes and then moves again;
        otherwise the turn passes. An edge already drawn, or none of the board's, is a
        ValueError."""
        if not 0 <= action < len(self._board.names) or self._drawn >> action & 1:
            raise ValueError(f"action {action} is not a free edge of the board")
        drawn = self._drawn | 1 << action
        took = False
        for cell, mask in self._board.borders[action]:
            if drawn & mask == mask:
                self.owners[cell] = self._mover
                self.scores[self._mover] += 1
                took = True
        self._drawn = drawn
        self._free -= 1
        if not took:
            self._mover = 1 - self._mover

    def _action_to_string(self, player: int, action: int) -> str:
        """``P1(2-5)``: the player (from 1, as OpenSpiel's ``dots_and_boxes``) and ply's edge."""
        return f"P{player + 1}({self._board.names[action]})"

    def is_terminal(self) -> bool:
        """Whether every edge is drawn."""
        return self._free == 0

    def returns(self) -> List[float]:
        """At the end, +1/0/−1 for a win, a draw, a loss (the margin in cells with
        ``utility_margin``); 0 for both before."""
        if self._free:
            return [0.0, 0.0]
        margin = self.scores[0] - self.scores[1]
        if not self._margin:
            margin = (margin > 0) - (margin < 0)
        return [float(margin), float(-margin)]

    def __str__(self) -> str:
        """The edges drawn, in order, and the cells each player has."""
        drawn = " ".join(self._board.names[a] for a in self.history())
        return f"{drawn or '(no edge)'}; cells {self.scores[0]}-{self.scores[1]}"


pyspiel.register_game(_GAME_TYPE, DotsAndTrianglesGame)
