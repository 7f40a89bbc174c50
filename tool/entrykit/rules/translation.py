"""ET3xx: translations of an entry's fields (settings shared by the translation rules)."""

from __future__ import annotations

from ..registry import Option, section

section(
    "translation",
    {
        "required": Option(
            ["zh"],
            "Locales every entry must be translated into (babel form: `zh`, `ja`, `pt_BR`).",
            type=list,
            items=str,
        ),
        "fields": Option(
            ["signature", "root_cause", "workarounds"],
            "Fields that are translated; a list field's translation holds one string per item.",
            type=list,
            items=str,
        ),
    },
    "Which locales and fields translations are required for.",
)
