"""`landlord-dsl serve`: a classroom on one laptop (docs/classroom.md), the `web` extra's server."""

from __future__ import annotations

import argparse
import errno
import secrets
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..core.errors import UsageError
from .common import _parse_options

if TYPE_CHECKING:
    from ..presentation.classroom import Classroom

LOOPBACK = "127.0.0.1"


def serve_arguments(p: argparse.ArgumentParser) -> None:
    """Add serve's arguments: an edition to start a first table of, where to listen, the tables' folder."""
    p.add_argument("name", nargs="?", metavar="NAME", help="start a first table of this edition or variant")
    p.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"the address to listen on (default {LOOPBACK}: this computer only)",
    )
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000; 0: any free one)")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="an option of NAME's rules (repeatable)"
    )
    p.add_argument(
        "--seats",
        default="human,human,bot",
        metavar="KINDS",
        help="NAME's seats, human or bot, comma-separated (default human,human,bot)",
    )
    p.add_argument("--seed", type=int, default=1, help="NAME's game's seed (default 1)")
    p.add_argument(
        "--tables",
        metavar="DIR",
        help="keep each table's log and keys in DIR and rebuild the tables found there on start "
        "(needed for pasted rule files)",
    )


def listening_socket(host: str, port: int) -> socket.socket:
    """Return a socket bound to host:port and listening.

    :raises UsageError: the port is in use, not allowed, or the host is not an address of this computer."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(64)
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is in use: choose another with --port") from None
        if err.errno == errno.EACCES:
            raise UsageError(f"port {port} needs privileges here: choose one above 1023 with --port") from None
        raise UsageError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    return sock


def host_warning(host: str) -> str | None:
    """Return the warning `serve` prints when it listens beyond this computer (None on a loopback address)."""
    if host in (LOOPBACK, "localhost", "::1"):
        return None
    return (
        f"warning: listening on {host}: anyone on the network who has a table's token can join it "
        "(the teacher's page still needs the link below)"
    )


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    try:
        import uvicorn

        from ..presentation.classroom_web import create_app
    except ImportError as err:
        if (err.name or "").split(".")[0] not in ("starlette", "uvicorn"):
            raise
        raise UsageError(
            f"landlord-dsl serve needs the optional 'web' extra ({err.name} is missing): "
            "pip install 'landlord-dsl[web]'"
        ) from None
    from ..checking.loader import load
    from ..presentation.classroom import Classroom

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port is 0 to 65535, not {args.port}")
    classroom = Classroom(Path(args.tables) if args.tables else None, load)
    first = None
    if args.name:
        kinds = [k.strip() for k in args.seats.split(",") if k.strip()]
        first = classroom.start(args.name, kinds, args.seed, _parse_options(args.option))
    elif args.option:
        raise UsageError("--option is for NAME's rules: give NAME")
    sock = listening_socket(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    open_to_all = args.host in ("0.0.0.0", "::")
    reach = _lan_address() if open_to_all else shown
    base = f"http://{reach}:{port}"
    key = secrets.token_urlsafe(18)
    warning = host_warning(args.host)
    if warning:
        sys.stderr.write(warning + "\n")
    out.write(f"teacher's page: http://{LOOPBACK if open_to_all else shown}:{port}/?key={key}\n")
    out.write(f"students join at {base}/join\n")
    for table in classroom.tables.values():
        out.write(f"table {table.id}: token {table.token}, join link {base}/t/{table.id}?token={table.token}")
        out.write(f"{' (new)' if table is first else ''}\n")
    out.flush()
    config = uvicorn.Config(create_app(classroom, key, base), log_level="warning", ws="auto")
    uvicorn.Server(config).run(sockets=[sock])
    return 0


@contextmanager
def serving_in_thread(classroom: Classroom, key: str, host: str = LOOPBACK) -> Iterator[str]:
    """Run `classroom`'s server (teacher's key `key`) on a free port of `host` in a thread of this process, for
    a test, a notebook or a script; yield its origin (`http://HOST:PORT`) once it accepts connections, and stop
    it when the block ends. Needs the 'web' extra."""
    import uvicorn

    from ..presentation.classroom_web import create_app

    sock = listening_socket(host, 0)
    origin = f"http://{host}:{sock.getsockname()[1]}"
    running = uvicorn.Server(uvicorn.Config(create_app(classroom, key, origin), log_level="warning"))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not running.started and thread.is_alive():
        time.sleep(0.02)
    try:
        yield origin
    finally:
        running.should_exit = True
        thread.join(10)
        sock.close()


def _lan_address() -> str:
    """Return this computer's address on its local network, as students' devices reach it (a guess: the
    address a packet to a public address would leave from; nothing is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # (TEST-NET-1: connecting a UDP socket sends nothing)
        return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()
