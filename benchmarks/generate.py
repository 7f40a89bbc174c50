"""Deterministic generator of realistic entry corpora for benchmarks and scale tests.

    python benchmarks/generate.py OUT_DIR --count 1000 [--format yaml|json] [--seed 1]

Entries are built from real-looking error templates with varied names, numbers,
paths and versions, so regexes, translations and version rows look like a real
corpus's. The same arguments always write the same files.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Any

# (domain, category, signature template, root cause, package) - {name}, {n}, {m},
# {path}, {ver} are filled per entry.
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


def _fill(template: str, rng: random.Random, name_words: int = 2) -> str:
    values = {
        "name": "_".join(rng.sample(WORDS, name_words)),
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


# Mixed regex styles, closer to a real corpus than one regex per template: most are
# keyword chains for IGNORECASE lookups or the escaped message (both keep the entry's
# own names, so they match their own error only), 0.2% are written per template (they
# match every filling), and 0.1% have a branch without any literal.
# Branches without any literal make a regex run on every text (the index's fallback);
# like real ones, they rarely match.
LITERAL_FREE = [r"\d{3}x\d{3}x\d{3}", r"[A-Z]{3}\d{5}", r"\b\d+\.\d+\.\d+\.\d+\.\d+\b"]


_NAME = re.compile(r"(?:{0})_(?:{0})|src/".format("|".join(WORDS)))


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


def mixed_regex(template: str, signature: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.001:
        keywords = keyword_regex(signature, rng) or "(" + re.escape(signature[:20].lower()) + ")"
        return keywords[:-1] + "|" + rng.choice(LITERAL_FREE) + ")"
    if roll < 0.003:
        return regex_for(template)
    if roll < 0.7:
        keywords = keyword_regex(signature, rng)
        if keywords is not None:
            return keywords
    # where numbers are all that varies, the numbers are what tells entries apart
    return specific_regex_for(signature, numbers="{name}" in template or "{path}" in template)


def make_entry(index: int, rng: random.Random, regex_style: str = "template") -> dict[str, Any]:
    domain, category, template, cause, package = TEMPLATES[index % len(TEMPLATES)]
    # mixed corpora are meant to grow large: three-word names keep them from repeating
    signature = _fill(template, rng, 3 if regex_style == "mixed" else 2)
    if regex_style == "mixed" and "{" not in template:
        # a fixed message gets a varying location, so the entries are not all one error
        signature += f" (at src/{rng.choice(WORDS)}/{rng.choice(WORDS)}_{rng.randint(1, 99)}.py)"
    slug = f"{category.replace('_', '-')}-{index:06d}"
    first = f"20{rng.randint(19, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    confirmed = f"2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}"
    major = rng.randint(1, 5)
    workarounds = [
        {
            "action": f"Check the {rng.choice(WORDS)} settings and retry with {rng.choice(WORDS)} enabled",
            "success_rate": round(rng.uniform(0.6, 0.95), 2),
            "how": f"Set `{rng.choice(WORDS)}.{rng.choice(WORDS)} = true` in the configuration file.",
            "condition": "",
            "sources": [f"https://docs.example.org/{domain}/{rng.choice(WORDS)}"],
        }
        for _ in range(rng.randint(1, 3))
    ]
    evidence = rng.randint(3, 12)
    return {
        "id": f"{domain}/{slug}",
        "signature": signature,
        "signature_zh": ZH_PREFIX + signature,
        "regex": regex_for(template) if regex_style == "template" else mixed_regex(template, signature, rng),
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
             "fail_rate": round(rng.uniform(0.5, 0.95), 2), "condition": "", "sources": []}
        ],
        "workarounds": workarounds,
        "workarounds_zh": [f"按说明检查 {rng.choice(WORDS)} 设置后重试" for _ in workarounds],
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
    }


def make_entries(count: int, seed: int = 1, regex_style: str = "template") -> list[dict[str, Any]]:
    """`count` entries in memory; `regex_style` "template" (one regex per template) or "mixed"."""
    rng = random.Random(seed)
    return [make_entry(index, rng, regex_style) for index in range(count)]


def write_corpus(
    out: Path, count: int, fmt: str = "yaml", seed: int = 1, regex_style: str = "template"
) -> list[Path]:
    """Write `count` entries under `out` as <domain>/<slug>.<fmt>; return the paths."""
    rng = random.Random(seed)
    paths = []
    if fmt == "yaml":
        import yaml

        dump = lambda data: yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=4096)  # noqa: E731
    else:
        dump = lambda data: json.dumps(data, indent=2, ensure_ascii=False) + "\n"  # noqa: E731
    for index in range(count):
        entry = make_entry(index, rng, regex_style)
        path = out / f"{entry['id']}.{fmt}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump(entry), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--format", choices=["yaml", "json"], default="yaml")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--regex-style", choices=["template", "mixed"], default="template")
    args = parser.parse_args()
    paths = write_corpus(args.out, args.count, args.format, args.seed, args.regex_style)
    print(f"wrote {len(paths)} entries under {args.out}")


if __name__ == "__main__":
    main()
