"""Type stubs of the native module ``plysolve._ply`` (src/lib.rs): requests and reports as JSON text, as
``POST /api/…`` takes them and ``ply … --json`` prints them; ``args`` is a function's own arguments
as JSON (``{"memory": "4G"}``). Use the functions of :mod:`plysolve`."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

__version__: str

def questions() -> str:
    """Every question of ply's registry, as a JSON list of what each is: ``game``, ``name``,
    ``path``, ``python``, ``summary``, ``example``, ``streams``."""
    ...

def ask(name: str, request: str, args: str = "{}") -> str:
    """The answer of the registry's question ``name`` (its Python name) to ``request`` (its
    ``POST`` body), as JSON text; ``args``: ``memory``. A fault raises ValueError."""
    ...

def dots(
    request: str,
    args: str = "{}",
    progress: Optional[Callable[[int], object]] = None,
    threads: Optional[int] = None,
) -> str: ...
def dots_batch(
    requests: Sequence[str],
    args: str = "{}",
    progress: Optional[Callable[[int], object]] = None,
) -> List[str]: ...
def dots_move(request: str, args: str = "{}") -> str: ...
def book_build(
    request: str,
    args: str,
    progress: Optional[Callable[[int], object]] = None,
    shared: Optional["SharedTable"] = None,
) -> str: ...
def book_positions(request: str, args: str) -> str:
    """The positions a book build of ``depth`` (in ``args``) moves after ``request``'s position
    proves by the search: a JSON list of ``{"board", "key", "free", "moves"}`` (the moves after
    the request's)."""
    ...

def book_stats(args: str) -> str:
    """Each board of the book at ``args``' ``path`` summed up; a missing book raises ValueError
    (`` `x.plybook`: no such book ``), and no file is made."""
    ...

def book_export(args: str) -> str:
    """Every entry of the book at ``args``' ``path``; a missing book raises ValueError, and no
    file is made."""
    ...

def book_merge(args: str) -> int: ...
def book_import(args: str, lines: str) -> int: ...
def book_verify(args: str) -> str:
    """The exact entries of the book at ``args``' ``path`` proved again; a missing book raises
    ValueError (`` `x.plybook`: no such book ``), and no file is made."""
    ...

def dots_job(
    request: str,
    memory: Optional[str] = None,
    threads: Optional[int] = None,
    stop: Optional[Callable[[], bool]] = None,
    shared: Optional["SharedTable"] = None,
    host_table: Optional[str] = None,
    node_limit: Optional[int] = None,
) -> str: ...

def remove_host_tables(name: str, seconds: float) -> int: ...

class SharedTable:
    """Bounds shared by a distributed solve's workers (one store per worker process)."""

    def __init__(self, from_free: int, memory: str = "64M") -> None: ...
    @property
    def from_free(self) -> int: ...
    def drain(self) -> List[Tuple[int, int, int, Optional[int]]]: ...
    def absorb(self, entries: List[Tuple[int, int, int, Optional[int]]]) -> None: ...
    def counts(self) -> Dict[str, int]: ...

class DotsGame:
    """A dots game in progress, played by the library's rules (0 is A, who starts; 1 is B)."""

    def __init__(self, request: str) -> None: ...
    def play(self, edge: int) -> List[int]: ...
    @property
    def to_move(self) -> int: ...
    @property
    def score(self) -> Tuple[int, int]: ...
    @property
    def owners(self) -> List[Optional[int]]: ...
    @property
    def drawn(self) -> int: ...
    @property
    def edges(self) -> int: ...
    def free_edges(self) -> List[int]: ...
    def __copy__(self) -> "DotsGame": ...
    def __deepcopy__(self, memo: Any) -> "DotsGame": ...

def dots_expand(request: str) -> str: ...
def dots_combine(
    cells: int, children: Sequence[Tuple[int, Optional[Tuple[int, int]]]]
) -> Tuple[int, int]:
    """What is proved of a position of ``cells`` open cells from its children's (points, bounds);
    cells or points outside 0 to 127 (the most cells a board has) raise ValueError naming them."""
    ...

def dots_next_test(
    range: Tuple[int, int], window: Optional[Tuple[int, int]], guess: int
) -> Optional[int]: ...
def dots_child_window(points: int, window: Tuple[int, int]) -> Tuple[int, int]:
    """The window a child's value is asked about in; ``points`` outside 0 to 127 or a window whose
    lower end is not below its upper raise ValueError naming it."""
    ...

def memory_bytes(memory: str) -> int: ...
