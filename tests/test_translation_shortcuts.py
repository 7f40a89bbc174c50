"""Shortcuts of the translation checks give what the plain checks give: a number found
verbatim without its matcher, letter checks that read only non-ASCII characters, ordinary
words found by bisecting the token spans, script and letter checks of a translation
whose tokens cannot hold what they read made without a scan."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt
from entrykit.translation import languages, locales, writing_systems
from entrykit.translation import preserved_tokens as pt
from entrykit.translation import translated_fields as tf

from .conftest import FIXTURES, REPO

_NUMERALS = st.from_regex(r"[0-9]{1,4}(?:[.,][0-9]{1,3}){0,2}", fullmatch=True)
_AROUND = st.sampled_from(["", " ", ".", ",", "0", "7", "a", "GB", "x", "中", "：", "\u00a0", "'", "-", "1.", ".5"])


def _kept_by_matcher(folded: str, token: pt.Token) -> bool:
    """`_kept` of a number as it was: every word run present, then the number's matcher."""
    text, runs, _ = pt._literal(token.text)
    if not text or any(run not in folded for run in runs):
        return False if text else pt._matcher(token.kind, token.text).search(folded) is not None
    return pt._matcher(token.kind, token.text).search(folded) is not None


@settings(max_examples=400, deadline=None)
@given(_NUMERALS, st.lists(st.one_of(_AROUND, _NUMERALS), max_size=8), st.sampled_from([pt.NUMBER, pt.QUANTITY]))
def test_a_number_found_verbatim_is_what_its_matcher_finds(number: str, pieces: list[str], kind: str) -> None:
    for translation in ("".join(pieces), "".join(pieces[:3]) + number + "".join(pieces[3:])):
        folded = pt.fold(translation)
        token = pt.Token(kind, number, 0, len(number))
        assert pt._kept(folded, token) == _kept_by_matcher(folded, token), (number, translation)


def _foreign_by_character(text: str, language: str) -> list[str]:
    found: list[str] = []
    alphabet = languages.CYRILLIC_ALPHABETS.get(language)
    charset = languages._HAN_CHARSETS.get(language)
    for char in text:
        if char not in found and languages._foreign(char, language, alphabet, charset):
            found.append(char)
    return found


def _lacks_kana_by_character(text: str, language: str) -> int:
    if language not in languages._WITH_KANA or any(languages._is_kana(c) for c in text):
        return 0
    count = sum(1 for c in text if languages._is_han(c))
    return count if count >= languages.KANA_FREE_HAN_LIMIT else 0


_LETTERS = st.text(alphabet=st.sampled_from(list("ab1 .,:ыіїёєъэўђјљ们这说日本語のカナｱ中文字한국어") + ["\u3000", "é"]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(_LETTERS, st.sampled_from(["ru", "uk", "be", "bg", "sr", "mk", "ja", "zh", "yue", "ko", "en"]))
def test_letter_checks_read_only_what_can_be_foreign(text: str, language: str) -> None:
    assert languages.foreign_letters(text, language) == _foreign_by_character(text, language)
    assert languages.lacks_kana(text, language) == _lacks_kana_by_character(text, language)


def _ordinary_words_by_any(text: str) -> list[str]:
    spans = [(t.start, t.end) for t in mt.scan(text)]
    out: list[str] = []
    for match in tf._ASCII_WORD.finditer(text):
        if any(start <= match.start() < end for start, end in spans):
            continue
        word = match.group().casefold()
        if word not in out:
            out.append(word)
    return out


_WORDS = st.sampled_from(
    ["the", "file", "Run", "'x y'", "`a b`", "torch.cuda", "E0382", "--flag", "a/b.py", " ", ", ", "中文", "f()", "HEAD~1",
     "snake_case", "ID", "12", "v1.2.3", "\"q r\"", "(", ")"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=20))
def test_ordinary_words_skip_exactly_the_words_inside_tokens(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert tf.ordinary_words(text) == _ordinary_words_by_any(text)


def _all_tokens(tokens: tuple[mt.Token, ...]) -> list[mt.Token]:
    return [t for token in tokens for t in (token, *_all_tokens(token.inner))]


# Quotes of every style, shapes of other scripts' digits and spaces, and script letters
# around ASCII tokens: every way a token can hold a character outside ASCII, and text
# that holds such characters outside tokens.
_TRANSLATED = st.sampled_from(
    ["名前", "の", "モジュール", "ыі", "한국어", "हिन्दी", "عربي", "ελληνικά", " ", "：", "，", "foo.py", "'numpy'", "'名前'",
     "「名前」", "『x』", "«ы»", "‘a’", "“b c”", "„d“", "‹e›", "`code`", "`名 前'", '"x"', "[1, 2]", "[١, ٢]", "[१,\u3000२]",
     "٣x٤", "３×４", "2x3", "१", "\u3000", "\u00a0", "×", "E0382", "--flag", "v1.2.3", "0x1f", "CUDA", "12", "(", ")",
     "\n", "'", '"', "`", "「", "」", "’", "”", "“", "»", "it's", "a'b", "$X"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_TRANSLATED, max_size=16))
@example(["「名前」"])
@example(["[१,\u3000२]"])
@example(["٣x٤"])
def test_ascii_tokens_means_no_token_holds_a_character_outside_ascii(pieces: list[str]) -> None:
    text = "".join(pieces)
    if mt.ascii_tokens(text):
        assert all(t.text.isascii() for t in _all_tokens(mt.scan(text))), text


def test_ascii_tokens_tells_apart_each_way_a_token_holds_other_characters() -> None:
    for text in ("「名前」です", "`名前`", "形状 [१, २]", "形状 ٣x٤", "[1,\u30002]", "3×4"):
        assert not mt.ascii_tokens(text)
        assert not all(t.text.isascii() for t in _all_tokens(mt.scan(text))), text
    assert mt.ascii_tokens("モジュール foo.py がありません (GPU 0; 7.79 GiB)")
    assert mt.ascii_tokens("错误：RuntimeError: 'alpha_checkpoint' on device 2\n名前 `x`")
    assert not mt.ascii_tokens("错误：'alpha_checkpoint' 「名前」 on device 2")


@settings(max_examples=300, deadline=None)
@given(st.lists(_TRANSLATED, max_size=16))
def test_a_quoted_token_opens_and_closes_with_the_quotes_ascii_tokens_knows(pieces: list[str]) -> None:
    for token in _all_tokens(mt.scan("".join(pieces))):
        if token.quote:
            assert token.text[0] in mt._QUOTE_OPENERS and token.text[-1] in mt._QUOTE_CLOSERS, token
            assert "\n" not in token.text


_SCRIPTS = ["Jpan", "Hans", "Hant", "Kore", "Cyrl", "Deva", "Arab", "Grek", "Zyyy"]


def _script_checks(kept: str) -> list[object]:
    return [
        *(writing_systems.has_script(kept, code) for code in _SCRIPTS if writing_systems.outside_ascii(code)),
        *(languages.foreign_letters(kept, language) for language in ("ru", "uk", "sr", "ja", "zh")),
        languages.lacks_kana(kept, "ja"),
    ]


@settings(max_examples=500, deadline=None)
@given(st.lists(_TRANSLATED, max_size=16))
def test_the_script_checks_read_the_same_of_a_text_stripped_or_not(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _script_checks(pt.strip_outside_ascii(text)) == _script_checks(pt.strip(text)), text


def test_of_the_scripts_checked_common_alone_holds_ascii_characters() -> None:
    assert not writing_systems.outside_ascii("Zyyy")
    assert all(writing_systems.outside_ascii(code) for code in _SCRIPTS if code != "Zyyy")


def _missing_script_by_strip(locale: str, source: str, text: str) -> str | None:
    """`missing_script` as it was: the script looked for in the text with every token stripped."""
    code = locales.script(locale) if locales.is_valid(locale) else None
    if code is None or writing_systems.is_latin(code) or not writing_systems.knows(code):
        return None
    if tf.is_empty(text) or not pt.has_words(source) or tf.is_copy(source, text):
        return None
    return None if writing_systems.has_script(pt.strip(text), code) else code


def _real_translations() -> list[tuple[str, str, str]]:
    """(locale, source, translation) of the project's entries and of the translation
    fixtures: correct ones (a key per locale) and faulty ones (`locale` and `text`)."""
    found: list[tuple[str, str, str]] = []
    for path in sorted((REPO / "entries").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for key in tf.keys(data, tf.Settings()):
            found += [(key.locale, pair.source, pair.text) for pair in tf.pairs(data, key)]
    for name in ("correct.yaml", "faulty.yaml"):
        for item in yaml.safe_load((FIXTURES / "translations" / name).read_text(encoding="utf-8")):
            source = str(item["source"])
            if "locale" in item:
                found.append((str(item["locale"]), source, str(item["text"])))
            found += [(locale, source, item[locale]) for locale in ("zh", "ja", "ko") if isinstance(item.get(locale), str)]
    return found


def test_the_real_translations_get_the_verdicts_of_the_stripped_text() -> None:
    found = _real_translations()
    assert len(found) >= 100
    assert sum(not mt.ascii_tokens(text) for _, _, text in found) >= 5  # both ways are tried
    for locale, source, text in found:
        pair = tf.Pair(tf.Key(f"signature_{locale}", "signature", locale), None, "", "", source, text)
        assert tf.missing_script(pair) == _missing_script_by_strip(locale, source, text)
        assert _script_checks(pt.strip_outside_ascii(text)) == _script_checks(pt.strip(text))


def test_ordinary_words_read_between_tokens_and_around_a_word_that_runs_into_one() -> None:
    texts = [
        "foo`bar` baz",  # a letter right before a token: the long way
        "see the/path/x.py here and there",
        "Run 'x y' then f() or torch.cuda, E0382 and --flag",
        "at HEAD~1 the file`a b`is",
        "",
        "中文 the file",
    ]
    for text in texts:
        assert tf.ordinary_words(text) == _ordinary_words_by_any(text), text


def test_ordinary_words_take_the_long_way_where_a_letter_precedes_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[str] = []
    long_way = tf._ordinary_words_between

    def spy(text: str, tokens_found: tuple[mt.Token, ...]) -> tuple[str, ...]:
        taken.append(text)
        return long_way(text, tokens_found)

    monkeypatch.setattr(tf, "_ordinary_words_between", spy)
    tf._ordinary_words.cache_clear()
    assert tf.ordinary_words("foo`bar` baz qux") == ["foo", "baz", "qux"]
    assert tf.ordinary_words("see the/path/x.py here") == ["see", "here"]
    assert taken == ["foo`bar` baz qux"]



def test_a_translation_is_folded_once_for_the_copy_check_et305_and_et308() -> None:
    from entrykit.similarity import phrases

    text = "错误：运行时错误，'alpha_extension' 的形状为 [100，256]（device 5）"
    pair = tf.Pair(tf.Key("signature_zh", "signature", "zh"), None, "", "", "RuntimeError: 'alpha_extension' has shape [100, 256] on device 5", text)
    phrases.folded.cache_clear()
    phrases.normalize_phrase.cache_clear()
    tf._copy_key.cache_clear()
    tf.is_copy(pair.source, pair.text)
    tf.lost_tokens(pair)
    tf.untranslated_words(pair)
    # the translation, once (the copy check tells an ASCII source from a Han text without folding either)
    assert phrases.folded.cache_info().misses == 1
    assert phrases.folded.cache_info().hits >= 1


def _preserved_by_walk(text: str) -> list[tuple[str, str, int, int]]:
    """The preserved tokens as `message_tokens.walk` reads them."""
    out = []
    for token in mt.walk(mt.scan(text), lambda t: t.kind == pt.QUOTED and not _kept_whole_by_character(t.value)):
        if token.kind in (pt.QUOTED, pt.CODE, pt.ACRONYM, pt.QUANTITY, pt.IDENTIFIER):
            value = token.value.strip() if token.kind == pt.CODE else token.value
        else:
            value = token.text
        if value:
            out.append((token.kind, value, token.start, token.end))
    return out


def _kept_whole_by_character(content: str) -> bool:
    return bool(content) and not any(c.isspace() for c in content) and not pt._NAME.fullmatch(content)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(_WORDS, _TRANSLATED), max_size=16))
@example(["'x y'", "`a b`", "'名前'", "“b c”"])
def test_preserved_tokens_are_those_walk_reads(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert [(t.kind, t.text, t.start, t.end) for t in pt.extract(text)] == _preserved_by_walk(text), text


def test_a_quoted_text_is_kept_whole_unless_a_character_of_it_is_a_space() -> None:
    for code in range(0x110000):
        char = chr(code)
        for content in (char, f"a{char}b"):
            assert pt.kept_whole(content) == _kept_whole_by_character(content), hex(code)
    assert not pt.kept_whole("")
    assert not pt.kept_whole("Taiwan")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(_WORDS, _TRANSLATED), max_size=16))
@example(["E0382"])
@example(["the", "--flag"])
@example(["--flag", "中"])
def test_has_words_reads_what_strip_leaves(pieces: list[str]) -> None:
    text = "".join(pieces)
    pt.has_words.cache_clear()
    assert pt.has_words(text) == (pt._WORD.search(pt.strip(text)) is not None), text


def test_a_gloss_in_parentheses_is_no_untranslated_word() -> None:
    source = "The user name is not valid for this server"
    for text, kept in [
        ("用户名(user name)对此服务器无效", []),
        ("用户名（user name）对此 server 无效", ["server"]),  # full width, folded
        ("用户名 (user name) 对此服务器无效", ["user", "name"]),  # no gloss: a space before it
        ("user name 对此服务器无效", ["user", "name"]),
    ]:
        pair = tf.Pair(tf.Key("signature_zh", "signature", "zh"), None, "", "", source, text)
        found = tf.untranslated_words(pair)
        assert found is not None and found[0] == kept, text
