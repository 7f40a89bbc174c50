"""Translated fields: locales, writing systems, preserved tokens, coverage and fingerprints."""
