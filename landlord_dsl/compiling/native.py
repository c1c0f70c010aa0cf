"""The native build (issue 31, docs/engine.md "Native build"): a program's generated code compiled to a C
extension with Cython, cached per user, with pure Python as the fallback.

The generated module (its source parsed, or the syntax tree `read_game_lists_once` gives) is written out
again as Cython source in which every generated function keeps its line (`pyx_source`), so that `Program.line_table`
locates a run-time error in the native code as in the pure-Python code, and the engine knows the
frames as the rules' by their file name (`<compiled ...>.pyx`). The functions are nested in one
factory, `_make(ns)`, which binds the names the code reads from the namespace (the runtime's helpers,
the folded tables) as its locals: each Program gets its own functions over its own namespace (the
extension is loaded once per process however many Programs share it), and the generated code reads
those names as closure variables, not as module globals.

The extension is built in a child process (Cython, then the C compiler through setuptools) into the
per-user cache folder (`$XDG_CACHE_HOME/landlord-dsl/native`, the parser cache's folder), under a
name made of a hash of the Cython source, the Cython, Python and package versions; it is written
under a temporary name and renamed into place, so processes building the same program at once
cannot read a half-written file, and a file is loaded only if the folder and the file are this
user's and no one else may write them. A program already built is loaded without building again.

Whether to build is the caller's choice (`compile_ruleset(native=...)`, `--native`, the
LANDLORD_NATIVE environment variable): pure Python is the default. When the build cannot be made
(no Cython, no C compiler, a compiler error), `native=True` warns once in one line
(NativeBuildWarning) and the program runs in pure Python: the games are the same either way;
`native="require"` raises a LandlordError instead.
"""

from __future__ import annotations

import ast as pyast
import contextlib
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import linecache
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from ..core.errors import LandlordError, UsageError
from ..core.version import __version__
from ..language.parser_cache import cache_dir, is_private

NATIVE_ENV = "LANDLORD_NATIVE"  # the default of `native` when a caller gives none: 1, require, or 0
NativeMode = Literal["off", "on", "require"]
_MAKE = "_make"  # the factory the Cython source defines
_NS = "_ns"  # its parameter: the program's namespace
# Cython's compiler directives for the generated code: Python's semantics throughout (Python integers,
# Python division, negative indices), so the native games are the pure-Python games
DIRECTIVES: dict[str, Any] = {
    "language_level": 3,
    # plain C functions rather than Cython's function objects: cheaper calls (0.2 to 3 % of a 1933 game's
    # instructions in two counts); they keep their __name__, by which the stepped twin finds them
    "binding": False,
    "emit_code_comments": False,
}
_BUILD_TIMEOUT = 900  # seconds: a big rule file's C takes a while; a hung compiler must not hang a run


class NativeBuildWarning(UserWarning):
    """The native build of a program could not be made or loaded: the program runs in pure Python."""


class NativeUnavailable(Exception):
    """Why a native build cannot be had here (one line)."""


def native_mode(native: bool | str | None) -> NativeMode:
    """Return what `native` asks: "off" (pure Python), "on" (native, else pure Python with a warning) or
    "require" (native, else an error); None takes the LANDLORD_NATIVE environment variable (unset: "off").
    Raise UsageError for a value that is none of these."""
    if native is None:
        native = os.environ.get(NATIVE_ENV, "").strip().lower()
        where = f"the {NATIVE_ENV} environment variable"
    else:
        where = "native"
    if native is True or native in ("1", "on", "yes", "true"):
        return "on"
    if native is False or native in ("", "0", "off", "no", "false"):
        return "off"
    if native == "require":
        return "require"
    raise UsageError(f"{where} is {native!r}: it wants 1 (native if it can be built), require, or 0")


def native_unavailable() -> str | None:
    """Return why no native build can be tried here (Cython or setuptools not installed, no C compiler
    on the PATH: the one CC names, else the one Python was built with), or None if one can be tried."""
    for module, package in (("Cython", "Cython"), ("setuptools", "setuptools")):
        if importlib.util.find_spec(module) is None:
            return f"{package} is not installed (pip install 'landlord-dsl[native]')"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler ({compiler[0] if compiler else 'CC is empty'} is not on the PATH)"
    return None


# ------------------------------------------------------------------ the Cython source


# compound statements the generator does not write (and a def with decorators or annotations)
_NOT_GENERATED = (
    pyast.FunctionDef,
    pyast.AsyncFunctionDef,
    pyast.ClassDef,
    pyast.AsyncFor,
    pyast.AsyncWith,
    pyast.Match,
    pyast.TryStar,
)


class _Layout:
    """Cython source written line by line, each statement on the line it had in the generated source
    where it can be (a line is free or ends with a statement it may follow after `;`)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.joinable: list[int | None] = []  # by line: the depth of the simple statement it ends with
        self.origin: dict[int, int] = {}  # by line of the Cython source: the generated source's line
        self.moved = 0  # statements not on their own line

    def put(self, line: int, depth: int, text: str, simple: bool, origin: int | None = None) -> None:
        """Write `text` at `depth` on `line` if it can go there, else on the next free line."""
        last = len(self.lines)
        if line == last and simple and self.joinable[-1] == depth:
            self.lines[-1] += f"; {text}"
        else:
            if line <= last:
                self.moved += 1
                line = last + 1
            while len(self.lines) < line:
                self.lines.append("")
                self.joinable.append(None)
            self.lines[line - 1] = "    " * depth + text
        self.joinable[line - 1] = depth if simple else None
        self.origin.setdefault(line, origin if origin is not None else line)

    def statements(self, body: Iterable[pyast.stmt], depth: int, shift: int = 0) -> None:
        """Write statements at `depth`; `shift`: how many lines below their line they go."""
        for node in body:
            self.statement(node, depth, shift)

    def statement(self, node: pyast.stmt, depth: int, shift: int) -> None:
        at, origin = node.lineno + shift, node.lineno
        if isinstance(node, pyast.FunctionDef) and not node.decorator_list and node.returns is None:
            # the statements a pass put first (pyast_pass binds the game's lists where the generator did not)
            # are on the def's line: they go there, and the def on the line before, the blank line between two
            # functions
            first = [s for s in node.body if s.lineno <= node.lineno]
            self.put(at - 1 if first else at, depth, f"def {node.name}({pyast.unparse(node.args)}):", False, 0)
            for statement in first:
                self.put(at, depth + 1, pyast.unparse(statement), True, origin)
            self.statements(node.body[len(first) :], depth + 1, shift)
        elif isinstance(node, pyast.If):
            self._if(node, depth, shift, "if")
        elif isinstance(node, (pyast.For, pyast.While)):
            head = (
                f"for {pyast.unparse(node.target)} in {pyast.unparse(node.iter)}"
                if isinstance(node, pyast.For)
                else f"while {pyast.unparse(node.test)}"
            )
            self.put(at, depth, f"{head}:", False, origin)
            self.statements(node.body, depth + 1, shift)
            self._else(node.orelse, depth, shift)
        elif isinstance(node, pyast.Try):
            self.put(at, depth, "try:", False, origin)
            self.statements(node.body, depth + 1, shift)
            for handler in node.handlers:
                caught = f" {pyast.unparse(handler.type)}" if handler.type is not None else ""
                named = f" as {handler.name}" if handler.name else ""
                self.put(handler.lineno + shift, depth, f"except{caught}{named}:", False, handler.lineno)
                self.statements(handler.body, depth + 1, shift)
            self._else(node.orelse, depth, shift)
            self._else(node.finalbody, depth, shift, "finally")
        elif isinstance(node, pyast.With):
            items = ", ".join(pyast.unparse(item) for item in node.items)
            self.put(at, depth, f"with {items}:", False, origin)
            self.statements(node.body, depth + 1, shift)
        elif isinstance(node, _NOT_GENERATED):
            # what the generator does not write: unparsed whole, its lines after the first not kept
            head, *rest = pyast.unparse(node).splitlines()
            self.put(at, depth, head, False, origin)
            for text in rest:
                self.put(len(self.lines) + 1, depth, text, False, origin)
                self.moved += 1
        else:
            self.put(at, depth, pyast.unparse(node), True, origin)

    def _if(self, node: pyast.If, depth: int, shift: int, keyword: str) -> None:
        self.put(node.lineno + shift, depth, f"{keyword} {pyast.unparse(node.test)}:", False, node.lineno)
        self.statements(node.body, depth + 1, shift)
        if len(node.orelse) == 1 and isinstance(node.orelse[0], pyast.If):
            self._if(node.orelse[0], depth, shift, "elif")
        else:
            self._else(node.orelse, depth, shift)

    def _else(self, body: list[pyast.stmt], depth: int, shift: int, keyword: str = "else") -> None:
        if body:
            self.put(max(body[0].lineno + shift - 1, len(self.lines) + 1), depth, f"{keyword}:", False, 0)
            self.statements(body, depth + 1, shift)


def pyx_source(tree: pyast.Module, names: Iterable[str]) -> tuple[str, dict[int, int], int]:
    """Return the Cython source of a generated module, the generated source's line of each of its lines
    (where it differs from its own, or a statement is written), and how many statements are not on their
    own line (0 for what the generator writes).

    The module's functions are nested in `_make(_ns)`, which binds each of `names` the code reads to
    `_ns[name]` first and returns the functions by name. Its `def` takes the first line, so the first
    function is written after the others, its lines below the generated source's last. A function
    whose first statements are on its `def`'s line (the bindings `read_game_lists_once` adds where the
    generator has not written them) has
    them there and its `def` on the line before.
    """
    functions = list(tree.body)
    if not all(isinstance(f, pyast.FunctionDef) for f in functions) or not functions:
        raise NativeUnavailable("the generated module holds more than functions")
    read = sorted({n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name)} & set(names))
    out = _Layout()
    out.put(1, 0, f"def {_MAKE}({_NS}):", False, 0)
    first, others = functions[0], functions[1:]
    if read:
        out.put(2, 1, "; ".join(f"{name} = {_NS}[{name!r}]" for name in read), True, 0)
    out.statements(others, 1)
    end = max(len(out.lines), max((n.end_lineno or n.lineno) for n in functions)) + 1
    out.statements([first], 1, shift=end + 2 - first.lineno)
    made = ", ".join(f"{f.name!r}: {f.name}" for f in functions if isinstance(f, pyast.FunctionDef))
    out.put(len(out.lines) + 1, 1, f"return {{{made}}}", True, 0)
    return "\n".join(out.lines) + "\n", out.origin, out.moved


def native_line_table(
    table: tuple[tuple[int | None, Any], ...], origin: dict[int, int], lines: int
) -> tuple[tuple[int | None, Any], ...]:
    """Return the line table of the native program: the generated source's `table`, extended to the
    Cython source's `lines` with, for each line that is not its own, the entry of the line it came from."""
    nothing: tuple[int | None, Any] = (None, None)
    out = list(table) + [nothing] * max(0, lines - len(table))
    for line, was in origin.items():
        if line > len(table) or (was != line and was):  # (0: a line that runs nothing, a def or an else)
            out[line - 1] = table[was - 1] if 0 < was <= len(table) else nothing
    return tuple(out)


# ------------------------------------------------------------------ building and loading

_LOADED: dict[str, ModuleType] = {}  # by module name: the extensions this process has loaded
_WARNED: set[str] = set()  # the reasons already warned of, once each a process
_FAILED: dict[str, str] = {}  # by module name: why its build failed in this process (not tried again)


def native_functions(
    tree: pyast.Module, filename: str, ns: dict[str, Any]
) -> tuple[dict[str, Callable[..., Any]], str, dict[int, int]]:
    """Return the generated module's functions compiled natively over the namespace `ns` (built, or
    found in the cache), with the Cython source and its lines' origins (`pyx_source`); raise
    NativeUnavailable saying why when they cannot be had."""
    source, origin, _ = pyx_source(tree, ns)
    pyx_name = f"{filename}.pyx"
    module = _load(source, pyx_name)
    linecache.cache[pyx_name] = (len(source), None, source.splitlines(True), pyx_name)
    made = getattr(module, _MAKE)(ns)
    return made, source, origin


def warn_unavailable(reason: str, stacklevel: int = 2) -> None:
    """Warn once a process, in one line, that the native build is not to be had for `reason`."""
    if reason not in _WARNED:
        _WARNED.add(reason)
        warnings.warn(f"native build unavailable, playing in pure Python: {reason}", NativeBuildWarning, stacklevel)


def required_but_unavailable(reason: str) -> LandlordError:
    """Return the error of a native build required (`native="require"`) that cannot be had."""
    return LandlordError(f"the native build was required but cannot be made: {reason}")


class NativeRequired(Exception):
    """A required native build that cannot be had, on its way out of the compiler (compile_ruleset
    raises it as the LandlordError `required_but_unavailable` gives, not as a problem of the rules)."""


_PREFIX = "_landlord_native_"
# the builds the cache keeps (the most recently used; a 1933 build is about 6 MB), and how long one used last is
# kept whatever their number (a process may be about to load it)
KEPT_BUILDS = 24
_IN_USE_SECONDS = 3600


def native_dir() -> Path:
    """Return the per-user folder the native builds are kept in (it may not exist yet)."""
    return cache_dir() / "native"


# the environment variables through which the user changes the C compiler or its flags (setuptools reads them)
COMPILER_SETTINGS = ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS")


def _versions() -> str:
    """Return what besides its source a build depends on (the versions, the platform, the Cython directives,
    and the compiler settings of the environment, so that a build with other flags is not taken for this
    one); raise NativeUnavailable without Cython."""
    try:
        cython = importlib.metadata.version("cython")
    except importlib.metadata.PackageNotFoundError:
        raise NativeUnavailable("Cython is not installed (pip install 'landlord-dsl[native]')") from None
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    compiler = [(key, os.environ[key]) for key in COMPILER_SETTINGS if key in os.environ]
    return (
        f"{cython} {sys.version} {suffix} {sysconfig.get_platform()} {__version__} {sorted(DIRECTIVES.items())}"
        f" {compiler}"
    )


def module_name(source: str, pyx_name: str) -> str:
    """Return the extension's module name: a hash of its Cython source, its file name and `_versions`."""
    digest = hashlib.sha256(f"{_versions()}\0{pyx_name}\0{source}".encode()).hexdigest()[:32]
    return f"{_PREFIX}{digest}"


def _load(source: str, pyx_name: str) -> ModuleType:
    """Return the extension module of the Cython source, loaded from the cache or built into it."""
    name = module_name(source, pyx_name)
    if name in _LOADED:
        return _LOADED[name]
    if name in _FAILED:
        raise NativeUnavailable(_FAILED[name])
    try:
        module = _found_or_built(source, pyx_name, name)
    except NativeUnavailable as why:
        _FAILED[name] = str(why)
        raise
    _LOADED[name] = module
    return module


def _found_or_built(source: str, pyx_name: str, name: str) -> ModuleType:
    """Return the extension module `name` of the Cython source, from the cache, else built into it."""
    folder = native_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as err:
        raise NativeUnavailable(f"cannot make the cache folder {folder}: {err.strerror}") from None
    if not _private(folder, stat.S_IFDIR):
        raise NativeUnavailable(f"the cache folder {folder} is not this user's alone")
    path = folder / f"{name}{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    if path.exists():
        with contextlib.suppress(OSError):
            os.utime(path, follow_symlinks=False)  # used now: the last to be pruned
    else:
        with _locked(folder / f"{name}.lock"):  # another process building it: wait for it, then load its build
            if not path.exists():
                _build(source, pyx_name, name, folder, path)
        prune(folder)
    if not _private(path, stat.S_IFREG):
        raise NativeUnavailable(f"{path} is not this user's alone, or not a file")
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    try:
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except ImportError as err:
        raise NativeUnavailable(f"cannot load {path}: {err}") from None
    return module


def prune(folder: Path, keep: int = KEPT_BUILDS, now: float | None = None) -> list[str]:
    """Remove from the cache folder the builds used least recently beyond the `keep` most recent, with their
    lock and log files, sparing any used in the last hour (another process may be loading it); return the
    names of the builds removed. Each change to a rule file or its options makes a new build: without this,
    the folder would grow by megabytes at every one."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    builds = []
    for path in folder.glob(f"{_PREFIX}*{suffix}"):
        with contextlib.suppress(OSError):
            builds.append((path.lstat().st_mtime, path))
    builds.sort(reverse=True)
    spared = (time.time() if now is None else now) - _IN_USE_SECONDS
    removed = []
    for used, path in builds[keep:]:
        if used > spared:
            continue
        name = path.name[: -len(suffix)]
        for made in (path, folder / f"{name}.lock", folder / f"{name}.log"):
            with contextlib.suppress(OSError):  # (gone already, or a loaded library the system keeps)
                made.unlink()
        removed.append(name)
    return removed


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file `path` (made if missing) within the block, where the system has
    `flock`; elsewhere the atomic rename alone keeps builds running at once from harming each other."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as err:
        raise NativeUnavailable(f"cannot open the lock {path}: {err.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _private(path: Path, kind: int) -> bool:
    """Return True if `path` (not followed if a link) is of `kind`, this user's, and no one else may write it."""
    try:
        return is_private(path.lstat(), kind)
    except OSError:
        return False


# Run in a child process (its output captured, its global state its own): cythonize the .pyx, then build
# the extension with setuptools (the C compiler and flags Python was built with; CC overrides them).
_BUILD_SCRIPT = """
import sys
from Cython.Build import cythonize
from Cython.Compiler import Options
from setuptools import Distribution, Extension
Options.error_on_unknown_names = False  # a name the code reads but never binds fails when run, as in Python
pyx, name, out, directives = sys.argv[1], sys.argv[2], sys.argv[3], eval(sys.argv[4])
modules = cythonize([Extension(name, [pyx])], compiler_directives=directives, quiet=True, force=True)
dist = Distribution({"ext_modules": modules, "script_name": "native", "script_args": [
    "build_ext", "--build-lib", out, "--build-temp", out]})
dist.parse_command_line()
dist.run_commands()
"""


def _build(source: str, pyx_name: str, name: str, folder: Path, path: Path) -> None:
    """Build the extension into `path` (in a private temporary folder inside `folder`, then renamed into
    place); raise NativeUnavailable with the compiler's last line of output when it fails (the whole
    output is kept in the folder as NAME.log)."""
    work = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=folder))
    try:
        pyx = work / pyx_name.replace(os.sep, "_")
        pyx.write_text(source, encoding="utf-8")
        try:
            run = subprocess.run(
                [sys.executable, "-c", _BUILD_SCRIPT, pyx.name, name, str(work), repr(DIRECTIVES)],
                cwd=work,
                capture_output=True,
                text=True,
                timeout=_BUILD_TIMEOUT,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            raise NativeUnavailable(f"the build did not run: {err}") from None
        built = [p for p in work.iterdir() if p.name.startswith(f"{name}.") and p.suffix in (".so", ".pyd")]
        if run.returncode != 0 or not built:
            log = folder / f"{name}.log"
            log.write_text(run.stdout + run.stderr, encoding="utf-8", errors="replace")
            raise NativeUnavailable(f"{_last_line(run.stdout + run.stderr)} (the build's output: {log})")
        os.chmod(built[0], 0o700)
        os.replace(built[0], path)  # atomic: a process building the same module at once writes the same bytes
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _last_line(output: str) -> str:
    """Return the most telling line of a failed build's output: its last line that is not blank."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else "the build failed without a word"
