"""`python -m entrykit` runs the command line."""

from entrykit.cli import run

run()
