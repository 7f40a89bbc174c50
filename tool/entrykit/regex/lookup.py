"""Which entries' regexes match a message, most specific first (the `entrykit match` library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from entrykit.entry import Entry
from entrykit.regex.literal_index import RegexIndex, longest_literal
from entrykit.regex.runner import Job, RegexRunner, Status, Strikes


@dataclass(frozen=True)
class Match:
    """An entry whose regex matches the message, and how specific that regex is."""

    entry: Entry
    longest_literal: int  # characters of the longest literal every match must contain
    other_matches: int  # how many other entries' signatures the regex also matches

    @property
    def id(self) -> str:
        return self.entry.id or self.entry.path


class Lookup:
    """The corpus's regexes indexed once, then asked about any number of messages."""

    def __init__(self, entries: Sequence[Entry], flags: int, mode: str, runner: RegexRunner) -> None:
        self.entries = list(entries)
        self.flags, self.mode, self.runner = flags, mode, runner
        patterns: list[str | None] = []
        for entry in self.entries:
            pattern = entry.str_field("regex")
            patterns.append(pattern if runner.compiles(pattern, flags) else None)
        self.patterns = patterns
        self.signatures = [entry.str_field("signature") or "" for entry in self.entries]
        self.index = RegexIndex(patterns, flags, mode, self.signatures)
        self._breadth: dict[int, int] = {}
        # overruns of the budget over every message asked so far: a regex that overran a
        # few times is not run on the next lines of a log (it is reported as timed out)
        self._strikes: Strikes = {}

    def _other_matches(self, number: int) -> int:
        if number not in self._breadth:
            texts = [t for t in self.index.texts_for(number) if t != number and self.signatures[t]]
            pattern = self.patterns[number] or ""
            jobs = [Job(pattern, self.flags, self.mode, self.signatures[t]) for t in texts]
            self._breadth[number] = sum(o.matched for o in self.runner.run(jobs))
        return self._breadth[number]

    def match(self, message: str) -> tuple[list[Match], list[Entry]]:
        """Entries whose regex matches `message`, most specific first (longest required
        literal, then fewest other signatures matched, then id), and entries whose regex
        need more than the match step budget on it."""
        found: list[Match] = []
        slow: list[Entry] = []
        for number, outcome in self.index.match(message, self.runner, self._strikes).items():
            if outcome.status is Status.MATCH:
                found.append(
                    Match(self.entries[number], longest_literal(self.index.queries[number]), self._other_matches(number))
                )
            elif outcome.status is Status.TIMEOUT:
                slow.append(self.entries[number])
        found.sort(key=lambda m: (-m.longest_literal, m.other_matches, m.id))
        return found, slow
