"""`python -m entrykit` runs the command line."""

from .cli import main

main()
