"""Compare entrykit's Cyrillic alphabets with CLDR's exemplar characters as ICU has them.

    pip install pyicu   # not a dependency of entrykit: only this script uses it (it builds against libicu)
    python benchmarks/language_letters.py

For each language of `entrykit.translation.languages.CYRILLIC_ALPHABETS`: the
Cyrillic letters of CLDR's standard exemplar set that the table lacks or adds,
and the Cyrillic letters of CLDR's auxiliary set.
"""

from __future__ import annotations

import sys

from entrykit.translation.languages import CYRILLIC_ALPHABETS


def _cyrillic(unicode_set: object) -> set[str]:
    import icu

    return {str(c) for c in icu.UnicodeSetIterator(unicode_set) if len(str(c)) == 1 and "\u0400" <= str(c) <= "\u052f"}


def main() -> None:
    try:
        import icu
    except ImportError:
        sys.exit("PyICU is not installed")
    kinds = icu.ULocaleDataExemplarSetType
    print(f"ICU {icu.ICU_VERSION}")
    for language, letters in CYRILLIC_ALPHABETS.items():
        data = icu.LocaleData(language)
        standard = _cyrillic(data.getExemplarSet(0, kinds.ES_STANDARD))
        auxiliary = _cyrillic(data.getExemplarSet(0, kinds.ES_AUXILIARY))
        mine = set(letters)
        print(
            f"{language}: table lacks {sorted(standard - mine) or '-'}, adds {sorted(mine - standard) or '-'}; "
            f"auxiliary {sorted(auxiliary) or '-'}"
        )


if __name__ == "__main__":
    main()
