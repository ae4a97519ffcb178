"""A TCP proxy in front of a real Redis that loses chosen replies, the way a broker crash does.

Redis SIGKILLed after it ran a command (and wrote it to its append-only file) but before its reply
reached the client is a window of microseconds: a test that kills Redis under a busy worker hits
it about once in eight runs. Here the window is certain: the proxy passes every command on, and
for the first N commands of each watched kind whose reply is not empty (a nil or an error
passes), it keeps the reply and closes the client's connection instead, as a crash would. Redis
itself runs on: what the command did stays done.

With no drops it is a plain proxy: closing it is the server going away for the client (its
connections cut, new ones refused), and a new one on the same port is the server back.

`drops` maps a watched kind to N: "BLMOVE" is any BLMOVE; "EVALSHA unacked_index" an EVALSHA
whose command also names `unacked_index` (a script over those keys, not any script).
"""
from __future__ import annotations

import socket
import threading
from urllib.parse import urlsplit

from tests.harness import free_port

# RESP nil replies (RESP2 bulk / array, RESP3 null): a wait that timed out, a take of nothing
_NIL = (b"$-1\r\n", b"*-1\r\n", b"_\r\n")


def port_of(url: str) -> int:
    """The port of a server's URL (a harness-started or an external one)."""
    return urlsplit(url).port


class ReplyDropper:
    def __init__(self, upstream_port: int, drops: dict[str, int], port: int | None = None) -> None:
        self.upstream_port = upstream_port
        self.left = dict(drops)
        self._markers = {kind: [f"\r\n{kind.split()[0].upper()}\r\n".encode(),
                                *(m.encode() for m in kind.split()[1:])] for kind in drops}
        self.dropped: list[tuple[str, bytes]] = []  # kind, first bytes of each reply kept
        self.port = port or free_port()  # a port of its own, or one to come back on
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._closed = False
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def _watched(self, command: bytes) -> str | None:
        with self._lock:
            return next((kind for kind, markers in self._markers.items()
                         if self.left[kind] > 0 and all(m in command for m in markers)), None)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            self._sockets += [client, upstream]
            armed: list = []  # the kind of watched command just sent: its reply may be dropped
            threading.Thread(target=self._commands, args=(client, upstream, armed),
                             daemon=True).start()
            threading.Thread(target=self._replies, args=(upstream, client, armed),
                             daemon=True).start()

    def _commands(self, client, upstream, armed) -> None:
        tail = b""
        try:
            while chunk := client.recv(65536):
                kind = self._watched(tail + chunk)
                if kind:
                    armed[:] = [kind]
                tail = chunk[-64:]
                upstream.sendall(chunk)
        except OSError:
            pass
        _close(client, upstream)

    def _replies(self, upstream, client, armed) -> None:
        try:
            while chunk := upstream.recv(65536):
                if armed:
                    kind = armed.pop()
                    if not chunk.startswith(_NIL) and not chunk.startswith(b"-"):
                        with self._lock:
                            drop = self.left[kind] > 0
                            self.left[kind] -= drop
                        if drop:
                            self.dropped.append((kind, chunk[:200]))
                            break  # the reply never arrives: the connection is gone
                client.sendall(chunk)
        except OSError:
            pass
        _close(client, upstream)

    def close(self) -> None:
        self._closed = True
        _close(self._server)  # shut down, not only closed: that wakes the blocked accept()
        for sock in self._sockets:
            _close(sock)

    def __enter__(self) -> ReplyDropper:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _close(*sockets) -> None:
    for sock in sockets:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()
