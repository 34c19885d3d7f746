"""The shipped nginx configuration (deploy/nginx/) run by a real nginx: readers go to the public pool, everyone
with credentials to the staff pool, the overlay's websocket to uvicorn, and the split is the one the app itself
makes between a shareable reader and a personal request (``public.conditional.personal``).

The three upstreams are small HTTP servers here that answer which one they are and what nginx sent them;
``pools.conf`` is used with only their ports changed, ``locations.conf`` as it is."""

from __future__ import annotations

import http.client
import json
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import RequestFactory

from public.conditional import personal
from tests.deploy.nginx_run import DEPLOY, NGINX, UPSTREAM_PORTS, load_modules, running, shipped_files

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (scripts/system-packages.sh)")


class Echo(BaseHTTPRequestHandler):
    """Answers its pool's name, the path, and the headers and body length it received."""

    pool = ""

    def answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        received = self.rfile.read(length) if length else b""
        body = json.dumps({"pool": self.pool, "path": self.path, "body": len(received),
                           "headers": {k.lower(): v for k, v in self.headers.items()}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = answer

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """nginx with the shipped pools and locations in front of three echo servers; its port."""
    root = tmp_path_factory.mktemp("nginx")
    servers, ports = [], {}
    for name in UPSTREAM_PORTS:
        handler = type(name, (Echo,), {"pool": name})
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        servers.append(server)
        ports[name] = server.server_address[1]
    try:
        with running(root, ports) as port:
            yield port
    finally:
        for server in servers:
            server.shutdown()


def through(port: int, method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes | None = None) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    content = response.read()
    assert response.status == 200, (response.status, content[:300])
    answer: dict[str, Any] = json.loads(content)
    return answer


SESSION = settings.SESSION_COOKIE_NAME
MESSAGES = CookieStorage.cookie_name

# (what the request carries, its headers, the pool it must reach)
REQUESTS = [
    ("nothing: a phone reading the standings", {}, "mafia_public"),
    ("a language and a CSRF cookie only", {"Cookie": f"django_language=ru; {settings.CSRF_COOKIE_NAME}=abc"},
     "mafia_public"),
    ("a session: a signed-in organizer or a judge's link", {"Cookie": f"django_language=ru; {SESSION}=abc"},
     "mafia_staff"),
    ("messages waiting in a cookie", {"Cookie": f"{MESSAGES}=abc"}, "mafia_staff"),
    ("an API token: a judge's app", {"Authorization": "Token abc"}, "mafia_staff"),
]


@pytest.mark.parametrize(("what", "headers", "pool"), REQUESTS, ids=[r[0] for r in REQUESTS])
def test_readers_go_to_the_public_pool_and_credentials_to_the_staff_pool(proxy: int, what: str,
                                                                         headers: dict[str, str], pool: str) -> None:
    answer = through(proxy, "GET", "/p/cup/standings/s1/?x=1", headers)
    assert answer["pool"] == pool, what
    assert answer["path"] == "/p/cup/standings/s1/?x=1"
    # The app's own split is the same: the public pool's readers are the ones whose answers the proxy may keep.
    request = RequestFactory().get("/p/cup/standings/s1/", headers=headers)
    assert personal(request) == (pool == "mafia_staff"), what


def test_the_app_hears_https_the_host_and_the_client_address(proxy: int) -> None:
    headers = through(proxy, "GET", "/api/tournaments/cup/standings/", {"Host": "mafia.example.org"})["headers"]
    assert headers["host"] == "mafia.example.org"
    assert headers["x-forwarded-proto"] == "https"  # SECURE_PROXY_SSL_HEADER
    assert headers["x-forwarded-for"].split(",")[-1].strip() == "127.0.0.1"  # TRUSTED_PROXIES=1: client_ip


def test_a_judge_saving_a_protocol_and_an_organizer_importing_a_large_file_reach_the_staff_pool(proxy: int) -> None:
    saved = through(proxy, "PUT", "/api/tournaments/cup/protocols/3/", {"Authorization": "Token abc",
                                                                         "Content-Type": "application/json"}, b"{}")
    assert saved["pool"] == "mafia_staff"
    upload = b"x" * (20 * 1024 * 1024)  # a tournament file as large as the app takes; nginx's default limit: 1 MB
    imported = through(proxy, "POST", "/import/", {"Cookie": f"{SESSION}=abc"}, upload)
    assert (imported["pool"], imported["body"]) == ("mafia_staff", len(upload))


def test_the_overlay_socket_goes_to_uvicorn_as_an_upgrade(proxy: int) -> None:
    answer = through(proxy, "GET", "/ws/stream/ticket/", {"Connection": "Upgrade", "Upgrade": "websocket"})
    assert answer["pool"] == "mafia_stream"
    assert answer["headers"]["upgrade"] == "websocket"
    assert answer["headers"]["connection"].lower() == "upgrade"


def test_the_whole_site_file_is_valid_nginx(tmp_path: Path) -> None:
    """site.conf with its includes, a certificate in place of the real one: ``nginx -t`` accepts it."""
    assert NGINX is not None
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=test",
                    "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True)
    shipped_files(tmp_path, {})
    site = (DEPLOY / "site.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/mafia.example.org/fullchain.pem", str(tmp_path / "cert.pem"))
    site = site.replace("/etc/letsencrypt/live/mafia.example.org/privkey.pem", str(tmp_path / "key.pem"))
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"{load_modules()}pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
        f"events {{}}\nhttp {{\n  include site.conf;\n}}\n")
    checked = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
