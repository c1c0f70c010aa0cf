"""The classroom server (`landlord-dsl serve`, issue 32 §2, docs/classroom.md) through Starlette's TestClient:
joining a table with its token and its websocket, answering only for one's own seat, rejoining a seat,
several tables at once, tables rebuilt from their logs and keys after a restart, a pasted rule file checked
as `check` checks it, and a finished game's log (landlords-game-1906) passing `replay`."""

from __future__ import annotations

import io
import json
import socket
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from landlord_dsl.checking.loader import load
from landlord_dsl.cli.main import main
from landlord_dsl.presentation.classroom import Classroom
from landlord_dsl.presentation.classroom_web import FailedAttempts, create_app

EDITION = "landlords-game-1906"
KEY = "the-servers-key"


_OPEN: list[TestClient] = []


@pytest.fixture(autouse=True)
def _close_clients():
    yield
    while _OPEN:
        _OPEN.pop().__exit__(None, None, None)


def _server(folder: Path | None = None, attempts: FailedAttempts | None = None) -> tuple[Classroom, TestClient]:
    """Return a classroom and a client of its app, entered: every websocket then shares one event loop, as
    under uvicorn (a broadcast from one socket's handler writes to the others)."""
    classroom = Classroom(folder, load)
    client = TestClient(create_app(classroom, KEY, attempts=attempts))
    client.__enter__()
    _OPEN.append(client)
    return classroom, client


def _start(client: TestClient, kinds: list[str], seed: int = 5, **extra) -> dict:
    answer = client.post(f"/tables?key={KEY}", json={"edition": EDITION, "kinds": kinds, "seed": seed} | extra)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _join(client: TestClient, table: dict, seats: list[int]) -> str:
    answer = client.post(f"/t/{table['id']}/join", json={"token": table["token"], "seats": seats})
    assert answer.status_code == 200, answer.text
    return answer.json()["device"]


def _first(request: dict) -> int | None:
    """Return the page's first option's action (a bid: pass), as the browser test clicks."""
    return request["options"][0]["action"] if request["kind"] == "decide" else None


def _play_out(sockets: dict[int, object], view: dict) -> int:
    """Answer every request with its first option from the socket holding its seat until the game ends,
    reading every broadcast on every socket; return the number of answers."""
    request, answers = view["request"], 0
    while request is not None:
        sockets[request["seat"]].send_json({"answer": _first(request)})
        shown = [ws.receive_json() for ws in dict.fromkeys(sockets.values())]
        assert all(s["type"] == "shown" for s in shown) and shown[0] == shown[-1]
        request, answers = shown[0]["request"], answers + 1
    return answers


def test_a_wrong_token_is_refused_at_the_websocket_and_at_the_seats(tmp_path):
    _, client = _server()
    table = _start(client, ["human", "bot", "human"])
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/t/{table['id']}/ws?token=WRONG"):
        pass
    assert refused.value.code == 4403
    answer = client.post(f"/t/{table['id']}/join", json={"token": "WRONG", "seats": [0]})
    assert answer.status_code == 403 and "token" in answer.json()["error"]
    assert client.get(f"/t/{table['id']}/log?token=WRONG").status_code == 403
    assert client.get("/").status_code == 403 and client.post("/tables", json={}).status_code == 403
    # a bot's seat, or one already taken, is not given to anyone
    assert client.post(f"/t/{table['id']}/join", json={"token": table["token"], "seats": [1]}).status_code == 403
    _join(client, table, [0])
    again = client.post(f"/t/{table['id']}/join", json={"token": table["token"], "seats": [0]})
    assert again.status_code == 403 and "taken" in again.json()["error"]


def test_only_the_device_holding_the_pending_seat_may_answer_it_and_a_lost_device_rejoins_its_seat():
    _, client = _server()
    table = _start(client, ["human", "bot", "human"])
    first, third = _join(client, table, [0]), _join(client, table, [2])
    base = f"/t/{table['id']}/ws"
    connect = client.websocket_connect
    with connect(f"{base}?device={first}") as one, connect(f"{base}?device={third}") as two:
        view_one, view_two = one.receive_json(), two.receive_json()
        assert view_one["seats"] == [0] and view_two["seats"] == [2]
        assert view_one["taken"] == [True, False, True] and view_one["board"]["names"][1] == "Player 2 (bot)"
        assert view_one["frames"] and all("rule" in f for f in view_one["frames"])
        request = view_one["request"]
        assert request["seat"] == 0  # 1906: Player 1 throws first
        other = two if request["seat"] == 0 else one
        other.send_json({"answer": _first(request)})
        refused = other.receive_json()
        assert refused["type"] == "refused" and "not one of your seats" in refused["error"]
        # a watcher with the token sees the game but holds no seat
        with client.websocket_connect(f"{base}?token={table['token']}") as watcher:
            watched = watcher.receive_json()
            assert watched["seats"] == [] and watched["request"] == request
            watcher.send_json({"answer": _first(request)})
            assert "no seat" in watcher.receive_json()["error"]
        one.send_json({"answer": "yes"})
        assert "whole number" in one.receive_json()["error"]
        one.send_json({"answer": _first(request)})
        moved = one.receive_json()
        assert moved["type"] == "shown" and two.receive_json() == moved and moved["frames"]
    # the device lost its connection: its secret (kept in the browser) gives it its seat and the game so far
    with client.websocket_connect(f"{base}?device={first}") as back:
        rejoined = back.receive_json()
        assert rejoined["seats"] == [0] and rejoined["request"] == moved["request"]
        assert rejoined["frames"][-len(moved["frames"]) :] == moved["frames"]


def test_two_tables_play_at_once_and_a_finished_games_log_passes_replay(tmp_path, monkeypatch, capsys):
    _, client = _server()
    tables = [_start(client, ["human", "human", "bot"], seed=5), _start(client, ["bot", "human"], seed=8)]
    assert tables[0]["id"] != tables[1]["id"] and tables[0]["token"] != tables[1]["token"]
    a0, a1 = _join(client, tables[0], [0]), _join(client, tables[0], [1])
    hot = _join(client, tables[1], [1])  # (one device may hold several seats: a hot seat)
    # a device of one table is nobody at the other
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/t/{tables[1]['id']}/ws?device={a0}") as ws:
        ws.receive_json()
    w = f"/t/{tables[0]['id']}/ws"
    with client.websocket_connect(f"{w}?device={a0}") as s0, client.websocket_connect(f"{w}?device={a1}") as s1:
        v0 = s0.receive_json()
        s1.receive_json()
        with client.websocket_connect(f"/t/{tables[1]['id']}/ws?device={hot}") as s2:
            answers = _play_out({1: s2}, s2.receive_json())
        assert answers > 0
        answers = _play_out({0: s0, 1: s1}, v0)
        assert answers > 5
    monkeypatch.chdir(tmp_path)
    for table in tables:
        log = client.get(f"/t/{table['id']}/log?teacher={table['teacher']}")
        assert log.status_code == 200 and "attachment" in log.headers["content-disposition"]
        (tmp_path / f"{table['id']}.log").write_text(log.text, encoding="utf-8")
        assert main(["replay", f"{table['id']}.log"], io.StringIO()) == 0
        summary = client.get(f"/t/{table['id']}/summary?token={table['token']}").text
        assert summary.startswith(f"Table {table['id']}: {EDITION}") and "(winner)" in summary
    assert json.loads(log.text.splitlines()[0])["names"] == ["Player 1 (bot)", "Player 2"]


def test_a_restarted_server_rebuilds_every_table_from_its_log_and_keys(tmp_path):
    classroom, client = _server(tmp_path)
    table = _start(client, ["human", "bot", "human"], options=["single_tax=from_start"])
    other = _start(client, ["human", "bot"], seed=2)
    device, third = _join(client, table, [0]), _join(client, table, [2])
    w = f"/t/{table['id']}/ws"
    with client.websocket_connect(f"{w}?device={device}") as s0, client.websocket_connect(f"{w}?device={third}") as s2:
        view = s0.receive_json()
        s2.receive_json()
        sockets, request = {0: s0, 2: s2}, view["request"]
        for _ in range(12):
            sockets[request["seat"]].send_json({"answer": _first(request)})
            shown = [s0.receive_json(), s2.receive_json()][0]
            request = shown["request"]
    before = classroom.tables[table["id"]]
    assert {p.name for p in tmp_path.iterdir()} == {
        f"{t['id']}.{end}" for t in (table, other) for end in ("log", "keys.json")
    }
    # a new server on the same folder: the same tables, tokens, seats and game, to the same request
    restarted, client2 = _server(tmp_path)
    again = restarted.tables[table["id"]]
    assert (
        again.log() == before.log()
        and again.token == table["token"]
        and set(restarted.tables)
        == {
            table["id"],
            other["id"],
        }
    )
    with client2.websocket_connect(f"{w}?device={device}") as back:
        rebuilt = back.receive_json()
        assert rebuilt["seats"] == [0] and rebuilt["request"] == request
        assert rebuilt["frames"] == before.frames and rebuilt["holdings"] == before.holdings
    assert json.loads(again.log().splitlines()[0])["options"]["single_tax"] == "from_start"


def test_a_pasted_rule_file_is_checked_as_check_checks_it_and_played_from_the_tables_folder(tmp_path):
    _, client = _server(tmp_path)
    bad = 'edition "house" {\n  title "House"\n  extends "landlords-game-1906"\n}\nconst wages = "x"\n'
    refused = client.post(f"/tables?key={KEY}", json={"edition": "", "kinds": ["human", "bot"], "text": bad})
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert ".lg:5:" in error  # located, as `landlord-dsl check` locates it
    assert not list(tmp_path.iterdir())  # nothing kept of a file that did not check
    good = (
        'edition "house" {\n  title "House rules"\n  extends "landlords-game-1906"\n'
        '  source "house-rule: ours" original\n}\nconst wages = 150 source "house-rule" original\n'
    )
    table = client.post(f"/tables?key={KEY}", json={"kinds": ["bot", "bot"], "seed": 3, "text": good}).json()
    assert table["edition"] == f"{table['id'].lower()}.lg" and (tmp_path / table["edition"]).read_text() == good
    assert main(["replay", str(tmp_path / f"{table['id']}.log")], io.StringIO()) == 0
    assert set(_server(tmp_path)[0].tables) >= {table["id"]}
    too_big = client.post(f"/tables?key={KEY}", json={"kinds": ["bot", "bot"], "text": "x" * (1 << 21)})
    assert too_big.status_code == 400


def test_serve_says_when_its_port_is_in_use_or_its_extra_is_missing(monkeypatch, capsys):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        status = main(["serve", "--port", str(taken.getsockname()[1])], io.StringIO())
    finally:
        taken.close()
    err = capsys.readouterr().err
    assert status == 2 and "is in use: choose another with --port" in err and "Traceback" not in err
    monkeypatch.setitem(__import__("sys").modules, "uvicorn", None)
    status = main(["serve"], io.StringIO())
    err = capsys.readouterr().err
    assert status == 2 and "pip install 'landlord-dsl[web]'" in err and "Traceback" not in err


def test_serve_prints_the_teachers_page_and_the_first_table_and_warns_beyond_loopback(monkeypatch, capsys):
    import uvicorn

    from landlord_dsl.cli.serve import host_warning

    served = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: served.append(sockets[0].getsockname()))
    out = io.StringIO()
    assert (
        main(["serve", EDITION, "--port", "0", "--seats", "human,bot", "--option", "single_tax=from_start"], out) == 0
    )
    printed = out.getvalue().splitlines()
    host, port = served[0]
    assert host == "127.0.0.1" and printed[0].startswith(f"teacher's page: http://127.0.0.1:{port}/?key=")
    assert printed[1] == f"students join at http://127.0.0.1:{port}/join"
    assert printed[2].startswith("table ") and printed[2].endswith(" (new)") and capsys.readouterr().err == ""
    assert host_warning("127.0.0.1") is None and "anyone on the network" in host_warning("0.0.0.0")
    assert main(["serve", EDITION, "--port", "0", "--seats", "human,alien"], io.StringIO()) == 2
    assert "a seat is one of human, bot" in capsys.readouterr().err


@pytest.mark.parametrize(
    "damage",
    ['{"id": "T1", "token": 5}', "not json", '["T1"]', '{"id": "T1", "token": "x", "teacher": "y"}'],
)
def test_a_damaged_tables_folder_is_a_usage_error_naming_the_file(tmp_path, damage):
    """A keys file that is not JSON, lacks a field, or names a log that is not there stops the server with
    the file's name, not an internal error."""
    from landlord_dsl.core.errors import UsageError

    (tmp_path / "T1.keys.json").write_text(damage, encoding="utf-8")
    with pytest.raises(UsageError, match=r"T1\.keys\.json"):
        Classroom(tmp_path, load)


@pytest.mark.parametrize("edition", [EDITION, "monopoly-1933-atlantic-city", "landlords-game-1904"])
def test_the_teachers_form_offers_the_options_the_rule_file_declares(edition):
    # /options lists a shipped file's declared options (issue 32 §2: fields, not typed NAME=VALUE): each with
    # its label, default, and a choice's values, read from the checked rules
    _, client = _server()
    declared = load(edition).model.options
    answer = client.get(f"/options?key={KEY}&edition={edition}")
    assert answer.status_code == 200
    fields = answer.json()
    assert [f["name"] for f in fields] == list(declared)
    for field in fields:
        option = declared[field["name"]]
        assert field["label"] == (option.label or option.name) and field["default"] == option.default
        assert field["choices"] == (list(option.choices) if option.choices else None)
    page = client.get(f"/?key={KEY}").text
    assert "function optionFields(" in page and 'id="options-form"' in page


def test_the_options_of_an_unknown_edition_or_without_the_key_are_refused():
    _, client = _server()
    assert client.get(f"/options?edition={EDITION}").status_code == 403
    assert client.get(f"/options?key=WRONG&edition={EDITION}").status_code == 403
    unknown = client.get(f"/options?key={KEY}&edition=../../etc/passwd")
    assert unknown.status_code == 404 and "no shipped edition" in unknown.json()["error"]


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_guessing_tokens_is_refused_with_429_until_its_failures_age_out():
    # issue 32 §2: joining needs the table's token; guessing it (or the teacher's key, a device's secret, a
    # table's code) is slowed to FAILURES tries a WINDOW per client address, the right token refused too
    clock = _Clock()
    _, client = _server(attempts=FailedAttempts(limit=4, window=60, clock=clock))
    table = _start(client, ["human", "human", "bot"])
    join = f"/t/{table['id']}/join"
    # a taken seat is a mistake, not a guess: not counted; nor is a request that is not JSON (a 400)
    _join(client, table, [0])
    for _ in range(3):
        assert client.post(join, json={"token": table["token"], "seats": [0]}).status_code == 403
    not_json = client.post(join, content=b"seat 1 please")
    assert not_json.status_code == 400 and "a join is" in not_json.json()["error"]
    for guess in ("AAAAAAAAAA", "BBBBBBBBBB", "CCCCCCCCCC"):
        assert client.post(join, json={"token": guess, "seats": [1]}).status_code == 403
    assert client.get(f"/t/{table['id']}/log?token=DDDDDDDDDD").status_code == 403  # the fourth failure
    refused = client.post(join, json={"token": table["token"], "seats": [1]})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert refused.json()["error"] == "too many wrong tokens or keys from this address: try again in 60 s"
    assert client.get(f"/t/{table['id']}/log?token={table['token']}").status_code == 429
    assert client.get(f"/?key={KEY}").status_code == 429 and client.get("/t/ZZZZZZ").status_code == 429
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/t/{table['id']}/ws?token=X"):
        pass
    assert closed.value.code == 4429
    clock.now += 30
    assert client.post(join, json={"token": table["token"], "seats": [1]}).headers["Retry-After"] == "30"
    clock.now += 30  # the oldest failure is a WINDOW old: one more try
    assert client.post(join, json={"token": table["token"], "seats": [1]}).status_code == 200


def test_wrong_teachers_keys_and_table_codes_count_as_failures_too():
    clock = _Clock()
    _, client = _server(attempts=FailedAttempts(limit=3, window=60, clock=clock))
    assert client.get("/?key=WRONG").status_code == 403
    assert client.get("/tables?key=WRONG").status_code == 403
    assert client.get("/t/ZZZZZZ").status_code == 404
    assert client.get(f"/tables?key={KEY}").status_code == 429
    clock.now += 61
    assert client.get(f"/tables?key={KEY}").status_code == 200
    # right keys and tokens are never counted
    limiter = FailedAttempts(limit=2, window=60, clock=clock)
    _, client = _server(attempts=limiter)
    table = _start(client, ["human", "bot"])
    for _ in range(5):
        assert client.get(f"/t/{table['id']}/log?token={table['token']}").status_code == 200
        assert client.get(f"/?key={KEY}").status_code == 200
    assert limiter.wait("testclient") == 0 and not limiter.failures


def test_a_server_run_in_a_thread_answers_on_loopback_and_lets_go_of_its_port():
    """cli.serve.serving_in_thread (what the browser tests and the screenshot script run): the join page is
    served at the origin it yields, and after the block nothing listens there."""
    import urllib.request

    from landlord_dsl.cli.serve import serving_in_thread

    with serving_in_thread(Classroom(None, load), "thread-key") as origin:
        assert origin.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(origin + "/join", timeout=30) as page:
            assert page.status == 200 and b"<form" in page.read()
    port = int(origin.rsplit(":", 1)[1])
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=5):
        pass
