"""Shortcuts of the translation checks give what the plain checks give: a number found
verbatim without its matcher, letter checks that read only non-ASCII characters, ordinary
words found by bisecting the token spans."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit import message_tokens as mt
from entrykit.translation import languages
from entrykit.translation import preserved_tokens as pt
from entrykit.translation import translated_fields as tf

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
