"""A private PostgreSQL cluster for fault tests, and the app served against it by gunicorn.

The machine's shared server (port 5432) is never touched: the cluster is ``initdb``'d into a temporary
directory, listens on a free port of 127.0.0.1 (its socket in that directory), and a test stops it (a
crash with ``immediate``, a clean shutdown with ``fast``) and starts it again at will. ``initdb`` refuses
to run as root, so as root the cluster's tools run as the ``postgres`` user (``runuser``).
"""

from __future__ import annotations

import http.client
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OWNER = "postgres"  # the system user the cluster runs as when the tests run as root


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def binaries() -> Path | None:
    """The newest PostgreSQL server's ``bin`` directory (Debian's layout), if any."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parent.parent.name)
                   if p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


def why_unavailable() -> str | None:
    """Why no private cluster can be started here, or None when it can."""
    if binaries() is None:
        return "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin"
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            return "running as root without runuser: initdb refuses root"
        try:
            pwd.getpwnam(OWNER)
        except KeyError:
            return f"running as root without a {OWNER!r} user to run initdb as"
    return None


@dataclass
class PrivateCluster:
    bin: Path
    root: Path
    port: int = field(default_factory=free_port)

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def tool(self, name: str, *args: str, timeout: float = 60) -> None:
        prefix = ["runuser", "-u", OWNER, "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, str(self.bin / name), *args], check=True, timeout=timeout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def init(self) -> None:
        self.tool("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")

    def start(self) -> None:
        # fsync off: only a crash of the machine itself could lose committed data, never one of PostgreSQL
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.tool("pg_ctl", "start", "-w", "-t", "30", "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-o", options)

    def stop(self, mode: str = "fast") -> None:
        """``immediate`` kills the server as a crash would (recovery from the WAL at the next start)."""
        self.tool("pg_ctl", "stop", "-w", "-t", "30", "-m", mode, "-D", str(self.data))

    def connect(self, database: str = "postgres") -> Any:
        import psycopg2

        connection = psycopg2.connect(host="127.0.0.1", port=self.port, user="postgres", dbname=database)
        connection.autocommit = True
        return connection

    def execute(self, sql: str, params: tuple[Any, ...] = (), database: str = "postgres") -> list[tuple[Any, ...]]:
        connection = self.connect(database)
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchall() if cursor.description else []
        finally:
            connection.close()


@contextmanager
def private_cluster() -> Iterator[PrivateCluster]:
    """A started cluster in a temporary directory; stopped and removed afterwards."""
    bin_dir = binaries()
    assert bin_dir is not None, why_unavailable()
    root = Path(tempfile.mkdtemp(prefix="pg-private-"))
    if os.geteuid() == 0:
        shutil.chown(root, OWNER, OWNER)
    cluster = PrivateCluster(bin_dir, root)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        with suppress(subprocess.SubprocessError):  # already stopped
            cluster.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@dataclass
class AppServer:
    """gunicorn serving the app; ``log`` collects what it writes (the app's log records included)."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def logged(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@contextmanager
def gunicorn(env: dict[str, str], log: Path, workers: int = 2) -> Iterator[AppServer]:
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "mafia_tournament.wsgi", "--workers", str(workers),
             "--bind", f"127.0.0.1:{port}", "--timeout", "30", "--graceful-timeout", "2", "--no-control-socket"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = AppServer(process, port, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise AssertionError(f"gunicorn stopped before answering:\n{server.logged()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"gunicorn did not answer in time:\n{server.logged()}") from None
                time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Browser:
    """An HTTP client with its cookies, as a browser behind the TLS proxy would be (``X-Forwarded-Proto``).

    Cookies are kept by hand: the production profile marks them secure, and this loopback is plain HTTP.
    """

    port: int
    language: str = "en"
    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                timeout: float = 30) -> Answer:
        sent = {"Host": f"127.0.0.1:{self.port}", "X-Forwarded-Proto": "https", "Accept-Language": self.language,
                "Origin": f"https://127.0.0.1:{self.port}", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.token:
            sent["Authorization"] = f"Token {self.token}"
        if "csrftoken" in self.cookies and method != "GET":
            sent["X-CSRFToken"] = self.cookies["csrftoken"]
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        started = time.monotonic()
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        seconds = time.monotonic() - started
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data, seconds)

    def get(self, path: str, **headers: str) -> Answer:
        return self.request("GET", path, headers=headers)

    def post_form(self, path: str, data: dict[str, str], **headers: str) -> Answer:
        from urllib.parse import urlencode

        return self.request("POST", path, urlencode(data).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded", **headers})

    def send_json(self, method: str, path: str, data: Any) -> Answer:
        return self.request(method, path, json.dumps(data).encode(), {"Content-Type": "application/json"})
