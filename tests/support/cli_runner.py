"""The real `tablelog` command line, run inside the test process instead of as a subprocess.

`run_tablelog(args, cwd=..., env=..., input=...)` calls `tablelog.cli.app.main`, the entry point
a user's `tablelog` runs, with `args` as its argv, and returns a
`subprocess.CompletedProcess[str]` holding what `python -m tablelog ARGS` would have given:
the exit code, stdout and stderr as separate texts. Nothing of tablelog is mocked: the same
Typer app parses the words, the same commands open the same database. It exists for speed: a
subprocess spends about half a second importing Python, Typer and tablelog before the
command's own few milliseconds, and the transcripts run thousands of commands.

Why the result is the subprocess's:

- argv and program name: `sys.argv` is `[.../tablelog/__main__.py, *args]` and
  `sys.modules["__main__"]` is a stand-in for `tablelog/__main__.py` while the command runs,
  so click names the program `python -m tablelog` (usage lines) as it does in the subprocess.
- exit code: `main()` ends in `sys.exit` (typer's standalone mode); `SystemExit` becomes the
  return code as the interpreter would make it (None is 0, a text is printed and gives 1).
  An exception that escapes `main` (it turns every `Exception` into one `internal-error`
  sentence and exit 1, unless TABLELOG_DEBUG is set) is printed as the interpreter prints
  it, "Traceback (most recent call last):" on stderr, with exit 1.
- streams: stdout and stderr are text streams over bytes (utf-8, not a terminal, as a pipe
  is), so `sys.stdout.buffer` writes (JSON, exports) and text writes interleave as in the
  subprocess; both are decoded as `subprocess.run(encoding="utf-8", errors="replace")`
  decodes them (universal newlines). stdin is `input` (empty when not given: end of file),
  also not a terminal. Rich and click decide colours and widths from `isatty()` of these
  streams and from the environment (COLUMNS), exactly as in the subprocess, which inherits
  the same environment; rich's look at the terminal size of file descriptors 0-2 sees the
  same descriptors too.
- environment and directory: `os.environ` is the caller's without any TABLELOG_* variable,
  plus `env`; the working directory is `cwd` (so ./tablelog.db is the test's own).
- warnings: the test run's filters stay in force (pytest turns warnings into errors), which
  is stricter than the subprocess: a warning there would be an `internal-error` here.

What is put back after every call, whatever happened: os.environ, the working directory,
sys.argv, sys.modules["__main__"], sys.stdin/stdout/stderr, the warning filters, the root
logger's handlers and level, and the garbage collector's frozen generation (each command
`gc.freeze()`s what it imported; this process runs thousands of commands). No database stays
open between calls: every command opens its store for its own length and closes it
(`tablelog.commands.database.opened`), and the per-store caches (`commands/state.py`) are
keyed weakly by that store object, so a later command never sees an earlier one's store.
The runner checks it: a file under `cwd` (the database, its journal) that the command opened
and left open fails the call with an AssertionError, where the subprocess would have hidden
the leak by exiting. Two things it cannot check: a file the test itself holds open (SQLite
keeps a closed connection's descriptor until the process's last connection to that file
closes, so it would look leaked), and sockets (a test may run a receiver in a thread of this
process, whose connections come and go meanwhile).

Variables read once when a module is imported (Typer's TERMINAL_WIDTH and FORCE_COLOR,
Python's own PYTHON* and locale settings) cannot be given to one call: `env` naming one with
a value other than this process's is refused (ValueError); such a test runs the subprocess.

What stays a real subprocess (`tests/e2e/transcript.py` `run(..., subprocess=True)` or the
module's own helper), because the behaviour belongs to the process:

- `serve` and everything that starts a service: it freezes the collector for good, raises
  RLIMIT_NOFILE, and runs until killed;
- signals, kills and crashes (tests/reliability/test_crashes.py, interrupting a command);
- progress and text written to a real terminal (a pty: tests/e2e/test_cli_progress.py,
  tests/e2e/test_cli_terminal_text.py), locale and encoding of the process's own streams;
- rulesets found through PYTHONPATH (tests/e2e/test_cli_rulesets.py): entry points are read
  once per process from sys.path;
- one whole play of every ruleset on SQLite, through `python -m tablelog` from start to end:
  it proves that each command imports what it needs in a fresh process (in this process a
  module imported by an earlier command is already there) and that nothing differs between
  the runner and the real thing.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import io
import logging
import os
import subprocess
import sys
import traceback
import types
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path

import tablelog as _package
from tablelog.cli.app import main

_MAIN_FILE = str(Path(_package.__file__).with_name("__main__.py"))
# Read when a module is imported or the interpreter starts: the same in every call here.
_FIXED = ("TERMINAL_WIDTH", "_TYPER_FORCE_DISABLE_TERMINAL", "GITHUB_ACTIONS", "FORCE_COLOR")
_FIXED_PREFIXES = ("PYTHON", "LC_", "LANG", "PY_COLORS")
_FDS = Path("/proc/self/fd")


def _fixed(name: str) -> bool:
    return name in _FIXED or name.startswith(_FIXED_PREFIXES)


def _open_files(cwd: Path) -> dict[str, str]:
    """This process's descriptors that are files under `cwd` (Linux only)."""
    if not _FDS.is_dir():
        return {}
    found = {}
    for fd in os.listdir(_FDS):
        try:
            target = os.readlink(_FDS / fd)
        except OSError:
            continue  # closed meanwhile (the listing's own descriptor)
        if target.startswith(f"{cwd}{os.sep}"):
            found[fd] = target
    return found


def _main_module() -> types.ModuleType:
    """What `python -m tablelog` has as its `__main__`, for click to name the program."""
    module = types.ModuleType("__main__")
    module.__file__ = _MAIN_FILE
    module.__package__ = "tablelog"
    module.__spec__ = importlib.util.find_spec("tablelog.__main__")
    return module


def _decoded(data: bytes) -> str:
    """As `subprocess.run(..., encoding="utf-8", errors="replace")` decodes an output."""
    return data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


class _Output(io.TextIOWrapper):
    """A standard stream as a pipe makes it: text over bytes, not a terminal, no fd."""

    def __init__(self, errors: str) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", errors=errors, newline="\n")

    def value(self) -> str:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return _decoded(raw.getvalue())

    def isatty(self) -> bool:
        return False


def _exit_code(exc: SystemExit, stderr: _Output) -> int:
    """The interpreter's exit status for `SystemExit(code)`."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=stderr)
    return 1


@contextlib.contextmanager
def _process_state(cwd: Path, environ: dict[str, str], argv: list[str]) -> Iterator[None]:
    """Change what a process start would give the command; put all of it back afterwards."""
    saved_environ = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_argv = sys.argv
    saved_main = sys.modules.get("__main__")
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    frozen = gc.get_freeze_count()
    try:
        os.environ.clear()
        os.environ.update(environ)
        os.chdir(cwd)
        sys.argv = argv
        sys.modules["__main__"] = _main_module()
        with warnings.catch_warnings():
            yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
        sys.argv = saved_argv
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_environ)
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        if not frozen:
            gc.unfreeze()


def run_tablelog(
    args: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str] | None = None,
    input: str | bytes | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python -m tablelog ARGS` in `cwd`, in this process; see the module's docstring."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TABLELOG_")}
    for name, value in (env or {}).items():
        if _fixed(name) and os.environ.get(name) != value:
            raise ValueError(f"{name} is read at start-up: run this command as a subprocess")
        environ[name] = value
    cwd = Path(cwd).resolve()
    before = _open_files(cwd)
    data = input.encode() if isinstance(input, str) else (input or b"")
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    stdout, stderr = _Output("strict"), _Output("backslashreplace")
    argv = [_MAIN_FILE, *args]
    code = 0
    with _process_state(cwd, environ, argv):
        sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
        try:
            main()
        except SystemExit as exc:
            code = _exit_code(exc, stderr)
        except Exception:
            # What the interpreter does with an exception nothing caught.
            stderr.write(traceback.format_exc())
            code = 1
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
    result = subprocess.CompletedProcess(
        [sys.executable, "-m", "tablelog", *args], code, stdout.value(), stderr.value()
    )
    for stream in (stdin, stdout, stderr):
        stream.close()
    held = set(before.values())
    left = {fd: path for fd, path in _open_files(cwd).items() if path not in held}
    assert not left, f"`tablelog {' '.join(args)}` left open: {sorted(left.values())}"
    return result
