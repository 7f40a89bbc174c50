"""Every rule family; importing this package registers all rules."""

from entrykit.rules import (
    content,  # noqa: F401
    identity,
    load,
    regex,
    schema,
    translation,
    versions,
)
