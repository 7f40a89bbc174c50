"""An entry as one self-contained HTML page, laid out like a deadends.dev error page.

The page needs nothing but itself: the style is inline, there is no script, no font,
no image and no other resource, and its Content-Security-Policy forbids loading any.
Every piece of entry text goes through `html.escape`; attribute values are quoted
and are either constants, escaped locale tags, or http(s) URLs (anything else, such
as `javascript:`, is shown as text and never becomes a link).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from entrykit.authoring.render import NONE, locale_name, percent, steps_heading

_STYLE = """
*{box-sizing:border-box}
body{margin:0;background:#f6f7f9;color:#1f2328;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif}
main{max-width:60rem;margin:0 auto;padding:2rem 1.5rem 3rem;background:#fff;min-height:100vh}
.meta{margin:0 0 .75rem;display:flex;flex-wrap:wrap;gap:.4rem}
.badge{display:inline-block;padding:.1rem .55rem;border-radius:1rem;background:#eaeef2;color:#3d444d;font-size:.8rem}
.badge.domain{background:#1f6feb;color:#fff}
h1{font-size:1.45rem;line-height:1.35;margin:.25rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:2rem 0 .6rem;padding-bottom:.3rem;border-bottom:1px solid #d0d7de}
h3{font-size:1rem;margin:1.1rem 0 .4rem;color:#3d444d}
p{margin:.4rem 0}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
code,pre{font:.88rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
code{background:#eff1f3;padding:.1rem .3rem;border-radius:.3rem;overflow-wrap:anywhere}
pre{background:#0d1117;color:#e6edf3;padding:.75rem 1rem;border-radius:.4rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
pre code{background:none;padding:0;color:inherit}
.label{color:#59636e;font-size:.85rem;margin-right:.35rem}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.75rem;margin:1.25rem 0}
.stat{border:1px solid #d0d7de;border-radius:.5rem;padding:.6rem .8rem}
.stat .value{display:block;font-size:1.4rem;font-weight:600}
.stat .name{color:#59636e;font-size:.85rem}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{border:1px solid #d0d7de;padding:.35rem .6rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f6f8fa}
ol.items>li{margin:.9rem 0;padding-left:.2rem}
.rate{display:inline-block;font-weight:600;font-size:.85rem;padding:.05rem .5rem;border-radius:.3rem;margin-right:.45rem}
.rate.success{background:#dafbe1;color:#116329}
.rate.fail{background:#ffebe9;color:#a40e26}
.condition,.tradeoff,.misconception{color:#3d444d;font-size:.93rem}
.sources{margin:.3rem 0;padding-left:1.2rem;font-size:.9rem}
a{color:#0969da}
footer{margin-top:2.5rem;padding-top:.8rem;border-top:1px solid #d0d7de;color:#59636e;font-size:.85rem}
"""
_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
_ITEM_NOTES = (  # field, label, class of the notes below a workaround or dead end
    ("condition", "When:", "condition"),
    ("common_misconception", "Misconception:", "misconception"),
    ("tradeoff", "Trade-off:", "tradeoff"),
)
_GRAPH = (
    ("leads_to", "Leads to"),
    ("preceded_by", "Preceded by"),
    ("frequently_confused_with", "Frequently confused with"),
)


def text(value: Any) -> str:
    """Entry text as HTML text (quotes escaped too, so it is safe in an attribute)."""
    return html.escape(str(value), quote=True)


def safe_href(url: Any) -> str | None:
    """An http(s) URL fit for `href` (escaped), or None for anything else."""
    if not isinstance(url, str) or not url or any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return text(url)


def _lang(code: str) -> str:
    """A `lang` attribute value: the babel locale as a BCP 47 tag (`pt_BR` -> `pt-BR`)."""
    return text(code.replace("_", "-"))


def _anchor(code: str) -> str:
    return re.sub(r"[^A-Za-z0-9-]", "-", code)


def _string(entry: Mapping[str, Any], key: str) -> str | None:
    value = entry.get(key)
    return value if isinstance(value, str) else None


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _dicts(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


def _scalar(value: Any) -> str:
    """A table cell or a number: `—` for null and for values that are no scalars."""
    if value is None or isinstance(value, (list, dict)):
        return NONE
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _paragraph(value: str, css: str = "text", lang: str | None = None) -> str:
    attribute = f' lang="{_lang(lang)}"' if lang else ""
    return f'<p class="{css}"{attribute}>{text(value)}</p>'


def _code_block(value: str, css: str = "") -> str:
    attribute = f' class="{css}"' if css else ""
    return f"<pre{attribute}><code>{text(value)}</code></pre>"


def _link(url: str) -> str:
    href = safe_href(url)
    if href is None:
        return f"<code>{text(url)}</code>"
    return f'<a href="{href}" rel="noopener noreferrer nofollow">{text(url)}</a>'


def _labelled(label: str, body: str, css: str) -> str:
    return f'<p class="{css}"><span class="label">{text(label)}</span>{body}</p>'


def _sources(item: Mapping[str, Any]) -> list[str]:
    urls = _strings(item.get("sources"))
    if not urls:
        return []
    return ['<ul class="sources">', *(f"<li>{_link(url)}</li>" for url in urls), "</ul>"]


def _header(entry: Mapping[str, Any], locales: Sequence[str]) -> Iterator[str]:
    yield "<header>"
    badges = [("domain", entry.get("domain")), ("category", entry.get("category")),
              ("tier", entry.get("verification_tier")), ("resolvable", entry.get("resolvable"))]
    shown = [f'<span class="badge {css}">{text(value)}</span>' for css, value in badges if isinstance(value, str)]
    if shown:
        yield f'<p class="meta">{"".join(shown)}</p>'
    signature = _string(entry, "signature") or ""
    lines = signature.strip().split("\n")
    title = lines[0] if signature.strip() else "(no signature)"
    yield f'<h1 id="signature" class="text">{text(title)}{" …" if len(lines) > 1 else ""}</h1>'
    if len(lines) > 1:
        yield _code_block(signature, "signature")
    entry_id = _string(entry, "id")
    if entry_id is not None:
        yield f'<p class="id"><span class="label">ID</span><code>{text(entry_id)}</code></p>'
    aliases = _strings(entry.get("aliases"))
    if aliases:
        yield _labelled("Also known as", " ".join(f"<code>{text(a)}</code>" for a in aliases), "aliases")
    for code in locales:
        translated = _string(entry, f"signature_{code}")
        if translated is not None:
            label = f'<span class="label">{text(locale_name(code))} ({text(code)})</span>'
            yield f'<p class="translation text" lang="{_lang(code)}">{label}{text(translated)}</p>'
    yield "</header>"


def _regex(entry: Mapping[str, Any]) -> Iterator[str]:
    regex = _string(entry, "regex")
    examples = _strings(entry.get("examples"))
    counterexamples = _strings(entry.get("counterexamples"))
    if regex is None and not examples and not counterexamples:
        return
    yield '<section id="regex"><h2>Regex</h2>'
    if regex is not None:
        yield _code_block(regex, "regex")
    for title, items in (("Also matches", examples), ("Must not match", counterexamples)):
        if items:
            yield f"<h3>{title}</h3><ul>"
            yield from (f"<li><code>{text(item)}</code></li>" for item in items)
            yield "</ul>"
    yield "</section>"


def _stats(entry: Mapping[str, Any]) -> Iterator[str]:
    evidence = entry.get("evidence_count")
    first_seen = entry.get("first_seen")
    values = [
        ("Fix Rate", percent(entry.get("fix_success_rate"))),
        ("Confidence", percent(entry.get("confidence"))),
        ("Evidence", str(evidence) if isinstance(evidence, int) and not isinstance(evidence, bool) else NONE),
        ("First Seen", first_seen if isinstance(first_seen, str) else NONE),
    ]
    yield '<section id="stats" class="stats">'
    for name, value in values:
        yield f'<div class="stat"><span class="value">{text(value)}</span><span class="name">{name}</span></div>'
    yield "</section>"


def _versions(entry: Mapping[str, Any]) -> Iterator[str]:
    rows = _dicts(entry.get("versions"))
    if not rows:
        return
    columns = [("version", "Version"), ("status", "Status"), ("introduced", "Introduced"),
               ("deprecated", "Deprecated"), ("removed", "Removed"), ("behavior_change", "Notes")]
    yield '<section id="versions"><h2>Version Compatibility</h2><table>'
    yield "<thead><tr>" + "".join(f"<th>{title}</th>" for _, title in columns) + "</tr></thead><tbody>"
    for row in rows:
        cells = []
        for key, _ in columns:
            value = text(_scalar(row.get(key)))
            shown = f"<code>{value}</code>" if key == "version" and value != NONE else value
            cells.append(f"<td>{shown}</td>")
        yield "<tr>" + "".join(cells) + "</tr>"
    yield "</tbody></table></section>"


def _root_cause(entry: Mapping[str, Any], locales: Sequence[str]) -> Iterator[str]:
    root_cause = _string(entry, "root_cause")
    if root_cause is None:
        return
    yield '<section id="root-cause"><h2>Root Cause</h2>'
    yield _paragraph(root_cause)
    kind = _string(entry, "root_cause_type")
    if kind:
        yield f'<p class="kind"><span class="badge">{text(kind)}</span></p>'
    for code in locales:
        translated = _string(entry, f"root_cause_{code}")
        if translated is not None:
            yield f'<h3 lang="{_lang(code)}">{text(locale_name(code))} ({text(code)})</h3>'
            yield _paragraph(translated, lang=code)
    yield "</section>"


def _documentation(entry: Mapping[str, Any]) -> Iterator[str]:
    url = _string(entry, "official_doc_url")
    if not url:
        return
    yield '<section id="official-documentation"><h2>Official Documentation</h2>'
    section = _string(entry, "official_doc_section")
    yield f"<p>{_link(url)}{f' — {text(section)}' if section else ''}</p>"
    yield "</section>"


def _item(item: Mapping[str, Any], rate_key: str, kind: str) -> Iterator[str]:
    rate = percent(item.get(rate_key))
    action = _string(item, "action") or ""
    yield "<li>"
    badge = f'<span class="rate {kind}">{text(rate)} {kind}</span>'
    yield f'<p class="head">{badge}<span class="text">{text(action)}</span></p>'
    if kind == "fail" and _string(item, "why_fails"):
        yield _paragraph(item["why_fails"], "why text")
    if kind == "success" and _string(item, "how"):
        yield _code_block(item["how"], "how")
    for key, label, css in _ITEM_NOTES:
        value = _string(item, key)
        if value:
            yield _labelled(label, f'<span class="text">{text(value)}</span>', css)
    yield from _sources(item)
    yield "</li>"


def _translated_list(entry: Mapping[str, Any], field: str, code: str, heading: str, level: int) -> Iterator[str]:
    steps = entry.get(f"{field}_{code}")
    if not isinstance(steps, list):
        return
    yield f'<section id="{field.replace("_", "-")}-{_anchor(code)}" lang="{_lang(code)}">'
    yield f"<h{level}>{text(heading)}</h{level}>"
    yield '<ol class="translated">'
    yield from (f'<li class="text">{text(step)}</li>' for step in _strings(steps))
    yield "</ol></section>"


def _workarounds(entry: Mapping[str, Any], locales: Sequence[str]) -> Iterator[str]:
    yield '<section id="workarounds"><h2>Workarounds</h2><ol class="items">'
    for item in _dicts(entry.get("workarounds")):
        yield from _item(item, "success_rate", "success")
    yield "</ol></section>"
    for code in locales:
        yield from _translated_list(entry, "workarounds", code, steps_heading(code), 2)


def _dead_ends(entry: Mapping[str, Any], locales: Sequence[str]) -> Iterator[str]:
    yield '<section id="dead-ends"><h2>Dead Ends</h2><p>Common approaches that don\'t work:</p><ol class="items">'
    for item in _dicts(entry.get("dead_ends")):
        yield from _item(item, "fail_rate", "fail")
    yield "</ol>"
    for code in locales:
        yield from _translated_list(entry, "dead_ends", code, f"{locale_name(code)} ({code})", 3)
    yield "</section>"


def _related(entry: Mapping[str, Any]) -> Iterator[str]:
    graph = entry.get("transition_graph")
    if not isinstance(graph, Mapping):
        return
    groups = [(title, refs) for key, title in _GRAPH if isinstance(refs := graph.get(key), list) and refs]
    if not groups:
        return
    yield '<section id="related"><h2>Related Errors</h2>'
    for title, references in groups:
        yield f"<h3>{title}</h3><ul>"
        for reference in references:
            if isinstance(reference, str):
                yield f"<li><code>{text(reference)}</code></li>"
            elif isinstance(reference, Mapping):
                parts = [f"<code>{text(_scalar(reference.get('error_id')))}</code>"]
                probability = percent(reference.get("probability"))
                if probability != NONE:
                    parts.append(f'<span class="badge">{text(probability)}</span>')
                for key in ("condition", "distinction", "typical_delay"):
                    if _string(reference, key):
                        parts.append(f'<span class="text">{text(reference[key])}</span>')
                yield f"<li>{' — '.join(parts)}</li>"
        yield "</ul>"
    yield "</section>"


def _footer(entry: Mapping[str, Any]) -> Iterator[str]:
    dates = (("last_confirmed", "Last confirmed"), ("last_updated", "Last updated"))
    parts = [f"{label} {text(entry[key])}" for key, label in dates if isinstance(entry.get(key), str)]
    tags = _strings(entry.get("tags"))
    if tags:
        parts.append("Tags " + " ".join(f'<span class="badge">{text(tag)}</span>' for tag in tags))
    if parts:
        yield f"<footer>{' · '.join(parts)}</footer>"


def render_html(entry: Mapping[str, Any], locales: Sequence[str] = ("zh",)) -> str:
    """The entry as one HTML page; translations shown for `locales` where present."""
    signature = (_string(entry, "signature") or "").strip().split("\n")[0]
    title = " — ".join(part for part in (signature[:120], _string(entry, "id")) if part) or "entry"
    language = _string(entry, "locale") or "en"
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_lang(language)}">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{text(title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        '<main class="entry">',
        *_header(entry, locales),
        *_regex(entry),
        *_stats(entry),
        *_versions(entry),
        *_root_cause(entry, locales),
        *_documentation(entry),
        *_workarounds(entry, locales),
        *_dead_ends(entry, locales),
        *_related(entry),
        *_footer(entry),
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"
