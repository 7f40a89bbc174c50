"""Why a regex is too broad to identify one error: empty match, generic probes, no literal."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from entrykit.regex.budget import TooComplex
from entrykit.regex.literal_index import cover, required
from entrykit.regex.runner import Job, RegexRunner, Status

PROBES_FILE = "generic_probes.txt"


@lru_cache(maxsize=1)
def generic_probes() -> tuple[str, ...]:
    """The built-in generic messages (entrykit/data/generic_probes.txt)."""
    text = resources.files("entrykit").joinpath("data", PROBES_FILE).read_text(encoding="utf-8")
    return tuple(line for line in text.splitlines() if line.strip() and not line.startswith("#"))


def too_broad(pattern: str, flags: int, mode: str, runner: RegexRunner, min_literal: int = 3) -> str | None:
    """Why `pattern` is too broad (one sentence fragment), or None if it is specific enough."""
    probes = ("", *generic_probes())
    outcomes = runner.run([Job(pattern, flags, mode, probe) for probe in probes])
    for probe, outcome in zip(probes, outcomes):
        if outcome.status is Status.MATCH:
            if probe == "":
                return "matches the empty string, so it matches every message"
            return f"matches the generic message `{probe}`"
    try:
        query = required(pattern, flags)
    except TooComplex:
        return None  # nothing to say: ET210 reports that the literals could not be worked out
    except Exception:  # does not parse: ET201's business
        return None
    if cover(query, min_len=min_literal) is None:
        return f"lets a match go without any literal text of {min_literal} or more characters"
    return None
