"""A lint run: the engine, the per-file pipeline, the cache, suppressions, fixes and reporters."""
