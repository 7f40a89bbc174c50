"""A stranger's pull request against entrykit: what a checkout, its configuration, its schema
and its cache folder can hold, and what entrykit must still do with them.

Every case runs the real command line in a subprocess (a hang guard bounds each run; no
test times anything) and checks what a reviewer would: nothing outside the project
changed (a sibling "victim" folder is compared before and after), findings equal a
`--no-cache` run, no traceback, one clear line for a tool problem.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from entrykit.lint import cache, engine

from .conftest import REPO
from .faults import changed, snapshot

pytestmark = pytest.mark.slow

HANG_GUARD = 300  # seconds: a run that takes this long is a hang, whatever the machine
ENTRYKIT = [sys.executable, "-m", "entrykit"]
BAD_ENTRY = 'id: pip/bad\nsignature: "ERROR: x"\nregex: "("\nunknown_key: 1\n'


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None, **kw: Any) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [*ENTRYKIT, *args], cwd=cwd, capture_output=True, text=True, errors="replace", timeout=HANG_GUARD,
        env={**os.environ, "GITHUB_ACTIONS": "", **(env or {})}, **kw,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _findings(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in proc.stdout.splitlines() if ": ET" in line]


class Site:
    """A project (`proj/`, corpus in `proj/entries/`), a victim folder beside it, and a cache
    folder of the user's, outside both."""

    def __init__(self, base: Path) -> None:
        self.project = base / "proj"
        self.root = self.project / "entries"
        self.victim = base / "victim"
        self.cache = base / "user-cache"
        for domain in ("pip", "git"):
            shutil.copytree(REPO / "entries" / domain, self.root / domain)
        (self.root / "pip" / "bad.yaml").write_text(BAD_ENTRY)
        (self.project / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\n')
        for number in range(4):
            folder = self.victim / f"sub{number}"
            folder.mkdir(parents=True)
            (folder / "keep.txt").write_text("precious\n")
            os.utime(folder, (1e9, 1e9))
        (self.victim / "bashrc").write_text("echo hello\n")
        self.before = snapshot(self.victim)

    @property
    def env(self) -> dict[str, str]:
        return {"ENTRYKIT_CACHE_DIR": str(self.cache)}

    def lint(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return _run(["lint", "--today", "2026-11-30", *args], self.project, {**self.env, **(env or {})})

    def untouched(self) -> None:
        assert changed(self.before, snapshot(self.victim)) == []

    def environments(self) -> list[str]:
        """The names of the environment folders the lints wrote for this corpus."""
        corpus = self.cache / cache.FORMAT / cache.corpus_key(self.root)
        return sorted(p.name for p in corpus.iterdir() if p.is_dir() and not p.is_symlink())

    def store(self) -> cache.Store:
        """The store the lints wrote, found in the cache folder rather than worked out here:
        this process's digest of entrykit's code (`engine.code_digest`) is of the files as
        they were when it first asked, a lint's of the files as they are when it starts, and
        code edited between the two (an editor, a checkout) names another folder."""
        names = self.environments()
        assert len(names) == 1, f"entrykit's code or schema changed while the test ran: {names}"
        return cache.open_store(self.cache, self.root, names[0], "")


@pytest.fixture
def site(tmp_path: Path) -> Site:
    return Site(tmp_path)


def _reference(site: Site) -> list[str]:
    proc = site.lint("--no-cache")
    assert proc.returncode == 1 and _findings(proc)
    return _findings(proc)


# --- the cache: never the repository's to supply or to aim ---------------------------------


def _old_cache_links(site: Site) -> None:
    """What a pull request could commit where entrykit once kept its cache (`git add -f`)."""
    old = site.root / ".entrykit_cache"
    (old / "v1").mkdir(parents=True)
    (old / "v1" / "env").symlink_to(site.victim / "sub0")
    for number in range(16):
        (old / "v1" / f"memo-0123456789abcdef01234567-{number:02d}").symlink_to(site.victim / "bashrc")
    (old / "CACHEDIR.TAG").symlink_to(site.victim / "created-by-tag")
    (old / ".gitignore").symlink_to(site.victim / "bashrc")
    (site.root / ".entrykit_cache-v1").symlink_to(site.victim)


def test_links_committed_where_the_cache_once_was_are_never_followed(site: Site) -> None:
    expected = _reference(site)
    _old_cache_links(site)
    planted = snapshot(site.project)
    for _ in range(2):  # cold, then warm
        proc = site.lint()
        assert proc.returncode == 1 and _findings(proc) == expected
    site.untouched()
    assert snapshot(site.project) == planted  # nothing written inside the project either


def _plant_links(site: Site) -> list[Path]:
    """Every file and folder of the cache replaced by a link into the victim folder."""
    store = site.store()
    planted = []
    for path in sorted(store.folder.parents[1].rglob("*"), key=lambda p: -len(p.parts)):
        if path.is_file() and not path.is_symlink():
            path.unlink()
            path.symlink_to(site.victim / "bashrc")
            planted.append(path)
    old_env = store.folder.parent / "0123456789abcdef01234567"
    old_env.symlink_to(site.victim / "sub1")  # an "old environment" for pruning to remove
    os.utime(old_env, (1e9, 1e9), follow_symlinks=False)
    (store.folder.parents[1] / "0123456789abcdef01234567").symlink_to(site.victim)  # an "old corpus"
    planted.append(old_env)
    return planted


def test_links_planted_in_the_cache_folder_are_never_followed(site: Site) -> None:
    expected = _reference(site)
    site.lint()
    assert _plant_links(site)
    for _ in range(2):
        proc = site.lint()
        assert proc.returncode == 1 and _findings(proc) == expected
    site.untouched()


def test_a_planted_key_link_makes_no_key(site: Site) -> None:
    site.cache.mkdir(mode=0o700)
    (site.victim / "key").write_bytes(b"k" * 32)
    os.chmod(site.victim / "key", 0o600)
    site.before = snapshot(site.victim)
    (site.cache / "key").symlink_to(site.victim / "key")
    proc = site.lint()
    assert proc.returncode == 1 and _findings(proc) == _reference(site)
    assert "cannot be used" in proc.stderr  # run without a cache, and say why
    site.untouched()


@pytest.mark.parametrize("how", ["another key", "the old format", "records of another corpus"])
def test_a_forged_cache_changes_no_finding(site: Site, tmp_path: Path, how: str) -> None:
    """Records that would hide every finding, written by someone without the user's key."""
    expected = _reference(site)
    site.lint()
    store = site.store()
    records = [p for p in store.folder.iterdir() if p.name.startswith(("res-", "files", "corpus", "cor-"))]
    assert records
    for path in records:
        name = f"env/{path.name}"
        payload = cache.decode(path.read_bytes(), store.key, name)
        if path.name.startswith("res-"):
            for record in payload.values():
                record["r"], record["sup"] = [], []
        elif path.name.startswith("cor-"):
            payload["findings"], payload["places"] = {}, {}
        if how == "another key":
            path.write_bytes(cache.encode(payload, os.urandom(32), name))
        elif how == "the old format":  # an unkeyed digest, as entrykit once wrote
            import hashlib
            import marshal

            body = marshal.dumps(payload)
            path.write_bytes(b"entrykit-cache-1\n" + hashlib.blake2b(body, digest_size=32).digest() + body)
        else:  # tagged with the right key, but for another file's name: moved, not written here
            other = "env/res-99" if path.name != "res-99" else "env/res-98"
            path.write_bytes(cache.encode(payload, store.key, other))
    proc = site.lint()
    assert proc.returncode == 1 and _findings(proc) == expected
    assert site.store().folder == store.folder  # the run read the forged records, not a folder of its own


def test_the_store_named_is_the_one_the_lint_wrote(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """Code edited after this process first digested it (a digest kept for the process): the
    lint's own process digests the files as they are, and `Site.store` still finds its folder."""
    monkeypatch.setattr(engine, "code_digest", lambda: "the code before an edit")
    site.lint()
    assert any(path.name.startswith("res-") for path in site.store().folder.iterdir())


def test_a_cache_folder_inside_the_project_is_refused(site: Site) -> None:
    inside = site.project / ".cache" / "entrykit"
    for env in ({"ENTRYKIT_CACHE_DIR": str(inside)}, {}):
        args = [] if env else ["--cache-dir", str(inside)]
        proc = site.lint(*args, env=env)
        assert proc.returncode == 2 and proc.stderr.count("entrykit: error:") == 1, proc.stderr
        assert "inside the project" in proc.stderr
    # the default folder inside the project (XDG_CACHE_HOME there): no cache, and a warning
    proc = _run(
        ["lint", "--today", "2026-11-30"], site.project,
        {"ENTRYKIT_CACHE_DIR": "", "XDG_CACHE_HOME": str(site.project / ".cache")},
    )
    assert proc.returncode == 1 and _findings(proc) == _reference(site)
    assert "warning: not using the cache folder" in proc.stderr
    assert not (site.project / ".cache").exists()


def test_a_key_others_may_read_is_no_key(site: Site) -> None:
    site.lint()
    os.chmod(site.cache / "key", 0o644)  # as a checkout of a committed file would be
    proc = site.lint()
    assert proc.returncode == 1 and _findings(proc) == _reference(site)
    assert "cannot be used" in proc.stderr


def test_a_file_name_that_is_not_utf8_is_no_crash(site: Site) -> None:
    name = os.fsdecode(b"\xff\xfe.yaml")
    (site.root / "pip" / name).write_text('id: pip/odd-name\nsignature: "x"\nregex: "x"\n')
    expected = _reference(site)
    for _ in range(2):
        proc = site.lint()
        assert proc.returncode == 1 and _findings(proc) == expected


# --- the schema: no network, no other file, no special file --------------------------------


@pytest.fixture
def silent_server() -> Iterator[tuple[int, list[socket.socket]]]:
    """A local server that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1], accepted
    server.close()
    for connection in accepted:
        connection.close()


def _schema_with_ref(site: Site, ref: str) -> None:
    schema = json.loads((REPO / "schema" / "entry.schema.json").read_text())
    schema["properties"]["x_remote"] = {"$ref": ref}
    (site.project / "s.json").write_text(json.dumps(schema))
    (site.project / "pyproject.toml").write_text('[tool.entrykit]\nroot = "entries"\nschema = "s.json"\n')


def test_a_schema_ref_never_reaches_the_network(site: Site, silent_server: tuple[int, list[socket.socket]]) -> None:
    port, accepted = silent_server
    _schema_with_ref(site, f"http://127.0.0.1:{port}/x.json")
    for args in ([], ["--no-cache"]):
        proc = site.lint(*args)
        assert proc.returncode == 2 and proc.stderr.count("entrykit: error:") == 1, proc.stderr
        assert f"http://127.0.0.1:{port}/x.json" in proc.stderr and "inside the schema" in proc.stderr
    assert accepted == []  # not even a connection


def test_a_schema_ref_never_reads_another_file(site: Site) -> None:
    secret = site.victim / "secret.json"
    secret.write_text('{"type": "string", "const": "TOPSECRET"}')
    _schema_with_ref(site, secret.as_uri())
    proc = site.lint("--no-cache")
    assert proc.returncode == 2 and "TOPSECRET" not in proc.stdout + proc.stderr
    assert "does not point inside the schema" in proc.stderr


def _special(site: Site, kind: str) -> str:
    if kind == "device":
        return "/dev/zero"
    target = site.project / "s.json"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    elif kind == "huge":
        with open(target, "wb") as stream:
            stream.truncate(64 << 20)  # sparse: no disk used
    return "s.json"


@pytest.mark.parametrize("kind", ["device", "fifo", "folder", "huge"])
def test_a_schema_that_is_no_regular_small_file_is_a_config_error(site: Site, kind: str) -> None:
    if kind in ("device", "fifo") and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    name = _special(site, kind)
    (site.project / "pyproject.toml").write_text(f'[tool.entrykit]\nroot = "entries"\nschema = "{name}"\n')
    proc = site.lint("--no-cache")
    assert proc.returncode == 2 and proc.stderr.count("entrykit: error:") == 1, proc.stderr
    assert "schema" in proc.stderr and "crashed" not in proc.stderr


# --- configuration: errors are errors --------------------------------------------------------

CONFIG_ERRORS = {
    "invalid TOML": ("[tool.entrykit\nselect = 1\n", "line 1, column"),
    "a syntax error elsewhere": ('[project]\nname = "x\n[tool.entrykit]\nselect = ["ET9"]\n', "line 2, column"),
    "tool is a string": ('tool = "entrykit"\n', "`tool` must be a table"),
    "entrykit is a number": ("[tool]\nentrykit = 1\n", "`tool.entrykit` must be a table"),
    "a huge timeout": ("[tool.entrykit.regex]\ntimeout_ms = 9223372036854775807\n", "timeout_ms` must be from 1"),
    "a huge file limit": ("[tool.entrykit]\nmax-file-bytes = 9223372036854775807\n", "max-file-bytes` must be"),
    "no nesting": ("[tool.entrykit]\nmax-nesting = 0\n", "max-nesting` must be"),
    "a threshold of nan": ("[tool.entrykit.dupes]\nthreshold = nan\n", "must be a finite number"),
    "a threshold above 1": ("[tool.entrykit.dupes]\nthreshold = 2\n", "must be from 0 to 1"),
    "an infinite rate": ("[tool.entrykit.rules.ET602]\nmin_resolvable_rate = inf\n", "must be a finite number"),
    "a rule option of a billion years": ("[tool.entrykit.rules.ET607]\nmax_age_days = 9223372036854775807\n", "must be from"),
    "an empty select": ("[tool.entrykit]\nselect = []\n", "turns every rule off"),
    "a NUL in root": ('[tool.entrykit]\nroot = "entries\\u0000x"\n', "`tool.entrykit.root` must be a path"),
    "a NUL in schema": ('[tool.entrykit]\nschema = "s\\u0000.json"\n', "`tool.entrykit.schema` must be a path"),
    "a missing schema": ('[tool.entrykit]\nschema = "nope.json"\n', "cannot read schema"),
    "a root with no entries": ('[tool.entrykit]\nroot = "empty"\n', "holds no entry files"),
}


@pytest.mark.parametrize("name", list(CONFIG_ERRORS))
def test_configuration_errors_are_one_clear_line(site: Site, name: str) -> None:
    text, expected = CONFIG_ERRORS[name]
    (site.project / "empty").mkdir()
    (site.project / "empty" / "notes.txt").write_text("no entries here\n")
    (site.project / "pyproject.toml").write_text(text)
    proc = site.lint()
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.count("entrykit: error:") == 1 and expected in proc.stderr, proc.stderr
    assert "crashed" not in proc.stderr and "internal error" not in proc.stderr


def test_a_config_file_that_is_a_pipe_is_refused(site: Site) -> None:
    os.mkfifo(site.project / "pipe.toml")
    proc = site.lint("--config", "pipe.toml")
    assert proc.returncode == 2 and "not a regular file" in proc.stderr


def test_a_locale_that_is_no_locale_is_refused(site: Site) -> None:
    proc = _run(["render", "pip/invalid-requirement", "--locale", "../../etc/passwd"], site.project, site.env)
    assert proc.returncode == 2 and "is not a locale" in proc.stderr and proc.stdout == ""


def test_a_file_named_that_is_no_entry_gets_one_diagnostic(site: Site) -> None:
    workflow = site.project / "ci.yml"
    workflow.write_text("name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n")
    proc = site.lint("ci.yml")
    assert proc.returncode == 1 and _findings(proc) == [
        "ci.yml:1:1: ET001 [error] not an entry: it has neither an `id` nor a `signature` (its keys: `jobs`, `name`, `on`)"
    ]


# --- writes stay inside the corpus ---------------------------------------------------------

OUTSIDE_ENTRY = 'id: ext/x\nsignature: "ERROR: boom"\nsignature_zh: 错误：boom\nregex: "ERROR: boom"\nversions:\n  - version: torch 2.x\n    status: active\n'

WRITES_THROUGH_LINKS = {
    "fmt": ["fmt", "entries/ext"],
    "lint --fix": ["lint", "--fix", "entries/ext/x.yaml"],
    "translations --mark-current": ["translations", "--mark-current", "entries/ext/x.yaml"],
    "schema --output": ["schema", "--output", "out/entry.schema.json"],
    "render --output": ["render", "pip/invalid-requirement", "--output", "out/page.md"],
    "new": ["new", "--no-input", "--id", "ext/new-one", "--signature", "ERROR: new", "--root-cause", "x"],
}


@pytest.mark.parametrize("name", list(WRITES_THROUGH_LINKS))
def test_no_write_follows_a_linked_folder_out_of_the_project(site: Site, name: str) -> None:
    (site.victim / "x.yaml").write_text(OUTSIDE_ENTRY)  # --fix and --mark-current would change it
    (site.victim / "y.yaml").write_text(OUTSIDE_ENTRY.replace("signature:", "signature:   "))  # fmt would
    (site.victim / "entry.schema.json").write_text("{}\n")
    (site.victim / "page.md").write_text("old page\n")
    site.before = snapshot(site.victim)
    (site.project / "pyproject.toml").write_text(
        '[tool.entrykit]\nroot = "entries"\n[tool.entrykit.translation]\ntrack_source = true\n'
    )
    (site.root / "ext").symlink_to(site.victim)
    (site.project / "out").symlink_to(site.victim)
    proc = _run(WRITES_THROUGH_LINKS[name], site.project, site.env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.count("entrykit: error:") == 1 and ("leads out of" in proc.stderr or "leave" in proc.stderr)
    site.untouched()


def test_merge_refuses_two_names_of_one_file(site: Site) -> None:
    a = site.root / "pip" / "invalid-requirement.yaml"
    b = site.root / "pip" / "zz-same.yaml"
    os.link(a, b)
    before = snapshot(site.root)
    proc = _run(["merge", str(a), str(b), "--prefer", "into"], site.project, site.env)
    assert proc.returncode == 2 and "are the same file" in proc.stderr
    assert snapshot(site.root) == before


def test_a_long_file_name_is_formatted_with_the_rest(site: Site) -> None:
    long_name = "x" * (255 - len(".yaml")) + ".yaml"
    (site.root / "pip" / long_name).write_text('signature:    "b"\nid: pip/long\n')
    (site.root / "pip" / "short.yaml").write_text('signature:    "c"\nid: pip/short\n')
    proc = _run(["fmt", "entries/pip"], site.project, site.env)
    assert proc.returncode == 0, proc.stderr
    for name in (long_name, "short.yaml"):
        assert (site.root / "pip" / name).read_text().startswith("id: ")
    assert not [p for p in site.root.rglob(".*")]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write any file")
def test_one_unwritable_file_fails_before_any_is_replaced(site: Site) -> None:
    for number in range(20):
        (site.root / "pip" / f"gen{number:02d}.yaml").write_text(f'signature:    "g{number}"\nid: pip/gen{number:02d}\n')
    locked = site.root / "pip" / "gen10.yaml"
    os.chmod(locked, 0o444)
    before = snapshot(site.root)
    proc = _run(["fmt"], site.project, site.env)
    assert proc.returncode == 2 and str(locked) in proc.stderr and "no file was changed" in proc.stderr
    assert snapshot(site.root) == before


def test_a_json_number_no_double_holds_is_never_written_back(site: Site) -> None:
    target = site.root / "pip" / "inf.json"
    text = '{"id": "pip/inf", "signature": "x", "regex": "x", "confidence": 1e999}\n'
    target.write_text(text)
    proc = _run(["fmt", "entries/pip/inf.json"], site.project, site.env)
    assert proc.returncode == 2 and "inf.json:1:65:" in proc.stderr and "1e999" in proc.stderr
    assert target.read_text() == text
    assert "ET005 [error] `1e999` is not a finite number" in site.lint("--no-cache", "entries/pip/inf.json").stdout


# --- killed in the middle ------------------------------------------------------------------


def _unformatted_corpus(site: Site, count: int) -> Path:
    folder = site.root / "gen"
    folder.mkdir()
    for number in range(count):
        (folder / f"e{number:04d}.yaml").write_text(f'regex:   "boom {number}"\nid: gen/e{number:04d}\nsignature:   "boom {number}"\n')
    return folder


# `entrykit fmt` as usual, except that the process sends itself `sig` right after the
# `at`-th file of `gen/` is replaced: the stop lands in the replace phase every time, on
# any machine, instead of whenever a watcher happens to see it.
STOP_WHILE_REPLACING = """
import os, runpy, sys
at, sig = int(sys.argv[1]), int(sys.argv[2])
real, done = os.replace, []
def replace(src, dst, *args, **kwargs):
    real(src, dst, *args, **kwargs)
    if os.path.basename(os.path.dirname(os.fspath(dst))) == "gen" and os.fspath(dst).endswith(".yaml"):
        done.append(dst)
        if len(done) == at:
            os.kill(os.getpid(), sig)
os.replace = replace
sys.argv = ["entrykit", "fmt"]
runpy.run_module("entrykit", run_name="__main__", alter_sys=True)
"""


def _stop_in_replace_phase(site: Site, sig: int, at: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", STOP_WHILE_REPLACING, str(at), str(int(sig))], cwd=site.project,
        env={**os.environ, **site.env}, capture_output=True, text=True, timeout=HANG_GUARD,
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_fmt_stopped_while_replacing_files_leaves_every_file_as_it_was(site: Site, sig: int) -> None:
    folder = _unformatted_corpus(site, 40)
    before = snapshot(site.root)
    proc = _stop_in_replace_phase(site, sig, at=20)
    if sig == signal.SIGTERM:  # it undoes its own change and says why it stopped
        assert proc.returncode == 143 and proc.stderr.strip().splitlines()[-1] == "entrykit: terminated"
        assert snapshot(site.root) == before
    else:
        assert proc.returncode == -signal.SIGKILL
        entries = [name for name in os.listdir(folder) if not name.startswith(".")]
        formatted = [name for name in entries if (folder / name).read_bytes() != before[f"gen/{name}"]]
        assert len(formatted) == 20  # half done, and the journal knows
        assert any(name.startswith(".") for name in os.listdir(folder))
    after = _run(["fmt", "--check", "entries/pip"], site.project, site.env)  # any command
    if sig == signal.SIGKILL:
        assert "rolled back" in after.stderr, after.stderr
    assert snapshot(site.root) == before
    site.untouched()


def _children(pid: int) -> list[int]:
    found = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except FileNotFoundError:  # the process has ended
        return found
    for task in tasks:
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):  # a thread that ended since it was listed
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _as_in_a_terminal() -> None:
    """Ctrl-C reaches the command as it would in a terminal, even when the tests themselves
    run as a background job (which a shell starts with SIGINT ignored, and entrykit, like
    any program, keeps ignoring it then)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopped_pooled_lint_takes_its_workers_along(site: Site, sig: int) -> None:
    folder = site.root / "gen"
    folder.mkdir()
    for number in range(1500):
        (folder / f"e{number:04d}.yaml").write_text(
            f'id: gen/e{number:04d}\nsignature: "ERROR: boom {number} in module m{number}"\nregex: "ERROR: boom {number} .*"\n'
        )
    proc = subprocess.Popen(
        [*ENTRYKIT, "lint", "--no-cache", "--jobs", "2"], cwd=site.project, env={**os.environ, **site.env},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_as_in_a_terminal,
    )
    deadline = time.monotonic() + HANG_GUARD
    workers: list[int] = []
    while proc.poll() is None and time.monotonic() < deadline and len(workers) < 2:
        workers = _children(proc.pid)
    assert proc.poll() is None and workers, "lint finished before it could be stopped"
    time.sleep(0.5)  # (not a measurement: let the workers start on their files)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=HANG_GUARD)  # EOF on both pipes: no worker holds them
    assert proc.returncode == (143 if sig == signal.SIGTERM else 130), err.decode()[-2000:]
    assert err.decode().strip().splitlines()[-1] == ("entrykit: terminated" if sig == signal.SIGTERM else "entrykit: interrupted")
    assert [w for w in workers if _alive(w)] == []


# --- standard input ------------------------------------------------------------------------


def test_match_stops_at_input_that_is_no_text(site: Site) -> None:
    with open("/dev/zero", "rb") as zeros:
        proc = _run(["match", "-"], site.project, site.env, stdin=zeros)
    assert proc.returncode == 2 and "NUL byte on line 1" in proc.stderr


def test_match_reads_an_endless_line_in_bounded_memory(site: Site, tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_bytes(b"ERROR: Invalid requirement: './x' " + b"y" * (4 << 20) + b"\nall good\n")
    with open(log, "rb") as stream:
        proc = _run(["match", "-"], site.project, site.env, stdin=stream)
    assert proc.returncode == 0 and "pip/invalid-requirement" in proc.stdout
    assert "line 1 is longer than 65,536 bytes" in proc.stderr
