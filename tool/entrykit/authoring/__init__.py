"""Writing entries: scaffolding, the formatter, merging, rendering pages and importers."""
