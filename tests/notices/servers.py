"""Stand-ins for the channels, on loopback: a real SMTP server that keeps every message it accepts, and
a local HTTP server answering the Bot API's documented methods the notifications use (getMe, sendMessage,
getUpdates), keeping what was sent; either can be told to refuse."""

from __future__ import annotations

import email
import email.policy
import json
import socket
import socketserver
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

BOT_NAME = "mafia_test_bot"
TOKEN = "123456:TEST-token"
# How often a server's loop looks for ``stop``: ``shutdown`` waits for it, and at the default half second each test
# with both servers spent 0.9 s in its teardown.
STOP_POLL = 0.02


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

    def keep(self, rcpt_tos: list[str], content: bytes) -> None:
        message = email.message_from_bytes(content, policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        self.mails.append(Mail(list(rcpt_tos), str(message["Subject"]).strip(),
                               body.get_content() if body is not None else "",
                               {k: str(v).strip() for k, v in message.items()}))


class SMTPServer:
    """An SMTP server (RFC 5321's commands a client sends: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) on
    loopback, one thread a connection. aiosmtpd would do, but it needs ``atpublic``, whose module is named
    ``public`` as our app is: installed, it hides our app from mypy."""

    def __init__(self) -> None:
        self.keeper = Keeper()
        keeper = self.keeper

        class Handler(socketserver.StreamRequestHandler):
            def say(self, line: str) -> None:
                self.wfile.write(line.encode() + b"\r\n")
                self.wfile.flush()

            def handle(self) -> None:
                self.say("220 127.0.0.1 ESMTP test")
                rcpt: list[str] = []
                while True:
                    raw = self.rfile.readline()
                    if not raw:
                        return
                    line = raw.decode("utf-8", "replace").rstrip("\r\n")
                    verb = line[:4].upper()
                    if verb == "EHLO":
                        self.say("250-127.0.0.1")
                        self.say("250-8BITMIME")
                        self.say("250 SMTPUTF8")
                    elif verb == "HELO":
                        self.say("250 127.0.0.1")
                    elif verb == "MAIL":
                        rcpt = []
                        self.say("250 OK")
                    elif verb == "RCPT":
                        address = line.split(":", 1)[1].strip().split()[0].strip("<>")
                        if address in keeper.refuse:
                            self.say("550 no such mailbox")
                        else:
                            rcpt.append(address)
                            self.say("250 OK")
                    elif verb == "DATA":
                        self.say("354 End data with <CR><LF>.<CR><LF>")
                        lines = []
                        while True:
                            data = self.rfile.readline()
                            if data in (b".\r\n", b".\n", b""):
                                break
                            lines.append(data[1:] if data.startswith(b"..") else data)
                        keeper.keep(rcpt, b"".join(lines))
                        self.say("250 Message accepted for delivery")
                    elif verb in ("RSET", "NOOP"):
                        self.say("250 OK")
                    elif verb == "QUIT":
                        self.say("221 Bye")
                        return
                    else:
                        self.say("502 Command not implemented")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": STOP_POLL},
                                       daemon=True)
        self.running = False

    def start(self) -> SMTPServer:
        self.thread.start()
        self.running = True
        return self

    def stop(self) -> None:
        if self.running:
            self.server.shutdown()
            self.server.server_close()
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
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": STOP_POLL},
                                       daemon=True)

    def start(self) -> BotServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
