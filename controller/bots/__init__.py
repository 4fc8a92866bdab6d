"""Computer players. Bots see only what their seat may see (a game's ``view`` and ``legal``)."""
