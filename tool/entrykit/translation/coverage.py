"""The translation coverage report: per locale and field, how much is translated, and what to do."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from entrykit.config import Config
from entrykit.entry import Entry
from entrykit.loader import LoadFailure, display_path, load
from entrykit.targets import plan
from entrykit.translation import locales
from entrykit.translation import translated_fields as translated
from entrykit.translation.translated_fields import Settings

MISSING = "missing"
UNTRANSLATED = "untranslated"
STALE = "stale"
CURRENT = "current"
STATUSES = (MISSING, UNTRANSLATED, STALE)


@dataclass(frozen=True)
class Cell:
    """Counts for one locale and field: `total` entries have source text to translate."""

    locale: str
    field: str
    required: bool
    total: int = 0
    missing: int = 0
    untranslated: int = 0
    stale: int = 0

    @property
    def present(self) -> int:
        return self.total - self.missing

    @property
    def current(self) -> int:
        return self.present - self.untranslated - self.stale

    def percent(self, count: int) -> float:
        """`count` as a percentage of `total` (0 when there is nothing to translate)."""
        return round(100.0 * count / self.total, 1) if self.total else 0.0


@dataclass(frozen=True)
class Task:
    """One translation an entry needs work on, and why."""

    path: str
    entry_id: str | None
    locale: str
    field: str
    status: str  # missing | untranslated | stale
    detail: str


@dataclass(frozen=True)
class CoverageReport:
    """What `entrykit translations` shows; formatters render it."""

    entries: int
    locales: tuple[str, ...]
    fields: tuple[str, ...]
    required: tuple[str, ...]
    track_source: bool
    cells: tuple[Cell, ...]
    tasks: tuple[Task, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (path, why) of files that are no entries

    def cell(self, locale: str, field: str) -> Cell:
        return next(c for c in self.cells if c.locale == locale and c.field == field)


@dataclass(frozen=True)
class _Judgement:
    status: str  # current, or one of STATUSES
    detail: str = ""


def _items(count: int) -> str:
    return f"{count} item" if count == 1 else f"{count} items"


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def judge(data: Mapping[str, Any], field: str, locale: str, settings: Settings) -> _Judgement | None:
    """How the `locale` translation of `field` stands; None where none is needed."""
    if not translated.has_source(data, field):
        return None
    own = translated.source_locale(data)
    if locales.is_valid(own) and locales.same_locale(own, locale):
        return None
    key = translated.key_for(data, field, locale, settings)
    if key is None:
        return _Judgement(MISSING, f"no `{field}_{locale}`")
    value = data.get(key.key)
    if isinstance(value, str) and translated.is_empty(value):
        return _Judgement(MISSING, f"`{key.key}` is empty")
    if isinstance(value, list) and value and all(isinstance(v, str) and translated.is_empty(v) for v in value):
        return _Judgement(MISSING, f"every item of `{key.key}` is empty")
    lengths = translated.list_lengths(data, key)
    if lengths is not None and lengths[0] != lengths[1]:
        return _Judgement(UNTRANSLATED, f"`{key.key}` has {_items(lengths[0])}, `{field}` {lengths[1]}")
    pairs = list(translated.pairs(data, key))
    for pair in pairs:
        if translated.is_empty(pair.text):
            return _Judgement(UNTRANSLATED, f"{pair.label} is empty")
        if translated.is_copy(pair.source, pair.text):
            return _Judgement(UNTRANSLATED, f"{pair.label} `{_short(pair.text)}` is the source text")
        code = translated.missing_script(pair)
        if code is not None:
            return _Judgement(
                UNTRANSLATED, f"{pair.label} has no {locales.script_name(code)} characters"
            )
    if settings.track_source:
        for pair in pairs:
            if translated.is_stale(data, pair):
                if translated.recorded_fingerprint(data, pair) is None:
                    return _Judgement(STALE, f"{pair.label} records no source fingerprint")
                return _Judgement(STALE, f"{pair.label} was made from an earlier {pair.source_label}")
    return _Judgement(CURRENT)


def report_locales(entries: Iterable[Entry], settings: Settings) -> tuple[str, ...]:
    """The required locales, then every other valid locale some entry is translated into."""
    seen: list[str] = []
    for entry in entries:
        for key in translated.keys(entry.data, settings):
            required = any(locales.same_locale(key.locale, r) for r in settings.required)
            if locales.is_valid(key.locale) and key.field in settings.fields and not required:
                seen.append(key.locale)
    return tuple(settings.required) + tuple(sorted(set(seen)))


def coverage(
    entries: Sequence[Entry],
    settings: Settings,
    only_locales: Collection[str] | None = None,
    skipped: Sequence[tuple[str, str]] = (),
) -> CoverageReport:
    """Count, per locale and field, translations present, missing, untranslated and stale."""
    chosen = tuple(only_locales) if only_locales else report_locales(entries, settings)
    counts: dict[tuple[str, str], dict[str, int]] = {
        (loc, field): {"total": 0, MISSING: 0, UNTRANSLATED: 0, STALE: 0}
        for loc in chosen
        for field in settings.fields
    }
    tasks: list[Task] = []
    for entry in sorted(entries, key=lambda e: e.path):
        for loc in chosen:
            for field in settings.fields:
                verdict = judge(entry.data, field, loc, settings)
                if verdict is None:
                    continue
                counts[(loc, field)]["total"] += 1
                if verdict.status != CURRENT:
                    counts[(loc, field)][verdict.status] += 1
                    tasks.append(Task(entry.path, entry.id, loc, field, verdict.status, verdict.detail))
    cells = tuple(
        Cell(
            loc,
            field,
            loc in settings.required,
            total=c["total"],
            missing=c[MISSING],
            untranslated=c[UNTRANSLATED],
            stale=c[STALE],
        )
        for (loc, field), c in counts.items()
    )
    return CoverageReport(
        entries=len(entries),
        locales=chosen,
        fields=tuple(settings.fields),
        required=tuple(settings.required),
        track_source=settings.track_source,
        cells=cells,
        tasks=tuple(tasks),
        skipped=tuple(skipped),
    )


def load_entries(
    paths: Sequence[Path] | None, config: Config, cwd: Path | None = None
) -> tuple[list[Entry], list[LoadFailure]]:
    """The entries at `paths` (default: the corpus root), and the files that are none."""
    cwd = cwd or Path.cwd()
    entries: list[Entry] = []
    failures: list[LoadFailure] = []
    for path in plan(paths, config).targets:
        loaded = load(path, display_path(path, cwd), config.limits, within=config.root)
        if isinstance(loaded, LoadFailure):
            failures.append(loaded)
        else:
            entries.append(loaded)
    return entries, failures
