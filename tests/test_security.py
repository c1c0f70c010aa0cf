"""Security and "nothing lost" (issue 13): hostile caches, paths, terminal text, output that fails.

A test that names an issue item failed on the code before that item's fix; the
others pin what the fixes must keep working.
"""

from __future__ import annotations

import io
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from landlord_dsl.cli.main import main
from landlord_dsl.language import parser_cache

ROOT = Path(__file__).resolve().parents[1]
TINY_GRAMMAR = 'start: "a"+\n'


def cli(*argv: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """Run `python -m landlord_dsl ARGV` in a fresh process; return the finished process."""
    return subprocess.run(
        [sys.executable, "-m", "landlord_dsl", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        **kwargs,
    )


class _Planted:
    """A pickle that, when loaded, leaves a marker file: proof that a planted cache was executed."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


# ------------------------------------------------- item 1: the parser cache
def test_no_parser_cache_in_the_shared_temp_directory(tmp_path):
    """Item 1: nothing is read from or written to $TMPDIR, so a pickle planted there never runs."""
    shared, marker = tmp_path / "tmp", tmp_path / "ran"
    shared.mkdir()
    env = {"TMPDIR": str(shared), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert cli("check", "landlords-game-1906", env=env).returncode == 0
    # plant a pickle wherever a cache turned up in the shared folder, keeping Lark's header line
    for f in shared.iterdir():
        header = f.read_bytes().split(b"\n", 1)[0]
        f.write_bytes(header + b"\n" + pickle.dumps(_Planted(marker)))
    assert cli("check", "landlords-game-1906", env=env).returncode == 0
    assert not marker.exists()
    assert list(shared.iterdir()) == []


def _cached(monkeypatch, tmp_path) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parser_cache.build(TINY_GRAMMAR, parser="lalr")
    files = list((tmp_path / "landlord-dsl").iterdir())
    assert len(files) == 1
    return files[0]


def _loaded_from_cache(parser) -> bool:
    return not hasattr(parser, "grammar")  # Lark.load does not keep the grammar object


def test_private_cache_is_created_0700_and_reused(monkeypatch, tmp_path):
    path = _cached(monkeypatch, tmp_path)
    assert (path.parent.stat().st_mode & 0o777) == 0o700 and (path.stat().st_mode & 0o777) == 0o600
    again = parser_cache.build(TINY_GRAMMAR, parser="lalr")
    assert _loaded_from_cache(again) and again.parse("aa")


@pytest.mark.parametrize(
    "tamper", ["group_writable_dir", "world_writable_file", "symlinked_file", "foreign_owner", "symlinked_dir"]
)
def test_doubtful_cache_file_is_never_loaded(monkeypatch, tmp_path, tamper):
    """Item 1: a cache another user could have written is ignored and the parser built afresh."""
    path = _cached(monkeypatch, tmp_path)
    marker = tmp_path / "ran"
    planted = pickle.dumps(_Planted(marker))
    if tamper == "group_writable_dir":
        path.write_bytes(planted)
        path.parent.chmod(0o770)
    elif tamper == "world_writable_file":
        path.write_bytes(planted)
        path.chmod(0o602)
    elif tamper == "symlinked_file":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.write_bytes(planted)
        path.unlink()
        path.symlink_to(elsewhere)
    elif tamper == "foreign_owner":
        path.write_bytes(planted)
        monkeypatch.setattr(os, "getuid", lambda: os.stat(path).st_uid + 1)
    elif tamper == "symlinked_dir":
        other = tmp_path / "other"
        other.mkdir(mode=0o700)
        (other / path.name).write_bytes(planted)
        path.unlink()
        path.parent.rmdir()
        path.parent.symlink_to(other)
    parser = parser_cache.build(TINY_GRAMMAR, parser="lalr")
    assert not marker.exists()
    assert not _loaded_from_cache(parser) and parser.parse("a")


def test_damaged_cache_is_rebuilt(monkeypatch, tmp_path):
    path = _cached(monkeypatch, tmp_path)
    path.write_bytes(b"not a pickle")
    assert parser_cache.build(TINY_GRAMMAR, parser="lalr").parse("a")
    assert _loaded_from_cache(parser_cache.build(TINY_GRAMMAR, parser="lalr"))  # rewritten good


# --------------------------------------------------------------- the CLI in-process
def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


SECRET = "root:x:0:0:secret-line"


def _variant(folder: Path, extends: str, name: str = "v.lg") -> Path:
    path = folder / name
    path.write_text(f'edition "v" {{\n    extends "{extends}"\n}}\n')
    return path


# ------------------------------------------ item 2: extends stays in its folder
@pytest.mark.parametrize("layout", ["file_symlink", "dir_symlink", "symlink_chain"])
def test_extends_through_a_symlink_to_outside_is_refused_unquoted(tmp_path, capsys, layout):
    """Item 2: `extends "x.lg"` whose real file lies outside the variant's folder is refused, never quoted."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "base.lg").write_text(SECRET + "\n")
    folder = tmp_path / "variant"
    folder.mkdir()
    if layout == "file_symlink":
        (folder / "base.lg").symlink_to(outside / "base.lg")
        target = "base.lg"
    elif layout == "dir_symlink":
        (folder / "sub").symlink_to(outside)
        target = "sub/base.lg"
    else:  # a symlink to a symlink that leaves the folder
        (folder / "hop.lg").symlink_to(outside / "base.lg")
        (folder / "base.lg").symlink_to(folder / "hop.lg")
        target = "base.lg"
    variant = _variant(folder, target)
    code, _ = run("check", str(variant))
    err = capsys.readouterr().err
    assert code == 1
    # (at the extends line, where the mistake is: `extends` is line 2, column 5)
    assert f"{variant}:2:5: error: '{target}' leads outside the variant's folder" in err
    assert "secret" not in err
    # the same file named in a `+` combination, and by a command that loads it to play: a rule file with a
    # problem is status 1 whichever command reads it (errors.RuleCheckError)
    assert run("check", f"{variant}+{variant}")[0] == 1
    assert run("show", str(variant))[0] == 1
    assert "secret" not in capsys.readouterr().err


def test_extends_through_a_symlink_inside_the_folder_still_works(tmp_path, capsys):
    folder = tmp_path / "variant"
    (folder / "real").mkdir(parents=True)
    (folder / "real" / "base.lg").write_text('edition "base" {\n    extends "landlords-game-1906"\n}\n')
    (folder / "base.lg").symlink_to(folder / "real" / "base.lg")
    assert run("check", str(_variant(folder, "base.lg")))[0] == 0, capsys.readouterr().err


# ------------------------------------------- item 3: control characters shown
EVIL = (
    'edition "evil" {\n    title "Evil\x1b]0;pwned\x07 game"\n    extends "landlords-game-1906"\n}\n'
    "board {\n"
    '    space wayback "Way\x1b[2Jback" : lot { price = 25, rent = 0, section = section_1 }\n'
    '    space lonely_lane "Lonely\u202e Lane" : lot { price = 25, rent = 2, section = section_1 }\n'
    "}\n"
)
RAW = ("\x1b", "\x07", "\u202e")


@pytest.fixture
def evil(tmp_path) -> Path:
    path = tmp_path / "evil.lg"
    path.write_text(EVIL)
    return path


def _shown_safely(text: str) -> None:
    assert not any(ch in text for ch in RAW), text
    assert "Evil\\x1b]0;pwned\\x07 game" in text or "Way\\x1b[2Jback" in text


@pytest.mark.parametrize(
    "argv",
    [
        ("play", "{}", "--turn-limit", "12"),
        ("show", "{}"),
        ("simulate", "{}", "--games", "2", "--no-progress"),
        ("diff", "landlords-game-1906", "{}"),
        ("diff", "landlords-game-1906", "{}", "--format", "markdown"),
    ],
)
def test_control_characters_from_a_rule_file_are_shown_as_escapes(evil, capsys, argv):
    """Item 3: titles, labels and prompts reach the terminal with their control characters escaped."""
    code, out = run(*(a.format(evil) for a in argv))
    assert code in (0, 1), capsys.readouterr().err
    _shown_safely(out)


def test_human_prompts_show_control_characters_as_escapes(evil, monkeypatch, capsys):
    """Item 3: the questions a human seat is asked quote labels with their control characters escaped."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300))
    run("play", str(evil), "--seats", "human,bot", "--turn-limit", "6", "--seed", "1")
    prompts = capsys.readouterr().out
    assert "Buy Way\\x1b[2Jback" in prompts
    _shown_safely(prompts)


def test_check_quotes_a_line_with_control_characters_escaped_and_the_caret_under_the_mistake(tmp_path, capsys):
    """Item 3: the quoted source line shows \\x1b, and the caret still points at the mistake after it."""
    path = tmp_path / "bad.lg"
    path.write_text('edition "x" { }\nkind k "\x1b[2J\x1b]0;t\x07" { } bogus\n')
    assert run("check", str(path))[0] == 1
    err = capsys.readouterr().err
    assert not any(ch in err for ch in RAW)
    lines = err.splitlines()
    quoted = next(i for i, line in enumerate(lines) if line.startswith(" 2 | "))
    assert lines[quoted] == ' 2 | kind k "\\x1b[2J\\x1b]0;t\\x07" { } bogus'
    assert lines[quoted + 1].index("^") == lines[quoted].index("bogus")


# ------------------------------------------------ item 4: fmt loses nothing
UNFORMATTED = (
    'edition "x" {players 2 to 3}\nkind k {}\nboard { '
    + " ".join(f'space s{i} "Space number {i}":k' for i in range(200))
    + " }\n"
)


def test_fmt_that_cannot_write_leaves_the_file_whole(tmp_path):
    """Item 4: a write cut short (here by a file-size limit) leaves the original exactly as it was."""
    path = tmp_path / "x.lg"
    path.write_text(UNFORMATTED)
    limit = len(UNFORMATTED) // 2  # the formatted file is longer than this
    script = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
        "from landlord_dsl.cli.main import main\n"
        "sys.exit(main(['fmt', sys.argv[1]]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1, proc.stderr
    assert f"cannot write {path}: File too large; the file was left as it was" in proc.stderr
    assert path.read_text() == UNFORMATTED
    assert [p.name for p in tmp_path.iterdir()] == ["x.lg"]  # no temporary file left behind


def test_fmt_keeps_the_file_mode(tmp_path):
    path = tmp_path / "x.lg"
    path.write_text(UNFORMATTED)
    path.chmod(0o640)
    assert run("fmt", str(path))[0] == 0
    assert path.stat().st_mode & 0o777 == 0o640 and path.read_text() != UNFORMATTED


# ------------------------------------- item 5: output paths checked up front
FAILS_ON_TURN_ONE = (
    'edition "x" { players 2 to 4 turn limit 6 }\naccount bank "Bank" unlimited\n'
    'kind start "Start" { }\nboard {\n    space go "Go" : start\n}\n'
    'rule order "Order" {\n    on turn {\n        if turn_number == 1 {\n'
    "            let p = players[1]\n            eliminate p\n            give turn to p\n"
    "        }\n    }\n}\n"
)


def test_play_log_to_an_unwritable_path_fails_before_the_game(tmp_path, capsys):
    """Item 5: a --log that cannot be opened is a usage error before any turn is played."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, out = run("play", "landlords-game-1906", "--log", str(blocker / "game.jsonl"))
    assert code == 2 and out == ""
    assert f"cannot write the log {blocker / 'game.jsonl'}: Not a directory" in capsys.readouterr().err


def test_play_log_that_fails_late_keeps_the_scores_and_the_rule_error(tmp_path, capsys):
    """Item 5: a log write failing after the game neither hides the final scores nor a rule's failure."""
    code, out = run("play", "landlords-game-1906", "--log", "/dev/full", "--turn-limit", "10")
    assert code == 1 and "Final scores:" in out
    assert "cannot write the log /dev/full: No space left on device" in capsys.readouterr().err
    broken = tmp_path / "broken.lg"
    broken.write_text(FAILS_ON_TURN_ONE)
    assert run("play", str(broken), "--log", "/dev/full")[0] == 1
    err = capsys.readouterr().err
    assert "has left the game and cannot have the next turn" in err and "cannot write the log /dev/full" in err


def test_play_log_of_a_failed_game_is_kept(tmp_path):
    broken, log = tmp_path / "broken.lg", tmp_path / "game.jsonl"
    broken.write_text(FAILS_ON_TURN_ONE)
    assert run("play", str(broken), "--log", str(log))[0] == 1
    assert '["out",' in log.read_text()


def test_play_log_is_not_left_behind_when_the_edition_fails_to_load(tmp_path):
    log = tmp_path / "game.jsonl"
    assert run("play", "no-such-edition", "--log", str(log))[0] == 2
    assert not log.exists()


# ------------------------------- item 6 and 13: closed pipes and full disks
BAD = 'edition "bad" { players 2 to 4 }\nkind plain { }\nboard { space a "A" : plane }\n'


def _closed_pipe() -> int:
    """Return the write end of a pipe whose reader is already gone."""
    read, write = os.pipe()
    os.close(read)
    return write


@pytest.mark.parametrize("stream", ["stdout", "stderr", "both"])
def test_a_closed_pipe_never_turns_a_failed_check_into_success(tmp_path, stream):
    """Item 6: `check bad.lg | head` (with pipefail) fails, whichever stream the pipe is on."""
    bad = tmp_path / "bad.lg"
    bad.write_text(BAD)
    pipe = _closed_pipe()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "landlord_dsl", "check", "landlords-game-1906", str(bad)],
            cwd=ROOT,
            stdout=pipe if stream != "stderr" else subprocess.DEVNULL,
            stderr=pipe if stream != "stdout" else subprocess.PIPE,
        )
    finally:
        os.close(pipe)
    assert proc.returncode == 1
    if stream == "stdout":
        assert b"unknown kind 'plane'" in proc.stderr and b"Traceback" not in proc.stderr


def test_a_closed_pipe_keeps_a_success(tmp_path):
    pipe = _closed_pipe()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "landlord_dsl", "show", "landlords-game-1906"],
            cwd=ROOT,
            stdout=pipe,
            stderr=subprocess.PIPE,
        )
    finally:
        os.close(pipe)
    assert proc.returncode == 0 and proc.stderr == b""


@pytest.mark.parametrize(
    "argv",
    [
        ("check", "landlords-game-1906"),
        ("show", "landlords-game-1906"),
        ("simulate", "landlords-game-1906", "--games", "2", "--json"),
    ],
)
def test_output_to_a_full_disk_is_a_clear_error(argv):
    """Item 13: output to /dev/full is reported (exit 1), not an internal error."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "landlord_dsl", *argv], cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert proc.returncode == 1
    assert proc.stderr == "landlord-dsl: cannot write the output: No space left on device\n"


# ------------------------------------------------- item 12: CLI nonsense
@pytest.mark.parametrize(
    "argv, message",
    [
        (("play", "landlords-game-1906", "--players", "0"), "--players: must be at least 1, not 0"),
        (("simulate", "landlords-game-1906", "--players", "0"), "--players: must be at least 1, not 0"),
        (("play", "landlords-game-1906", "--turn-limit", "0"), "--turn-limit: must be at least 1, not 0"),
        (("play", "landlords-game-1906", "--turn-limit", "-5"), "--turn-limit: must be at least 1, not -5"),
        (("diff", "landlords-game-1906", "landlords-game-1904", "--outcomes", "-1"), "--outcomes: must be at least 0"),
        (("simulate", "landlords-game-1906", "--games", "0"), "--games: must be at least 1, not 0"),
    ],
)
def test_nonsense_numbers_are_usage_errors(capsys, argv, message):
    """Item 12: numbers that make no sense are refused, not ignored or taken literally."""
    with pytest.raises(SystemExit) as info:
        run(*argv)
    assert info.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ("simulate", "landlords-game-1906", "--option", "faster_game=true", "--option", "faster_game=false"),
            "--option faster_game is given twice",
        ),
        (("play", "landlords-game-1906", "--seats", ","), "--seats names no seat"),
    ],
)
def test_ambiguous_seats_and_options_are_usage_errors(capsys, argv, message):
    """Item 12: a repeated --option is refused rather than silently taking the last."""
    assert run(*argv)[0] == 2
    assert message in capsys.readouterr().err


# ------------------------------------ item 13: ordinary mistakes, not bugs
@pytest.mark.parametrize("command, code", [("check", 1), ("simulate", 2), ("show", 2)])
@pytest.mark.parametrize(
    "name", ["+", "landlords-game-1906+", "+landlords-game-1906", "landlords-game-1906++monopoly-1933-500-start"]
)
def test_an_empty_part_of_a_combination_is_a_clear_error(capsys, command, code, name):
    """Item 13: `check +` raised IndexError; a trailing `+` was silently dropped."""
    assert run(command, name)[0] == code
    assert f"'{name}' has an empty name beside a '+'" in capsys.readouterr().err


NOT_UTF8 = [
    ("bom", b'\xef\xbb\xbfedition "x" { }\n', "1:1: error: the file starts with a UTF-8 byte-order mark (BOM)"),
    ("utf16", 'edition "x" { }\n'.encode("utf-16"), "1:1: error: the file is UTF-16 text"),
    ("utf16-no-bom", 'edition "x" { }\n'.encode("utf-16-le"), "1:1: error: the file is UTF-16 text"),
    ("utf32", 'edition "x" { }\n'.encode("utf-32"), "1:1: error: the file is UTF-32 text"),
    ("binary", b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\xff\xfe", "1:8: error: the file is binary data"),
    (
        "latin1",
        'edition "x" {\n  title "Café"\n}\n'.encode("latin-1"),
        "2:13: error: the file is not UTF-8 text: byte 0xe9",
    ),
]


@pytest.mark.parametrize("command", [("check",), ("fmt",), ("fmt", "--check")])
@pytest.mark.parametrize("kind, data, message", NOT_UTF8, ids=[k for k, _, _ in NOT_UTF8])
def test_input_that_is_not_utf8_text_is_named(tmp_path, capsys, command, kind, data, message):
    """Item 13: fmt on binary or UTF-16 input raised UnicodeDecodeError; BOM, UTF-16 and binary are named."""
    path = tmp_path / "x.lg"
    path.write_bytes(data)
    assert run(*command, str(path))[0] == 1
    err = capsys.readouterr().err
    assert f"{path}:{message}" in err
    assert path.read_bytes() == data
    if kind in ("bom", "latin1"):  # the line is shown with a caret, as every located error is
        assert "^" in err and ("1 | edition" in err or '2 |   title "Caf' in err)


def test_stdin_that_is_not_utf8_is_named(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO('edition "x" { }'.encode("utf-16"))))
    assert run("check", "-")[0] == 1
    assert "<stdin>:1:1: error: the file is UTF-16 text" in capsys.readouterr().err


@pytest.mark.parametrize("shell", ["fmt --check /dev/zero", "check - < /dev/zero", "fmt - < /dev/zero"])
def test_endless_input_is_refused_at_the_size_limit(shell):
    """Item 13: /dev/zero used to be read until memory ran out; now reading stops at 1 MiB."""
    proc = subprocess.run(
        f"ulimit -v 2000000; {sys.executable} -m landlord_dsl {shell}",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert "is larger than 1 MiB, the most landlord-dsl reads as a rule file" in proc.stderr


def test_a_directory_named_like_a_rule_file_is_named(tmp_path, capsys):
    (tmp_path / "x.lg").mkdir()
    assert run("fmt", str(tmp_path / "x.lg"))[0] == 1
    assert f"{tmp_path / 'x.lg'} is a directory, not a .lg file" in capsys.readouterr().err
