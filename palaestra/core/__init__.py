"""The core: the game protocol, records, the registry and the errors."""
