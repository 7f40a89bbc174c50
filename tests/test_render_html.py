"""`entrykit render --html`: one self-contained page, every piece of entry text shown as text,
and what a real browser makes of it (headless Chromium, where installed)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entrykit.authoring.render_html import render_html
from entrykit.cli import ExitCode, cli
from entrykit.loader import discover, load

from .conftest import REPO, SEEDS
from .png import read_png

ENTRIES = REPO / "entries"
GOLDEN = Path(__file__).resolve().parent / "golden"
TAGS = {
    "html", "head", "meta", "title", "style", "body", "main", "header", "footer", "section", "div", "h1", "h2", "h3",
    "p", "span", "code", "pre", "ol", "ul", "li", "table", "thead", "tbody", "tr", "th", "td", "a",
}
ATTRIBUTES = {"lang", "charset", "http-equiv", "content", "name", "class", "id", "href", "rel"}


class Page(HTMLParser):
    """Elements, attributes and the text of each element with an id, as a browser parses them."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.sections: dict[str, str] = {}
        self.text = ""
        self._open: list[tuple[str, str | None]] = []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        if tag not in ("meta", "br"):
            self._open.append((tag, attributes.get("id")))
            if attributes.get("id"):
                self.sections.setdefault(str(attributes["id"]), "")

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if any(tag in ("style", "title") for tag, _ in self._open):
            return
        self.text += data
        for _, anchor in self._open:
            if anchor:
                self.sections[anchor] += data


def _entries() -> list[Path]:
    return list(discover([ENTRIES]))


def _data(path: Path) -> dict[str, Any]:
    loaded = load(path, path.name)
    return loaded.data  # type: ignore[union-attr]


def _assert_only_text(page: Page) -> None:
    """Nothing but the page's own elements and attributes; links only to http(s)."""
    for tag, attributes in page.elements:
        assert tag in TAGS, tag
        assert set(attributes) <= ATTRIBUTES, (tag, attributes)
        if "href" in attributes:
            assert urlsplit(str(attributes["href"])).scheme in ("http", "https"), attributes
    assert [tag for tag, _ in page.elements].count("style") == 1


def _expected_sections(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """Section id -> entry text the section must show."""
    expected: dict[str, list[str]] = {
        "signature": [data["signature"].split("\n")[0]],
        "stats": [],
        "workarounds": [w["action"] for w in data.get("workarounds", [])]
        + [w["how"] for w in data.get("workarounds", []) if w.get("how")]
        + [w["condition"] for w in data.get("workarounds", []) if w.get("condition")],
        "dead-ends": [d["action"] for d in data.get("dead_ends", [])]
        + [d["why_fails"] for d in data.get("dead_ends", [])]
        + [d["condition"] for d in data.get("dead_ends", []) if d.get("condition")],
        "root-cause": [data["root_cause"]] + ([data["root_cause_zh"]] if data.get("root_cause_zh") else []),
        "regex": [data["regex"], *data.get("examples", []), *data.get("counterexamples", [])],
    }
    if data.get("versions"):
        expected["versions"] = [row["version"] for row in data["versions"]]
    if data.get("official_doc_url"):
        expected["official-documentation"] = [data["official_doc_url"]]
    if data.get("workarounds_zh"):
        expected["workarounds-zh"] = list(data["workarounds_zh"])
    graph = data.get("transition_graph") or {}
    related = [r if isinstance(r, str) else r["error_id"] for refs in graph.values() for r in refs]
    if related:
        expected["related"] = related
    return expected


# --- the page ---------------------------------------------------------------------


def test_html_golden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(cli, ["render", "--html", "pytorch/fsdp-parameter-mismatch"], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN
    golden = GOLDEN / "render.html"
    if os.environ.get("ENTRYKIT_UPDATE_GOLDEN"):
        golden.write_text(result.output, encoding="utf-8")
    assert result.output == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", _entries(), ids=lambda p: p.stem)
def test_every_bundled_entry_shows_each_section_as_text(path: Path) -> None:
    data = _data(path)
    page = Page(render_html(data, ["zh"]))
    _assert_only_text(page)
    for section, texts in _expected_sections(data).items():
        assert section in page.sections, section
        for value in texts:
            assert value in page.sections[section], (section, value)


def test_page_follows_the_seed_layout() -> None:
    """Seed 000 (a deadends.dev page) shows these sections in this order."""
    page = render_html(_data(ENTRIES / "pytorch" / "fsdp-parameter-mismatch.yaml"), ["zh"])
    order = ['id="signature"', "Fix Rate", "Confidence", "Evidence", "First Seen", "Version Compatibility",
             "Root Cause", "Official Documentation", "Workarounds", "中文步骤", "Dead Ends",
             "Common approaches that don't work:"]
    positions = [page.index(part) for part in order]
    assert positions == sorted(positions)
    seed = SEEDS / "000_e40a902fd9e73098.txt"
    if seed.is_file():
        text = seed.read_text(encoding="utf-8")
        for title in ("Version Compatibility", "Root Cause", "Official Documentation", "Workarounds", "Dead Ends"):
            assert title in text


def test_page_is_self_contained() -> None:
    page = render_html(_data(ENTRIES / "git" / "not-a-repository.yaml"), ["zh"])
    parsed = Page(page)
    assert not [tag for tag, _ in parsed.elements if tag in ("script", "link", "img", "iframe", "object", "base")]
    assert "url(" not in page and "@import" not in page and "src=" not in page
    [csp] = [a["content"] for t, a in parsed.elements if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert str(csp).startswith("default-src 'none'")


HOSTILE = [
    "<script>alert('x')</script>",
    '"><img src=x onerror="alert(1)">',
    "' onmouseover='alert(2)",
    "</textarea></style></title><svg onload=alert(3)>",
    "&lt;not an entity&gt; & &amp; &#60;",
    "javascript:alert(4)",
]


def _hostile_entry(text: str) -> dict[str, Any]:
    link = "javascript:alert(5)"
    return {
        "id": f"evil/{text}", "signature": f"E: {text}", "signature_zh": text, "regex": text, "examples": [text],
        "counterexamples": [text], "domain": text, "category": text, "verification_tier": text, "resolvable": text,
        "root_cause": text, "root_cause_zh": text, "root_cause_type": text,
        "versions": [{"version": text, "status": text, "introduced": text, "deprecated": text, "removed": text,
                      "behavior_change": text}],
        "official_doc_url": link, "official_doc_section": text,
        "workarounds": [{"action": text, "success_rate": 0.5, "how": text, "condition": text, "tradeoff": text,
                         "sources": [link, f"https://example.org/?q={text}", "data:text/html,<script>alert(6)</script>"]}],
        "workarounds_zh": [text],
        "dead_ends": [{"action": text, "why_fails": text, "fail_rate": 0.5, "condition": text,
                       "common_misconception": text, "tradeoff": text, "sources": [link]}],
        "dead_ends_zh": [text],
        "transition_graph": {"leads_to": [text], "preceded_by": [{"error_id": text, "condition": text}],
                             "frequently_confused_with": [{"error_id": text, "distinction": text}]},
        "first_seen": text, "last_confirmed": text, "last_updated": text, "tags": [text], "aliases": [text],
        "locale": text,
    }


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_entry_renders_as_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    path = tmp_path / "evil.yaml"
    path.write_text(yaml.safe_dump(_hostile_entry(text), allow_unicode=True), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # (a hostile `--locale` is refused before anything renders; `render_html` itself is
    # given hostile locales below)
    result = CliRunner().invoke(cli, ["render", "--html", "--locale", "zh", str(path)], catch_exceptions=False)
    assert result.exit_code == ExitCode.CLEAN, result.output
    page = Page(result.stdout)
    _assert_only_text(page)
    links = [a["href"] for t, a in page.elements if t == "a"]
    source = f"https://example.org/?q={text}"  # the one http(s) source, a link unless it holds a space
    assert links == ([] if any(c.isspace() for c in source) else [source])
    for section in ("signature", "regex", "versions", "root-cause", "workarounds", "dead-ends", "related"):
        assert text in page.sections[section], section
    assert page.text.count(text) >= 30  # every field, shown as the text it is
    assert "javascript:alert(4)" not in [a.get("href") for _, a in page.elements]


_PIECES = ["<", ">", "&", '"', "'", "`", "=", "/", "script", "on", "a", " ", "\n", "\t", "中文", "&#", ";", "javascript:",
           "\u2028", "<!--", "-->", "]]>", "\\", "x"]
_TEXT = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12).map("".join).filter(lambda s: s.strip() != "")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT, locale=st.sampled_from(["zh", "<b>", '"x"']))
def test_any_text_in_any_field_stays_text(text: str, locale: str) -> None:
    entry = _hostile_entry(text)
    page = Page(render_html(entry, [locale]))
    _assert_only_text(page)
    line = entry["signature"].strip().split("\n")[0]
    assert line in page.sections["signature"]
    assert text in page.sections["root-cause"] and text in page.sections["workarounds"]


def test_render_refuses_a_file_that_is_not_an_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ci.yml").write_text("name: CI\non: [push]\njobs: {}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--html"]):
        result = CliRunner().invoke(cli, ["render", *extra, "ci.yml"])
        assert result.exit_code == ExitCode.ERROR
        assert result.output == "entrykit: error: ci.yml is not an entry: it has neither a `signature` nor an `id` (its keys: `jobs`, `name`, `on`)\n"


def test_render_output_writes_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    target = tmp_path / "pages" / "page.html"
    result = CliRunner().invoke(cli, ["render", "--html", "git/not-a-repository", "--output", str(target)])
    assert result.exit_code == ExitCode.CLEAN and result.stdout == ""
    assert target.read_text(encoding="utf-8") == render_html(_data(ENTRIES / "git" / "not-a-repository.yaml"), ["zh"])


# --- in a real browser -------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None)


def _chromium(page: Path, profile: Path, shot: Path) -> subprocess.Popen[str]:
    """Headless Chromium loading `page`: its DOM on stdout, its screenshot in `shot`."""
    assert CHROMIUM is not None
    argv = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
        "--hide-scrollbars", "--window-size=640,480", f"--screenshot={shot}", "--dump-dom", page.as_uri(),
    ]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=page.parent)


def _browse_all(pages: list[Path], folder: Path, at_once: int = 3) -> dict[Path, str]:
    """The DOM of each page (a few browsers at a time, each with its own profile);
    each screenshot goes beside its page as `.png`."""
    doms: dict[Path, str] = {}
    for start in range(0, len(pages), at_once):
        batch = pages[start : start + at_once]
        running = [(page, _chromium(page, folder / f"profile-{i}", page.with_suffix(".png"))) for i, page in enumerate(batch)]
        for page, process in running:
            out, err = process.communicate(timeout=120)
            assert process.returncode == 0, err[-2000:]
            doms[page] = out
    return doms


def _covering(paths: list[Path]) -> list[Path]:
    """A few bundled entries that between them show every section any bundled entry shows
    (greedy), and those with the most and the least text: each browser start is costly, and
    every entry's page is checked section by section without one above."""
    sections = {path: set(_expected_sections(_data(path))) for path in paths}
    wanted = set().union(*sections.values())
    size = {path: len(render_html(_data(path), ["zh"])) for path in paths}
    chosen = [max(paths, key=size.__getitem__), min(paths, key=size.__getitem__)]
    wanted -= sections[chosen[0]] | sections[chosen[1]]
    while wanted:
        best = max(paths, key=lambda path: len(sections[path] & wanted))
        chosen.append(best)
        wanted -= sections[best]
    return sorted(set(chosen))


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_bundled_entries_in_headless_chromium(tmp_path: Path) -> None:
    entries = {tmp_path / f"{path.parent.name}-{path.stem}.html": _data(path) for path in _covering(_entries())}
    for page, data in entries.items():
        page.write_text(render_html(data, ["zh"]), encoding="utf-8")
    doms = _browse_all(list(entries), tmp_path)
    for page, data in entries.items():
        dom = Page(doms[page])
        _assert_only_text(dom)
        for section, texts in _expected_sections(data).items():
            assert section in dom.sections, (page.stem, section)
            for value in texts:
                assert " ".join(value.split()) in " ".join(dom.sections[section].split()), (page.stem, section, value)
        image = read_png(page.with_suffix(".png").read_bytes())
        assert (image.width, image.height) == (640, 480)
        colours = image.colours()
        background = max(colours.values())
        assert len(colours) > 2 and background < 0.99 * image.width * image.height, (page.stem, len(colours))


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_hostile_entry_in_headless_chromium(tmp_path: Path) -> None:
    text = HOSTILE[0] + HOSTILE[1]
    page = tmp_path / "evil.html"
    page.write_text(render_html(_hostile_entry(text), ["zh"]), encoding="utf-8")
    dom = Page(_browse_all([page], tmp_path)[page])
    _assert_only_text(dom)
    assert text in dom.sections["root-cause"]
