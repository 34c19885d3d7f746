"""The shipped nginx files (deploy/nginx/) run by a real nginx for the tests: ``pools.conf`` with its upstreams'
ports changed and its cache in the test's folder, ``locations.conf`` and ``brotli.conf`` as they are (Debian's Brotli
module loaded where it is installed; without it ``brotli.conf`` is left empty)."""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "nginx"
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
UPSTREAM_PORTS = {"mafia_public": 8000, "mafia_stream": 8001, "mafia_staff": 8002}  # as pools.conf has them
CACHE_PATH = "/var/cache/nginx/mafia "
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so")


def worker_user() -> str:
    """nginx's workers as whoever runs the test (as root they would be ``nobody``, who cannot write the request
    bodies it buffers into the test's private temporary directory)."""
    return f"user {getpass.getuser()};\n" if os.geteuid() == 0 else ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def shipped_files(root: Path, ports: dict[str, int]) -> None:
    """``root/mafia/`` holding the shipped files, each upstream of ``pools.conf`` on its port in ``ports``."""
    pools = (DEPLOY / "pools.conf").read_text()
    for name, port in UPSTREAM_PORTS.items():
        assert f"server 127.0.0.1:{port};" in pools, f"pools.conf no longer has {name} on {port}"
        pools = pools.replace(f"server 127.0.0.1:{port};", f"server 127.0.0.1:{ports.get(name, port)};")
    assert CACHE_PATH in pools, "pools.conf no longer keeps its cache in /var/cache/nginx/mafia"
    (root / "mafia").mkdir()
    (root / "mafia" / "pools.conf").write_text(pools.replace(CACHE_PATH, f"{root}/cache "))
    shutil.copy(DEPLOY / "locations.conf", root / "mafia" / "locations.conf")
    (root / "mafia" / "brotli.conf").write_text((DEPLOY / "brotli.conf").read_text() if BROTLI_MODULE.exists()
                                                else "")


def load_modules() -> str:
    return f"load_module {BROTLI_MODULE};\n" if BROTLI_MODULE.exists() else ""


@contextmanager
def running(root: Path, ports: dict[str, int]) -> Iterator[int]:
    """nginx with the shipped files in front of the upstreams on ``ports``; the port it listens on."""
    assert NGINX is not None
    shipped_files(root, ports)
    port = free_port()
    temp = {f"{kind}_temp_path": root / kind for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    (root / "nginx.conf").write_text(
        f"{load_modules()}daemon off;\n{worker_user()}pid {root}/nginx.pid;\nerror_log {root}/error.log;\n"
        f"events {{}}\nhttp {{\n  access_log off;\n" + "".join(f"  {k} {v};\n" for k, v in temp.items())
        + f"  include mafia/pools.conf;\n  server {{\n    listen 127.0.0.1:{port};\n"
        f"    include mafia/locations.conf;\n  }}\n}}\n")
    nginx = subprocess.Popen([NGINX, "-p", str(root), "-c", str(root / "nginx.conf")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 15
        while True:
            if nginx.poll() is not None:
                raise AssertionError(f"nginx stopped: {nginx.stderr.read().decode() if nginx.stderr else ''}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield port
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
