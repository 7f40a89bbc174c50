"""Deterministic generator of realistic entry corpora for benchmarks and scale tests.

    python benchmarks/generate.py OUT_DIR --count 1000 [--format yaml|json] [--seed 1]
        [--duplicates 0.05] [--defects 0.02] [--regex-style template|mixed] [--one-template]

Every entry describes a distinct error: its signature is a real-looking message
built from one of the error templates, a message shape, and identifiers drawn
from a vocabulary of some 25,000 compound names, so two entries share no more
wording than two different real errors do. With `--duplicates F`, a fraction F of
the entries are planted near-duplicates of earlier ones (the same message with
other numbers and paths, a reworded message, the same id in another environment,
or a message each regex recognises); the planted pairs are written as ground
truth to `OUT_DIR.duplicates.json` beside the corpus. With `--defects F`, a
fraction F of the entries get one planted defect each (a duplicate id, a dangling
reference, a regex that misses its signature or does not compile, dates out of
order, a schema violation, a domain that disagrees with the id, an unsafe source
URL), listed with the rule code that must report it in `OUT_DIR.defects.json`.
Planting draws from streams of its own, so the other entries are the same with or
without it. With `--one-template`, every entry is one message template instead
(`ONE_TEMPLATE`): its quoted name drawn from `ONE_TEMPLATE_NAMES` names, its numbers
from the entry's own draws, its regex the template's (every regex matches every
signature), and every `ONE_TEMPLATE_ID_EVERY`th entry filed under the first entry's
id: the corpus on which every pairwise corpus rule would grow with the square.
The same arguments always write the same files.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Any

# (domain, category, signature template, root cause, package) - {name}, {n}, {m},
# {path}, {ver} are filled per entry ({n}, {m}, {path}, {ver} volatile, as they
# differ between two occurrences of one error; {name} a name, which a planted
# duplicate keeps).
TEMPLATES: list[tuple[str, str, str, str, str]] = [
    ("python", "import_error", "ModuleNotFoundError: No module named '{name}'",
     "The module is not installed in the interpreter that runs the code.", "python"),
    ("python", "type_error", "TypeError: {name}() takes {n} positional arguments but {m} were given",
     "The function is called with more arguments than its signature accepts.", "python"),
    ("python", "key_error", "KeyError: '{name}'",
     "The mapping has no such key; the data differs from what the code expects.", "python"),
    ("python", "value_error", "ValueError: invalid literal for int() with base 10: '{name}'",
     "A string that is not a decimal number is converted with int().", "python"),
    ("python", "attribute_error", "AttributeError: 'NoneType' object has no attribute '{name}'",
     "A function returned None where an object was expected.", "python"),
    ("pip", "install_error", "ERROR: No matching distribution found for {name}=={ver}",
     "No release of the package matches the requested version on the index.", "pip"),
    ("pip", "install_error", "ERROR: Could not build wheels for {name}, which is required to install pyproject.toml-based projects",
     "Building the package from source failed, usually for a missing compiler or header.", "pip"),
    ("git", "usage_error", "fatal: not a git repository (or any of the parent directories): .git",
     "The command ran outside any folder that holds a .git directory.", "git"),
    ("git", "merge_error", "error: Your local changes to the following files would be overwritten by merge: {path}",
     "Uncommitted changes conflict with the incoming commits.", "git"),
    ("git", "auth_error", "fatal: Authentication failed for 'https://github.com/{name}/{name}.git/'",
     "The stored credentials are wrong or a password was used where a token is required.", "git"),
    ("pytorch", "memory_error", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {n}.00 MiB (GPU 0; {m}.00 GiB total capacity)",
     "The model, batch and activations need more GPU memory than is free.", "torch"),
    ("pytorch", "runtime_error", "RuntimeError: mat1 and mat2 shapes cannot be multiplied ({n}x{m} and {m}x{n})",
     "A linear layer's input size does not match the previous layer's output size.", "torch"),
    ("pytorch", "runtime_error", "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
     "Some tensors or parameters stayed on the CPU while others moved to the GPU.", "torch"),
    ("pytorch", "config_error", "RuntimeError: Error(s) in loading state_dict for {name}: Missing key(s) in state_dict: \"{name}.weight\"",
     "The checkpoint was saved from a differently named or wrapped model.", "torch"),
    ("node", "module_error", "Error: Cannot find module '{name}'",
     "The package is not installed in node_modules or the path is wrong.", "node"),
    ("node", "network_error", "Error: listen EADDRINUSE: address already in use :::{n}",
     "Another process already listens on the port.", "node"),
    ("docker", "runtime_error", "docker: Error response from daemon: Conflict. The container name \"/{name}\" is already in use",
     "A container with that name exists, running or stopped.", "docker"),
    ("docker", "build_error", "failed to solve: failed to compute cache key: \"/{path}\" not found: not found",
     "The COPY source is outside the build context or excluded by .dockerignore.", "docker"),
    ("kubernetes", "cluster_error", "Error from server (NotFound): pods \"{name}\" not found",
     "The pod does not exist in the current namespace.", "kubectl"),
    ("kubernetes", "cluster_error", "Back-off restarting failed container {name} in pod {name}-{n}",
     "The container exits right after starting, so the kubelet restarts it with back-off.", "kubernetes"),
    ("rust", "build_error", "error[E0382]: borrow of moved value: `{name}`",
     "The value was moved into another binding and used afterwards.", "rustc"),
    ("go", "build_error", "./{name}.go:{n}:{m}: undefined: {name}",
     "The identifier is not declared in the package or is not exported.", "go"),
    ("nginx", "config_error", "nginx: [emerg] bind() to 0.0.0.0:{n} failed (98: Address already in use)",
     "Another process holds the port nginx is configured to listen on.", "nginx"),
    ("postgres", "connection_error", "psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.{n}\" failed: No such file or directory",
     "The server is not running or listens on another socket directory or port.", "postgresql"),
    ("cuda", "runtime_error", "RuntimeError: CUDA error: device-side assert triggered",
     "A kernel hit an assertion, most often an index out of range in an embedding or loss.", "cuda"),
    ("java", "runtime_error", "Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"{name}.length()\" because \"{name}\" is null",
     "A reference that is null is dereferenced.", "java"),
    ("terraform", "config_error", "Error: Reference to undeclared resource: A managed resource \"{name}\" \"{name}\" has not been declared in the root module.",
     "The configuration refers to a resource that is not declared.", "terraform"),
    ("redis", "connection_error", "redis.exceptions.ConnectionError: Error {n} connecting to localhost:{m}. Connection refused.",
     "No Redis server listens at that address.", "redis"),
]

WORDS = [
    "alpha", "beta", "gamma", "delta", "config", "model", "loader", "parser", "worker",
    "client", "server", "cache", "token", "session", "handler", "encoder", "decoder",
    "layer", "stream", "buffer", "router", "engine", "scheduler", "queue", "bucket",
]
ZH_PREFIX = "错误："


def _fill(template: str, rng: random.Random) -> str:
    values = {
        "name": "_".join(rng.sample(WORDS, 2)),
        "n": str(rng.randint(2, 9999)),
        "m": str(rng.randint(2, 9999)),
        "path": f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py",
        "ver": f"{rng.randint(0, 9)}.{rng.randint(0, 30)}",
    }
    return template.format(**values)


def regex_for(template: str) -> str:
    """A regex that matches every filling of the template."""
    parts = re.split(r"(\{name\}|\{n\}|\{m\}|\{path\}|\{ver\})", template)
    out = []
    for part in parts:
        if part in ("{name}",):
            out.append(r"\w+")
        elif part in ("{n}", "{m}"):
            out.append(r"\d+")
        elif part == "{path}":
            out.append(r"\S+")
        elif part == "{ver}":
            out.append(r"[\d.]+")
        else:
            out.append(re.escape(part))
    return "".join(out)


# More words for identifiers: with WORDS they make the compound names
# (`cache_router`, `session_bucket`) that tell one error from another.
NOUNS = [
    "account", "adapter", "agent", "allocator", "archive", "artifact", "asset", "backend",
    "batch", "binding", "blob", "block", "branch", "bridge", "bundle", "canvas", "channel",
    "chart", "checkpoint", "chunk", "cluster", "codec", "column", "commit", "compiler",
    "connector", "consumer", "container", "context", "controller", "cursor", "daemon",
    "dataset", "device", "digest", "dispatcher", "document", "driver", "emitter", "endpoint",
    "entity", "event", "executor", "exporter", "extension", "fabric", "feature", "fetcher",
    "field", "filter", "fixture", "folder", "format", "frame", "gateway", "graph", "grid",
    "header", "heap", "hook", "host", "image", "importer", "index", "injector", "inode",
    "input", "instance", "interface", "iterator", "job", "journal", "kernel", "key", "label",
    "lease", "ledger", "library", "listener", "locale", "lock", "manifest", "mapper", "matrix",
    "member", "message", "metric", "middleware", "migration", "mirror", "module", "monitor",
    "mount", "namespace", "network", "node", "object", "operator", "option", "package",
    "packet", "page", "panel", "partition", "patch", "payload", "peer", "pipeline", "plugin",
    "pointer", "policy", "pool", "port", "printer", "probe", "process", "producer", "profile",
    "project", "prompt", "provider", "proxy", "publisher", "quota", "reader", "record",
    "registry", "relay", "release", "replica", "report", "repository", "request", "resolver",
    "resource", "response", "result", "revision", "role", "route", "runner", "runtime",
    "sampler", "schema", "scope", "script", "secret", "segment", "selector", "sensor",
    "service", "shard", "signal", "snapshot", "socket", "source", "span", "spool", "stage",
    "state", "store", "subscriber", "suite", "switch", "symbol", "table", "tagger", "target",
    "task", "template", "tenant", "tensor", "thread", "ticket", "timer", "topic", "tracer",
    "transport", "tree", "trigger", "tunnel", "upload", "user", "validator", "value",
    "variable", "vault", "vector", "version", "view", "volume", "watcher", "webhook",
    "widget", "window", "writer", "zone",
]
VERBS = [
    ("load", "loaded", "loading"), ("open", "opened", "opening"), ("resolve", "resolved", "resolving"),
    ("register", "registered", "registering"), ("decode", "decoded", "decoding"),
    ("serialize", "serialized", "serializing"), ("allocate", "allocated", "allocating"),
    ("connect to", "connected to", "connecting to"), ("bind", "bound", "binding"),
    ("initialize", "initialized", "initializing"), ("mount", "mounted", "mounting"),
    ("parse", "parsed", "parsing"), ("acquire", "acquired", "acquiring"),
    ("validate", "validated", "validating"), ("flush", "flushed", "flushing"),
    ("schedule", "scheduled", "scheduling"), ("import", "imported", "importing"),
    ("authenticate", "authenticated", "authenticating"), ("compile", "compiled", "compiling"),
    ("replicate", "replicated", "replicating"),
]
REASONS = [
    "permission denied", "no such file or directory", "connection reset by peer",
    "operation timed out", "resource temporarily unavailable", "invalid argument",
    "unexpected end of input", "checksum mismatch", "version conflict detected",
    "quota exceeded", "address already in use", "broken pipe", "certificate has expired",
    "out of memory", "too many open files", "unsupported protocol", "lock is held by another process",
    "schema validation failed", "read-only file system", "name or service not known",
]
# A message is a head, a core and a tail: {cls} an error class, {a} {b} {c}
# compound names, {v} {vp} {vg} a verb's forms, {r} a reason, {dom} the domain;
# {name} {n} {m} {path} {ver} as in TEMPLATES.
HEADS = [
    "{cls}: ", "error: ", "fatal: ", "{dom}: [emerg] ", "panic: ", "ERROR [{c}] ", "E: ",
    "Exception in thread \"{name}\" {cls}: ", "warning: ", "{dom}: error: ", "FAILED: ",
    "{cls}: ", "[{dom}] CRITICAL ", "uncaught {cls}: ", "{dom}: ", "level=error msg=\"",
    "{cls} in {c}: ", "Caused by: {cls}: ", "thread '{name}' panicked at ", "{dom} {ver}: ",
]
CORES = [
    "cannot {v} {a} from {b}", "{a} expected {b} of size {n}", "unknown {a} in {b}",
    "{a} not {vp} in {b}", "{a} has no attribute {b}", "{vg} {a} {b} aborted",
    "{a} {b} deprecated", "{a} refused {b}", "{a} {vp} before {b}", "duplicate {a} for {b}",
    "{a} returned {n} rows, {b} expects {m}", "timeout {vg} {a} {b}", "{a} and {b} both {vp}",
    "mismatched {a} in {b}", "missing {a} for {b}", "{a}.{b}() unexpected value",
    "could not {v} {a}: {b} locked", "{a} requires {b} {ver}", "no {a} matches {b}",
    "{a} overflowed {vg} {b}", "invalid {a} in {b}", "{a} {vp} twice by {b}",
    "{b} rejected {a}", "lost {a} during {b}", "{a} quota {b} exhausted", "{a} differs from {b}",
    "refusing to {v} {a} outside {b}", "{a} read-only, cannot {v} {b}", "stale {a} handle {b}",
    "circular {a} {b}",
]
TAILS = [
    " in {c}", " for {c}", ": {r}", " ({path}) at {c}", " (code {n}) in {c}", " holding {c}",
    " on {c}: {r}", " at {path}:{n}", "; use {c}", " (did you mean {c}?)", " after {n} ms on {c}",
    " [{c}]", ": see {c}", "",
]
ENVIRONMENTS = ["py311-linux", "py312-macos", "node20-linux", "win11-x64", "ubuntu22-arm64", "jdk17-linux"]
ZH_PREFIX = "错误："
_EVERY = [f"{a}_{b}" for a in WORDS + NOUNS for b in NOUNS if a != b]


def _camel(compound: str) -> str:
    return "".join(part.capitalize() for part in compound.split("_"))


def _compound(rng: random.Random) -> str:
    # Skewed towards the first names, as real vocabularies are.
    return _EVERY[int(len(_EVERY) * rng.random() ** 1.5)]


def _signature(shape: str, words: dict[str, str], rng: random.Random) -> str:
    values = dict(words)
    # A thread's or variable's name is a name: a duplicate planted from these words keeps
    # the first one drawn (the draw is made anyway, so the stream stays the same).
    values["name"] = words.setdefault("name", "_".join(rng.sample(WORDS, 2)))
    values["n"] = str(rng.randint(2, 9999))
    values["m"] = str(rng.randint(2, 9999))
    values["path"] = f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py"
    values["ver"] = f"{rng.randint(0, 9)}.{rng.randint(0, 30)}"
    return shape.format(**values)


def _regex(shape: str, words: dict[str, str]) -> str:
    """A regex for every filling of the shape's volatile slots, literal elsewhere."""
    fixed = re.sub(r"\{(cls|a|b|c|v|vp|vg|r|dom)\}", lambda m: words[m.group(1)].replace("{", "{{").replace("}", "}}"), shape)
    return regex_for(fixed)


def specific_regex_for(signature: str, numbers: bool = True) -> str:
    """A regex that keeps the names of this filling and generalises only its numbers."""
    if not numbers:
        return re.escape(signature)
    out = []
    pos = 0
    for match in re.finditer(r"\d+(?:\.\d+)*", signature):
        out.append(re.escape(signature[pos : match.start()]))
        out.append(r"\d+(?:\.\d+)*")
        pos = match.end()
    out.append(re.escape(signature[pos:]))
    return "".join(out)


# Mixed regex styles, closer to a real corpus than one regex per message shape: most
# are keyword chains for IGNORECASE lookups or the escaped message (both keep the
# entry's own names, so they match their own error only), 0.2% generalise the whole
# shape (they match every filling), and 0.1% have a branch without any literal, which
# makes the regex run on every text (the index's fallback); like real ones, they
# rarely match.
LITERAL_FREE = [r"\d{3}x\d{3}x\d{3}", r"[A-Z]{3}\d{5}", r"\b\d+\.\d+\.\d+\.\d+\.\d+\b"]
_NAME = re.compile(r"(?:{})_(?:{})|src/".format("|".join(WORDS + NOUNS), "|".join(NOUNS)))


def keyword_regex(signature: str, rng: random.Random) -> str | None:
    """Keywords of the message in order, joined by `.*`, in two to five alternative
    branches that each keep the message's distinctive name (the style of many hand- and
    machine-written lookup regexes, meant for IGNORECASE); None if it has no name."""
    words = [w.lower() for w in re.findall(r"[A-Za-z_][\w./]{3,}", signature)]
    names = [i for i, w in enumerate(words) if _NAME.search(w)]
    if not names or len(words) < 2:
        return None
    branches = []
    for _ in range(rng.randint(2, 5)):
        name = rng.choice(names)
        others = [i for i in range(len(words)) if i != name]
        picked = sorted([name, *rng.sample(others, min(len(others), rng.randint(1, 2)))])
        branches.append(".*".join(re.escape(words[i]) for i in picked))
    return "(" + "|".join(dict.fromkeys(branches)) + ")"


def mixed_regex(shape_regex: str, signature: str, rng: random.Random) -> str:
    """One regex in the mixed style for a message and the regex of its whole shape."""
    roll = rng.random()
    if roll < 0.001:
        keywords = keyword_regex(signature, rng) or "(" + re.escape(signature[:20].lower()) + ")"
        return keywords[:-1] + "|" + rng.choice(LITERAL_FREE) + ")"
    if roll < 0.003:
        return shape_regex
    if roll < 0.7:
        chain = keyword_regex(signature, rng)
        if chain is not None:
            return chain
    return specific_regex_for(signature)


REGEX_STYLES = ("template", "mixed")


def _words(index: int, rng: random.Random, domain: str) -> dict[str, str]:
    # The first name depends on the index alone, so no two of the first ~50,000
    # entries share it by chance in the same shape.
    a = _EVERY[(index * 7919) % len(_EVERY)]
    b, c = _compound(rng), _compound(rng)
    verb = rng.choice(VERBS)
    return {
        "a": a, "b": b, "c": c, "cls": _camel(rng.choice(NOUNS)) + rng.choice(["Error", "Exception", "Failure"]),
        "v": verb[0], "vp": verb[1], "vg": verb[2], "r": rng.choice(REASONS), "dom": domain,
    }


# Workaround actions and their Chinese translations, which keep every name verbatim
# as translators do (a translation that drops them is what ET305 reports).
ACTIONS = [
    ("Pin {x} to the release that last {vp} {y}", "将 {x} 固定到上一个能处理 {y} 的版本"),
    ("Set {x}.{y} explicitly before {vg} {z}", "在处理 {z} 之前显式设置 {x}.{y}"),
    ("Clear the {x} cache and {v} {y} again", "清除 {x} 缓存，然后重新处理 {y}"),
    ("Upgrade {x} so that {y} is {vp} lazily", "升级 {x}，让 {y} 延迟处理"),
    ("Run {x} with {y} disabled, then {v} {z}", "禁用 {y} 后运行 {x}，然后处理 {z}"),
]


def make_entry(index: int, rng: random.Random, regex_style: str = "template") -> dict[str, Any]:
    """Entry number `index`: one distinct error, drawn from `rng`.

    `regex_style` "template" gives each entry the regex of its message's shape;
    "mixed" draws regexes in the styles real corpora hold (see `mixed_regex`).
    """
    return _make(index, rng, regex_style)[0]


def make_entries(count: int, seed: int = 1, regex_style: str = "template") -> list[dict[str, Any]]:
    """`count` entries in memory, as `write_corpus` would write them without duplicates."""
    rng = random.Random(seed)
    return [make_entry(index, rng, regex_style) for index in range(count)]


def _make(
    index: int, rng: random.Random, regex_style: str = "template"
) -> tuple[dict[str, Any], str, dict[str, str]]:
    """The entry, and the message shape and words it was built from (for planting duplicates)."""
    domain, category, _template, cause, package = TEMPLATES[index % len(TEMPLATES)]
    shape = rng.choice(HEADS) + rng.choice(CORES) + rng.choice(TAILS)
    if shape.startswith("level=error"):
        shape += '"'
    words = _words(index, rng, domain)
    signature = _signature(shape, words, rng)
    slug = "-".join([*words["a"].split("_"), *words["b"].split("_")])
    if index >= len(_EVERY):  # past that many entries the first name repeats
        slug = f"{slug}-{index // len(_EVERY)}"
    first = f"20{rng.randint(19, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    confirmed = f"2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}"
    major = rng.randint(1, 5)
    workarounds: list[dict[str, Any]] = []
    translated = []
    for _ in range(rng.randint(1, 3)):
        action, action_zh = rng.choice(ACTIONS)
        names = {"x": _compound(rng), "y": _compound(rng), "z": _compound(rng)}
        workarounds.append({
            "action": action.format(**names, **{k: words[k] for k in ("v", "vp", "vg")}),
            "success_rate": round(rng.uniform(0.6, 0.95), 2),
            "how": f"Set `{rng.choice(WORDS)}.{rng.choice(NOUNS)} = true` in the configuration file.",
            "condition": "",
            "sources": [f"https://docs.example.org/{domain}/{rng.choice(NOUNS)}"],
        })
        translated.append(action_zh.format(**names))
    evidence = rng.randint(3, 12)
    regex = _regex(shape, words) if regex_style == "template" else mixed_regex(_regex(shape, words), signature, rng)
    fail_rate = round(rng.uniform(0.5, 0.95), 2)
    for _ in workarounds:  # the draws earlier versions made here: every other field stays as it was
        rng.choice(WORDS)
    return {
        "id": f"{domain}/{slug}",
        "signature": signature,
        "signature_zh": ZH_PREFIX + signature,
        "regex": regex,
        "domain": domain,
        "category": category,
        "root_cause": cause,
        "root_cause_zh": "根本原因：" + cause,
        "versions": [
            {"version": f"{package}>={major}.0,<{major + 1}.0", "introduced": None, "deprecated": None,
             "removed": None, "behavior_change": None, "status": "active"}
        ],
        "dead_ends": [
            {"action": f"Reinstall {package}", "why_fails": "The installation was not the problem.",
             "fail_rate": fail_rate, "condition": "", "sources": []}
        ],
        "workarounds": workarounds,
        "workarounds_zh": translated,
        "transition_graph": {"leads_to": [], "preceded_by": [], "frequently_confused_with": []},
        "verification_tier": "human_reviewed",
        "confidence": round(rng.uniform(0.5, 0.9), 2),
        "fix_success_rate": min(w["success_rate"] for w in workarounds),
        "resolvable": "true",
        "first_seen": first,
        "last_confirmed": confirmed,
        "last_updated": confirmed,
        "evidence_count": evidence,
        "tags": [domain],
        "locale": "en",
        "aliases": [],
    }, shape, words


# The one-template corpus (`--one-template`): one message, a named slot and numbers.
ONE_TEMPLATE = "RuntimeError: CUDA out of memory. Tried to allocate {n}.00 MiB for '{name}' on device {m}"
ONE_TEMPLATE_NAMES = 50
ONE_TEMPLATE_ID_EVERY = 50


def one_template_entry(index: int, rng: random.Random) -> dict[str, Any]:
    """Entry number `index` of the one-template corpus (see the module's docstring)."""
    entry = make_entry(index, rng)
    name = _EVERY[(index * 7919) % ONE_TEMPLATE_NAMES]
    signature = ONE_TEMPLATE.format(n=rng.randint(2, 9999), m=rng.randint(0, 7), name=name)
    domain = entry["domain"]
    entry_id = f"{domain}/cuda-oom-{index}" if index % ONE_TEMPLATE_ID_EVERY or not index else "python/cuda-oom-0"
    entry.update(
        id=entry_id, domain=entry_id.split("/")[0], signature=signature, signature_zh=ZH_PREFIX + signature,
        regex=regex_for(ONE_TEMPLATE),
    )
    return entry


DUPLICATE_KINDS = ("renamed", "reworded", "environment", "regex")


def make_duplicate(
    original: dict[str, Any], shape: str, words: dict[str, str], index: int, rng: random.Random
) -> tuple[dict[str, Any], str]:
    """A near-duplicate of `original` (built from `shape` and `words`) written by another hand, and how it differs."""
    kind = DUPLICATE_KINDS[rng.randrange(len(DUPLICATE_KINDS))]
    words = dict(words)
    domain, slug = original["id"].split("/")
    dup = json.loads(json.dumps(original))
    if kind == "renamed":
        # The same message met with other numbers and paths, filed under another id.
        dup["signature"] = _signature(shape, words, rng)
        parts = slug.split("-")
        dup["id"] = f"{domain}/{'-'.join(parts[2:] + parts[:2])}-{index}"
    elif kind == "reworded":
        # A few words changed: another verb or reason, a prefix a logger adds.
        verb = rng.choice(VERBS)
        words.update(v=verb[0], vp=verb[1], vg=verb[2], r=rng.choice(REASONS))
        prefix = rng.choice(["", f"[{domain}] ", "Traceback (most recent call last): "])
        dup["signature"] = prefix + _signature(shape, words, rng)
        dup["regex"] = _regex(shape, words)
        dup["id"] = f"{domain}/{slug}-issue-{index}"
    elif kind == "environment":
        # The same entry written for another environment: the id gains its name.
        env = rng.choice(ENVIRONMENTS)
        dup["signature"] = f"{env.split('-')[0]}: " + _signature(shape, words, rng)
        dup["id"] = f"{domain}/{slug}-{env}"
    else:
        # Another wording around the same core, each regex recognising the other's message.
        dup["signature"] = _signature(shape, words, rng) + rng.choice(
            [" (see the log for details)", "; aborting", " -- retrying later"]
        )
        dup["id"] = f"{domain}/{slug}-again-{index}"
    dup["signature_zh"] = ZH_PREFIX + dup["signature"]
    keep = rng.randint(1, len(dup["workarounds"]))
    dup["workarounds"] = dup["workarounds"][:keep]
    dup["workarounds_zh"] = dup["workarounds_zh"][:keep]
    dup["fix_success_rate"] = min(w["success_rate"] for w in dup["workarounds"])
    dup["evidence_count"] = rng.randint(1, 5)
    return dup, kind


# Planted defects: kind -> the rule code that must report it.
DEFECTS = {
    "duplicate-id": "ET501",
    "dangling-reference": "ET504",
    "regex-misses-signature": "ET202",
    "regex-does-not-compile": "ET201",
    "dates-out-of-order": "ET601",
    "schema-violation": "ET101",
    "domain-mismatch": "ET505",
    "unsafe-source-url": "ET606",
}


def plant_defect(entry: dict[str, Any], earlier_ids: list[str], index: int, rng: random.Random) -> tuple[dict[str, Any], str]:
    """A copy of `entry` with one defect, and its kind (a key of `DEFECTS`).

    A duplicate id needs an earlier entry; without one another kind is drawn.
    """
    kinds = [k for k in DEFECTS if k != "duplicate-id" or earlier_ids]
    kind = kinds[rng.randrange(len(kinds))]
    bad = json.loads(json.dumps(entry))
    if kind == "duplicate-id":
        bad["id"] = rng.choice(earlier_ids)
        bad["domain"] = bad["id"].split("/")[0]
    elif kind == "dangling-reference":
        bad["transition_graph"]["leads_to"] = [f"{bad['domain']}/no-such-entry-{index}"]
    elif kind == "regex-misses-signature":
        bad["regex"] = re.escape(f"never printed {index} ") + r"\d+"
    elif kind == "regex-does-not-compile":
        bad["regex"] = "(" + bad["regex"]
    elif kind == "dates-out-of-order":
        bad["first_seen"], bad["last_confirmed"] = "2025-12-30", "2021-01-05"
    elif kind == "schema-violation":
        bad["confidence"] = "high"
    elif kind == "domain-mismatch":
        bad["domain"] = "elsewhere"
    else:
        bad["workarounds"][0]["sources"] = [f"http://127.0.0.1:{8000 + index % 1000}/notes"]
    return bad, kind


def write_corpus(
    out: Path,
    count: int,
    fmt: str = "yaml",
    seed: int = 1,
    duplicates: float = 0.0,
    regex_style: str = "template",
    defects: float = 0.0,
    one_template: bool = False,
) -> list[Path]:
    """Write `count` entries under `out` as <domain>/<slug>.<fmt>; return the paths.

    With `duplicates` > 0 that fraction of the entries are planted near-duplicates
    of earlier entries (at most one per original), listed as ground truth in
    `out.duplicates.json` beside `out`. With `defects` > 0 that fraction of the
    other entries get one planted defect each, listed with the code that reports
    it in `out.defects.json` (paths relative to `out`). With `one_template`, the
    one-template corpus instead (see the module's docstring; the other options are ignored).
    """
    if one_template:
        return _write_one_template(out, count, fmt, seed)
    rng = random.Random(seed)
    plant = random.Random(seed + 1)  # a separate stream: planting leaves the originals as they were
    spoil = random.Random(seed + 2)  # and another for defects
    planted: list[dict[str, str]] = []
    ids: list[str] = []
    paths: list[Path] = []
    if fmt == "yaml":
        import yaml

        dump = lambda data: yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=4096)  # noqa: E731
    else:
        dump = lambda data: json.dumps(data, indent=2, ensure_ascii=False) + "\n"  # noqa: E731
    originals: list[tuple[dict[str, Any], str, dict[str, str]]] = []
    truth: list[dict[str, str]] = []
    index = 0
    while len(paths) < count:
        if duplicates > 0 and originals and plant.random() < duplicates:
            original, shape, words = originals.pop(plant.randrange(len(originals)))
            entry, kind = make_duplicate(original, shape, words, index, plant)
            truth.append({"a": original["id"], "b": entry["id"], "kind": kind})
        else:
            made = _make(index, rng, regex_style)
            entry = made[0]
            originals.append(made)
            if defects > 0 and spoil.random() < defects:
                name = f"{entry['id']}.{fmt}"
                entry, kind = plant_defect(entry, ids, index, spoil)
                planted.append({"path": name, "kind": kind, "code": DEFECTS[kind]})
                ids.append(name.rsplit(".", 1)[0])
                index += 1
                path = out / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(dump(entry), encoding="utf-8")
                paths.append(path)
                continue
        ids.append(entry["id"])
        index += 1
        path = out / f"{entry['id']}.{fmt}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump(entry), encoding="utf-8")
        paths.append(path)
    if duplicates > 0:
        ground = {"count": count, "seed": seed, "duplicates": duplicates, "pairs": truth}
        truth_path = out.with_name(out.name + ".duplicates.json")
        truth_path.write_text(json.dumps(ground, indent=1) + "\n", encoding="utf-8")
    if defects > 0:
        found = {"count": count, "seed": seed, "defects": defects, "planted": planted}
        out.with_name(out.name + ".defects.json").write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return paths


def _write_one_template(out: Path, count: int, fmt: str, seed: int) -> list[Path]:
    rng = random.Random(seed)
    paths = []
    for index in range(count):
        entry = one_template_entry(index, rng)
        # entries that share an id live in files of their own: the id's folder, numbered
        name = f"{entry['id']}.{fmt}" if entry["id"] != "python/cuda-oom-0" or not index else f"python/cuda-oom-0-{index}.{fmt}"
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if fmt == "yaml":
            import yaml

            path.write_text(yaml.safe_dump(entry, allow_unicode=True, sort_keys=False, width=4096), encoding="utf-8")
        else:
            path.write_text(json.dumps(entry, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--format", choices=["yaml", "json"], default="yaml")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duplicates", type=float, default=0.0, help="fraction of planted near-duplicates")
    parser.add_argument("--regex-style", choices=REGEX_STYLES, default="template")
    parser.add_argument("--defects", type=float, default=0.0, help="fraction of entries with a planted defect")
    parser.add_argument("--one-template", action="store_true", help="every entry one message template (see above)")
    args = parser.parse_args()
    paths = write_corpus(
        args.out, args.count, args.format, args.seed, args.duplicates, args.regex_style, args.defects,
        args.one_template,
    )
    print(f"wrote {len(paths)} entries under {args.out}")


if __name__ == "__main__":
    main()
