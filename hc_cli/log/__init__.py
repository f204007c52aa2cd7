"""The log: one hash-chained JSON line per resolution, and `hc replay`."""
