"""Type stubs of the native module ``plysolve._ply`` (src/lib.rs): requests and reports as JSON text, as
``POST /api/…`` takes them and ``ply … --json`` prints them; ``args`` is a function's own arguments
as JSON (``{"memory": "4G"}``). Use the functions of :mod:`plysolve`."""

from typing import Callable, List, Optional, Sequence, Tuple

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
) -> str: ...
def book_stats(args: str) -> str: ...
def book_export(args: str) -> str: ...
def book_merge(args: str) -> int: ...
def book_import(args: str, lines: str) -> int: ...
def book_verify(args: str) -> str: ...
def dots_job(
    request: str,
    memory: Optional[str] = None,
    threads: Optional[int] = None,
    stop: Optional[Callable[[], bool]] = None,
) -> str: ...
def dots_expand(request: str) -> str: ...
def dots_combine(
    cells: int, children: Sequence[Tuple[int, Optional[Tuple[int, int]]]]
) -> Tuple[int, int]: ...
def dots_next_test(
    range: Tuple[int, int], window: Optional[Tuple[int, int]], guess: int
) -> Optional[int]: ...
def dots_child_window(points: int, window: Tuple[int, int]) -> Tuple[int, int]: ...
