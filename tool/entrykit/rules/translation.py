"""ET3xx: translations of an entry's fields are there, are translations, and are current."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from entrykit import pointer as jp
from entrykit.deferred import deferred
from entrykit.diagnostic import Finding, Severity
from entrykit.entry import Entry
from entrykit.registry import Context, Option, PerEntry, rule
from entrykit.spelling import HINTED_PER_ENTRY
from entrykit.translation import preserved_tokens as tokens

if TYPE_CHECKING:
    from entrykit.translation import locales
    from entrykit.translation import translated_fields as translated
    from entrykit.translation.translated_fields import Key, Settings
else:  # loaded when a rule first runs: a run that takes every file from the cache never does
    locales = deferred("entrykit.translation.locales")
    translated = deferred("entrykit.translation.translated_fields")


def _settings(ctx: Context) -> Settings:
    return ctx.read("translation", _shared_settings)


# Every rule's context reads its own settings: equal ones are made the same object, so that
# the per-entry memos below match them by identity instead of comparing their fields.
_SETTINGS: dict[Settings, Settings] = {}


def _shared_settings(section: Mapping[str, Any]) -> Settings:
    """The settings of `section`, one object for all equal settings."""
    made = translated.Settings.from_section(section)
    return _SETTINGS.setdefault(made, made)


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _read_keys(entry: Entry, settings: Settings) -> tuple[tuple[Key, ...], tuple[Key, ...]]:
    every = tuple(translated.keys(entry.data, settings))
    return every, tuple(k for k in every if locales.is_valid(k.locale))


# The translated keys of an entry (all of them, and those of a valid locale): every rule reads them in turn.
_keys_of = PerEntry(_read_keys)


def _keys(entry: Entry, ctx: Context) -> tuple[Key, ...]:
    return _keys_of.get(entry, _settings(ctx))[0]


def _valid_keys(entry: Entry, ctx: Context) -> tuple[Key, ...]:
    return _keys_of.get(entry, _settings(ctx))[1]


def _read_pairs(entry: Entry, settings: Settings) -> tuple[translated.Pair, ...]:
    # A key whose locale ET306 rejects is checked no further until it is renamed.
    return tuple(pair for key in _keys_of.get(entry, settings)[1] for pair in translated.pairs(entry.data, key))


# The pairs of an entry: five rules read them in turn.
_pairs_of = PerEntry(_read_pairs)


def _pairs(entry: Entry, ctx: Context) -> tuple[translated.Pair, ...]:
    return _pairs_of.get(entry, _settings(ctx))


@rule("ET301", "missing-translation", severity=Severity.WARNING)
def missing_translation(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """A required locale lacks the translation of a translatable field.

    For every locale in `translation.required` and every field in
    `translation.fields` that holds text, the entry needs `<field>_<locale>`
    (one diagnostic per field and locale, at the source field). A key whose
    locale is the same once likely subtags are filled in counts (`signature_zh_CN`
    for `zh`); a locale that is the entry's own `locale` needs none. An empty
    translation, or an empty item of a list translation, is missing too.

    ## Why is this bad?
    Readers of the required languages find the entry but cannot read it; the
    corpus promises a translation it does not have.

    ## Example
    ```yaml
    signature: "RuntimeError: CUDA error: device-side assert triggered"
    root_cause: An index is out of range inside a CUDA kernel.
    root_cause_zh: CUDA 内核中的某个索引越界。
    ```

    ## Use instead
    ```yaml
    signature: "RuntimeError: CUDA error: device-side assert triggered"
    signature_zh: "RuntimeError: CUDA 错误：触发了设备端断言"
    root_cause: An index is out of range inside a CUDA kernel.
    root_cause_zh: CUDA 内核中的某个索引越界。
    ```
    """
    settings = _settings(ctx)
    data = entry.data
    own = translated.source_locale(data)
    for locale in settings.required:
        if locales.is_valid(own) and locales.same_locale(own, locale):
            continue
        for field in settings.fields:
            if not translated.has_source(data, field):
                continue
            if not translated.has_key_for(data, field, locale, settings):
                yield Finding(
                    jp.join(field),
                    f"`{field}` has no `{locale}` translation `{field}_{locale}`",
                    at_key=True,
                )
    for key in _valid_keys(entry, ctx):
        value = data.get(key.key)
        if isinstance(value, str) and translated.is_empty(value):
            yield Finding(key.pointer, f"`{key.key}` is empty")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, str) and translated.is_empty(item):
                    yield Finding(jp.join(key.key, index), f"`{key.key}` item {index + 1} is empty")


@rule("ET302", "untranslated-text")
def untranslated_text(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Translation is the source text again, not a translation.

    A translation that equals its source once width, case, spacing and final
    punctuation are normalised is reported, for any locale. A source that holds
    nothing to translate (only code, identifiers, numbers: `E0382`,
    `torch.cuda.OutOfMemoryError`) may be kept as it is.

    ## Why is this bad?
    The key promises a translation, so a presence check passes and renderers show
    a "中文" section, yet it is English: readers of the language get nothing and
    the gap never shows up as missing.

    ## Example
    ```yaml
    workarounds:
      - action: Load the same checkpoint on every rank
        success_rate: 0.9
    workarounds_zh:
      - Load the same checkpoint on every rank
    ```

    ## Use instead
    ```yaml
    workarounds_zh:
      - 在每个 rank 上加载同一个检查点
    ```
    """
    for pair in _pairs(entry, ctx):
        if not translated.is_empty(pair.text) and translated.is_copy(pair.source, pair.text):
            yield Finding(
                pair.pointer,
                f"{pair.label} `{_short(pair.text)}` is the untranslated source text",
            )


@rule("ET303", "translation-list-mismatch")
def translation_list_mismatch(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """A translated list has a different number of items than its source list.

    `workarounds_zh` holds one string per workaround (its `action`), in order;
    the same for `dead_ends_<locale>`.

    ## Why is this bad?
    Items are matched by position: with one missing or extra, every later
    translation sits beside the wrong workaround, and readers follow the wrong steps.

    ## Example
    ```yaml
    workarounds:
      - action: Remove extra wrappers before applying FSDP
        success_rate: 0.95
      - action: Initialise the model the same way on every rank
        success_rate: 0.85
    workarounds_zh:
      - 在应用 FSDP 之前移除额外的包装
    ```

    ## Use instead
    ```yaml
    workarounds_zh:
      - 在应用 FSDP 之前移除额外的包装
      - 在每个 rank 上以同样的方式初始化模型
    ```
    """
    for key in _valid_keys(entry, ctx):
        lengths = translated.list_lengths(entry.data, key)
        if lengths is not None and lengths[0] != lengths[1]:
            have, want = lengths
            yield Finding(
                key.pointer,
                f"`{key.key}` has {have} item{'s' if have != 1 else ''} but `{key.field}` "
                f"has {want}",
                at_key=True,
            )


@rule("ET304", "translation-wrong-script")
def translation_wrong_script(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Translation is not written in its locale's script, or in another language of it.

    The script comes from the locale (its script subtag, else babel's likely
    subtags: `zh` is Hans, `zh_Hant` Hant, `ja` Jpan (Han, Hiragana, Katakana),
    `ko` Kore, of which Hangul counts since Han alone is not modern Korean, `ru`
    Cyrillic). Preserved tokens (code, names,
    numbers, paths) are removed first; if nothing of the script is left, the
    text is not in that language. Latin-script locales are skipped, and so are
    sources with nothing to translate and exact copies of the source (ET302).

    A script shared by languages is told apart by letters one language never
    writes: kana in Chinese (it is Japanese), a Han character outside JIS X 0213
    in Japanese (simplified Chinese such as `们`, `这`), ten Han characters or
    more without a kana in Japanese (it is Chinese), and in Russian,
    Ukrainian, Belarusian, Bulgarian, Serbian and Macedonian a Cyrillic letter
    outside the language's alphabet (CLDR's exemplar characters: `і ї є ґ` are
    Ukrainian, `ы э ё` Russian, `ђ ј љ њ ћ џ` Serbian).

    ## Why is this bad?
    A `signature_ja` written in English (or in Korean) is no Japanese
    translation, yet it passes every presence check.

    ## Example
    ```yaml
    root_cause: The CUDA driver is older than the runtime PyTorch was built with.
    root_cause_ja: The driver is too old for this PyTorch build.
    ```

    ```yaml
    signature: "fatal: not a git repository"
    signature_ru: "fatal: не є репозиторієм git"
    ```

    ## Use instead
    ```yaml
    root_cause_ja: CUDA ドライバーが、PyTorch のビルドに使われたランタイムより古い。
    signature_ru: "fatal: не является репозиторием git"
    ```
    """
    for pair in _pairs(entry, ctx):
        found = translated.reading(pair)  # (read once for the three checks)
        if found is None:
            continue
        if not found.has_script:
            yield Finding(
                pair.pointer,
                f"{pair.label} `{_short(pair.text)}` has no {locales.script_name(found.script)} "
                f"(`{found.script}`) characters outside code and names",
            )
        elif foreign := translated.letters_not_written(found):
            language = locales.language_name(pair.key.locale)
            shown = ", ".join(f"`{c}`" for c in foreign[:5])
            yield Finding(pair.pointer, f"{pair.label} `{_short(pair.text)}` has letters {language} does not write: {shown}")
        elif han := translated.han_without_kana(found):
            language = locales.language_name(pair.key.locale)
            yield Finding(
                pair.pointer, f"{pair.label} `{_short(pair.text)}` has {han} Han characters and no kana, which {language} writes"
            )


@rule(
    "ET305",
    "translation-lost-token",
    severity=Severity.WARNING,
    options={
        "kinds": Option(
            list(tokens.DEFAULT_KINDS),
            "Kinds of preserved tokens that must survive translation.",
            kind=list,
            items=str,
            choices=tokens.KINDS,
            unique=True,
        )
    },
)
def translation_lost_token(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Translation lost a token of code or data that must survive translation verbatim.

    Tokens are taken from the source with the grammar of message tokens
    (`entrykit.message_tokens`): quoted names and values (`'model.fc.weight'`,
    `` `main' ``), class and exception names (`RuntimeError`), dotted and called
    identifiers (`torch.distributed.barrier()`), other identifiers
    (`map_location`, `sha256`), numbers and tensor shapes (`[100, 256]`, the `2`
    of `rank 2`), versions, hex addresses and ids, paths, git refs, URLs, e-mail
    addresses, variables, CLI flags (their own letters: `--width` of
    `--width=NUM`) and backticked code. Full-width punctuation counts as its
    ASCII form (`（FSDP）` keeps `FSDP`, `［100，256］` keeps `[100, 256]`),
    spaces may move around punctuation, digit grouping is free (`10,000` or
    `10000`), and a number may lose its unit (`16GB` keeps `16`).

    Words a translator may translate are no tokens by default: words in
    capitals (`ID`, `EOF`, `CPU`, `ERROR`), a flag's placeholder (`PAGE_WIDTH`
    of `-W PAGE_WIDTH`), one quoted capitalised word (`'Taiwan'`). A quoted text
    with spaces in it holds words too: the tokens inside it must survive, not
    the text as a whole. A term the project translates by its glossary
    (`translation.glossary`) is kept when an accepted translation stands instead.

    ## Why is this bad?
    Readers search their logs and code for these exact strings; a translated
    exception name, a changed shape or a dropped flag sends them looking for
    something that is not there.

    ## Example
    ```yaml
    signature: "RuntimeError: Expected parameter 'model.fc.weight' to have shape [100, 256]"
    signature_zh: "运行时错误：期望参数 model.fc.weight 的形状为 [100, 265]"
    ```

    ## Use instead
    ```yaml
    signature_zh: "RuntimeError: 期望参数 'model.fc.weight' 的形状为 [100, 256]"
    ```

    ## Options
    - `kinds` (list): which kinds to check, of the classes of message tokens:
      `url`, `email`, `code`, `quoted`, `path`, `ref`, `variable`, `flag`,
      `shape`, `hex`, `address`, `version`, `position`, `quantity`, `number`,
      `call`, `dotted`, `identifier`, `class`, `acronym`, `metavar`. The
      default is all but `acronym` and `metavar`; a corpus whose translators
      keep acronyms adds `acronym`.
    - `translation.glossary`: per locale, the translations a project accepts
      for a term (`glossary.zh = { HEAD = "头指针" }`).
    """
    kinds = frozenset(ctx.options["kinds"])  # (asked of every token of every pair)
    settings = _settings(ctx)
    for pair in _pairs(entry, ctx):
        lost = translated.lost_tokens(pair, kinds, settings)
        if lost:
            shown = ", ".join(f"`{t.text}`" for t in lost[:5])
            more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
            yield Finding(pair.pointer, f"{pair.label} lacks {shown}{more} from the source")


@rule(
    "ET308",
    "half-translated-text",
    severity=Severity.WARNING,
    options={
        "share": Option(
            0.6,
            "Share of the source's ordinary words that, reappearing in the translation, "
            "make it half-translated.",
            kind=float,
        )
    },
)
def half_translated_text(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Translation is the source with a few words translated: most of its words are still English.

    For a translation into a non-Latin script: the source's ordinary words
    (English words outside code, names, numbers, paths, flags and quoted text)
    are counted, and so are those of them that reappear in the translation. A
    source of at least three such words of which `share` or more reappear is
    reported. Exact copies are ET302's, texts without the script's letters
    ET304's; Latin-script locales are skipped, since their words may be English
    ones too.

    ## Why is this bad?
    A translation with one or two words replaced passes every presence and
    script check, yet its readers get the English message back.

    ## Example
    ```yaml
    signature: "fatal: unable to access the repository"
    signature_zh: "fatal: unable to 访问 the repository"
    ```

    ## Use instead
    ```yaml
    signature_zh: "fatal: 无法访问仓库"
    ```

    ## Options
    - `share` (float, default 0.6): the share of ordinary words left in English
      from which a translation is reported.
    """
    share = ctx.options["share"]
    for pair in _pairs(entry, ctx):
        found = translated.untranslated_words(pair)
        if found is None:
            continue
        kept, total = found
        if total >= translated.HALF_MINIMUM_WORDS and len(kept) >= share * total:
            shown = ", ".join(f"`{w}`" for w in kept[:5])
            more = f" and {len(kept) - 5} more" if len(kept) > 5 else ""
            yield Finding(
                pair.pointer,
                f"{pair.label} keeps {len(kept)} of the source's {total} words untranslated: {shown}{more}",
            )


@rule("ET306", "invalid-locale")
def invalid_locale(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Locale is not one babel knows, in babel's form.

    Checked: the `locale` field and the `<locale>` of every translated key
    (`signature_<locale>`, `root_cause_<locale>`, `workarounds_<locale>`,
    `dead_ends_<locale>`, and any configured field). Babel form joins subtags
    with `_` and spells them `zh`, `zh_Hant`, `pt_BR`. The message suggests what
    was probably meant: a region written as a language (`cn` -> `zh`,
    `zh_Hans_CN`), a language name (`chinese` -> `zh`), a hyphenated tag
    (`zh-CN` -> `zh_CN`), for the first 32 keys of an entry with an invalid
    locale. A key whose locale is rejected here is checked by no other
    translation rule until it is renamed.

    ## Why is this bad?
    Tools look translations up by locale: `signature_cn` is found by nobody who
    asks for Chinese, and the required `zh` translation still counts as missing.

    ## Example
    ```yaml
    locale: english
    signature_cn: "RuntimeError: CUDA 错误：触发了设备端断言"
    ```

    ## Use instead
    ```yaml
    locale: en
    signature_zh: "RuntimeError: CUDA 错误：触发了设备端断言"
    ```
    """
    value = entry.data.get("locale")
    if isinstance(value, str) and value:
        problem = locales.problem_with_hint(value)
        if problem:
            yield Finding("/locale", f"`locale` `{value}` {problem}")
    hinted = 0
    for key in _keys(entry, ctx):
        # (each hint compares the locale with every locale babel knows, about 5 ms)
        problem = locales.problem_with_hint(key.locale, with_hint=hinted < HINTED_PER_ENTRY)
        if problem:
            hinted += 1
            yield Finding(key.pointer, f"locale `{key.locale}` of `{key.key}` {problem}", at_key=True)



@rule("ET307", "stale-translation", severity=Severity.WARNING)
def stale_translation(entry: Entry, ctx: Context) -> Iterator[Finding]:
    """Translation was made from a source text that has changed since.

    Only with `translation.track_source = true`. Each translation records in
    `translated_from` a fingerprint of the source it was made from (8 hex
    digits of the SHA-256 of the source text, width and spacing normalised; one
    per item for lists). A fingerprint that no longer matches the source, or a
    translation with none recorded, is reported at the translation.

    ## Why is this bad?
    Sources get corrected (a new root cause, a safer workaround) while their
    translations keep the old text: readers of the translation follow advice the
    entry no longer gives, and nothing records that it is outdated.

    ## Example
    ```yaml
    root_cause: Parameter names differ across ranks.
    root_cause_zh: 各 rank 上的参数形状不同。
    translated_from:
      root_cause_zh: 5d41402a   # made from an earlier root_cause
    ```

    ## Use instead
    Update the translation, then record that it is current:
    ```sh
    entrykit translations --mark-current entries/pytorch/fsdp-parameter-mismatch.yaml
    ```

    ## Fix
    `entrykit translations --mark-current PATHS` rewrites `translated_from` with
    the fingerprints of the current sources, after a reviewer has checked the
    translations.
    """
    if not _settings(ctx).track_source:
        return
    for pair in _pairs(entry, ctx):
        recorded = translated.recorded_fingerprint(entry.data, pair)
        if recorded is None:
            yield Finding(pair.pointer, f"{pair.label} records no source fingerprint in `translated_from`")
        elif recorded != translated.fingerprint(pair.source):
            yield Finding(
                pair.pointer,
                f"{pair.label} was made from an earlier text of {pair.source_label} "
                f"(fingerprint `{recorded}`)",
            )
