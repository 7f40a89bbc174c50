"""Every rule family. Importing this package registers every rule with `entrykit.registry`
(the lint engine and `entrykit rules` do; reading a configuration never does)."""

from entrykit.rules import content, identity, load, regex, regex_hygiene, schema, translation, versions

# In the order of their codes: ET0xx load ... ET6xx content.
FAMILIES = (load, schema, regex, regex_hygiene, translation, versions, identity, content)
