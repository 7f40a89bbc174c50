"""Every rule family; importing this package registers all rules."""

from . import content, identity, load, regex, schema, translation, versions  # noqa: F401
