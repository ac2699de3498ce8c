"""Shared helpers: the `ply` binary the bindings are checked against, and its server."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def ply_binary() -> str:
    """$PLY_BIN, else the debug build of the workspace ($CARGO_TARGET_DIR or target/)."""
    if os.environ.get("PLY_BIN"):
        return os.environ["PLY_BIN"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = target / "debug" / "ply"
    if not path.exists():
        raise RuntimeError(f"no ply binary at {path}: run `cargo build -p ply-cli` or set PLY_BIN")
    return str(path)


class Cli:
    """Runs `ply` with a cache directory of its own (no table from another run)."""

    def __init__(self) -> None:
        self.binary = ply_binary()
        self.cache = tempfile.mkdtemp(prefix="ply-py-cache-")

    def run(self, *args: str) -> subprocess.CompletedProcess:
        env = dict(os.environ, XDG_CACHE_HOME=self.cache)
        env.pop("PLY_PROGRESS", None)
        return subprocess.run(
            [self.binary, *args], capture_output=True, text=True, env=env, timeout=600
        )

    def json(self, *args: str):
        done = self.run(*args, "--json")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def fault(self, *args: str) -> str:
        """The one-line message of a refused command, without `ply: `."""
        done = self.run(*args)
        assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
        line = done.stderr.strip()
        assert "\n" not in line and line.startswith("ply: "), line
        return line[len("ply: "):]

    def close(self) -> None:
        shutil.rmtree(self.cache, ignore_errors=True)


@pytest.fixture(scope="session")
def cli():
    c = Cli()
    yield c
    c.close()


class Server:
    """A `ply serve --port 0 --quiet` on 127.0.0.1 (its address read from its first line), with a
    cache directory of its own."""

    def __init__(self, cli: Cli) -> None:
        env = dict(os.environ, XDG_CACHE_HOME=cli.cache)
        self.process = subprocess.Popen(
            [cli.binary, "serve", "--port", "0", "--quiet"], stdout=subprocess.PIPE, text=True, env=env
        )
        line = self.process.stdout.readline()
        self.base = next(w for w in line.split() if w.startswith("http://127.0.0.1:")).rstrip("/")
        # Straight to the server, whatever proxy the environment names.
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def post(self, path: str, body: str):
        """The status and text of the answer to `body` POSTed to `path`."""
        request = urllib.request.Request(
            self.base + path, data=body.encode(), headers={"Content-Type": "application/json"}
        )
        try:
            with self.opener.open(request, timeout=600) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode()

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


@pytest.fixture(scope="session")
def server(cli):
    s = Server(cli)
    yield s
    s.close()


@pytest.fixture(scope="module")
def small_ray():
    """A local Ray of 2 CPUs for one test module (test_distributed, test_book_cluster), its
    workers at the suite's niceness, as plysolve.distributed's own local Ray has them (Ray's
    default of 15 more starves them on a busy machine)."""
    import ray

    os.environ.setdefault("RAY_worker_niceness", "0")
    ray.init(num_cpus=2, object_store_memory=80 * 1024 * 1024, include_dashboard=False,
             log_to_driver=False)
    yield ray
    ray.shutdown()
