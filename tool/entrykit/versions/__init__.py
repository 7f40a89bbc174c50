"""Version tables: package names and version schemes, specifiers, rows as people type them."""
