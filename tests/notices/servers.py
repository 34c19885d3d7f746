"""Stand-ins for the channels, on loopback: a real SMTP server (aiosmtpd) that keeps every message it accepts, and
a local HTTP server answering the Bot API's documented methods the notifications use (getMe, sendMessage,
getUpdates), keeping what was sent; either can be told to refuse."""

from __future__ import annotations

import email
import email.policy
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs


def _aiosmtpd_controller() -> Any:
    """aiosmtpd needs ``atpublic``, whose module is named ``public``, as our app is: it is imported from its own
    file for the time aiosmtpd is imported, and our app put back."""
    import importlib.util
    import sys
    import sysconfig
    from pathlib import Path

    ours = sys.modules.get("public")
    path = Path(sysconfig.get_paths()["purelib"]) / "public" / "__init__.py"
    spec = importlib.util.spec_from_file_location("public", path, submodule_search_locations=[str(path.parent)])
    assert spec is not None and spec.loader is not None
    theirs = importlib.util.module_from_spec(spec)
    sys.modules["public"] = theirs
    spec.loader.exec_module(theirs)
    try:
        from aiosmtpd.controller import Controller
    finally:
        for name in [n for n in sys.modules if n.startswith("public.") and n.split(".")[1].startswith("_")]:
            del sys.modules[name]
        if ours is not None:
            sys.modules["public"] = ours
        else:
            del sys.modules["public"]
    return Controller


Controller = _aiosmtpd_controller()

BOT_NAME = "mafia_test_bot"
TOKEN = "123456:TEST-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Mail:
    to: list[str]
    subject: str
    body: str
    headers: dict[str, str]


class Keeper:
    def __init__(self) -> None:
        self.mails: list[Mail] = []
        self.refuse: set[str] = set()

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address in self.refuse:
            return "550 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        self.mails.append(Mail(list(envelope.rcpt_tos), str(message["Subject"]).strip(),
                               body.get_content() if body is not None else "",
                               {k: str(v).strip() for k, v in message.items()}))
        return "250 Message accepted for delivery"


class SMTPServer:
    def __init__(self) -> None:
        self.keeper = Keeper()
        self.port = free_port()
        self.controller = Controller(self.keeper, hostname="127.0.0.1", port=self.port)

    def start(self) -> SMTPServer:
        self.controller.start()
        self.running = True
        return self

    def stop(self) -> None:
        if self.running:
            self.controller.stop()
            self.running = False

    @property
    def mails(self) -> list[Mail]:
        return self.keeper.mails

    def to(self, address: str) -> list[Mail]:
        return [m for m in self.keeper.mails if address in m.to]


@dataclass
class BotAPI:
    """What the fake Bot API saw and will answer."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    blocked: set[int] = field(default_factory=set)  # chats that blocked the bot: 403
    calls: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_update: int = 100

    def to(self, chat_id: int) -> list[str]:
        return [str(m["text"]) for m in self.sent if int(m["chat_id"]) == chat_id]

    def user_says(self, chat_id: int, text: str) -> None:
        with self.lock:
            self.next_update += 1
            self.updates.append({"update_id": self.next_update, "message": {
                "message_id": self.next_update, "date": int(time.time()), "text": text,
                "chat": {"id": chat_id, "type": "private", "first_name": "Player"},
                "from": {"id": chat_id, "is_bot": False, "first_name": "Player"}}})


class BotServer:
    def __init__(self) -> None:
        self.api = BotAPI()
        api = self.api

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def answer(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def params(self) -> dict[str, Any]:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                if "json" in (self.headers.get("Content-Type") or ""):
                    return dict(json.loads(raw or "{}"))
                return {k: v[0] for k, v in parse_qs(raw).items()}

            def do_GET(self) -> None:
                self.do_POST()

            def do_POST(self) -> None:
                path = self.path.split("?")[0]
                prefix = f"/bot{TOKEN}/"
                if not path.startswith(prefix):
                    return self.answer(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
                method, params = path[len(prefix):], self.params()
                api.calls.append(method)
                if method == "getMe":
                    return self.answer(200, {"ok": True, "result": {"id": 42, "is_bot": True, "first_name": "Mafia",
                                                                   "username": BOT_NAME}})
                if method == "sendMessage":
                    chat = int(params["chat_id"])
                    if chat in api.blocked:
                        return self.answer(403, {"ok": False, "error_code": 403,
                                                 "description": "Forbidden: bot was blocked by the user"})
                    with api.lock:
                        api.sent.append({"chat_id": chat, "text": params["text"]})
                        number = len(api.sent)
                    return self.answer(200, {"ok": True, "result": {
                        "message_id": number, "date": int(time.time()), "text": params["text"],
                        "chat": {"id": chat, "type": "private"}}})
                if method == "getUpdates":
                    offset = int(params.get("offset") or 0)
                    with api.lock:
                        api.updates = [u for u in api.updates if u["update_id"] >= offset]
                        found = list(api.updates)
                    return self.answer(200, {"ok": True, "result": found})
                return self.answer(404, {"ok": False, "error_code": 404, "description": "Not Found"})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> BotServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
