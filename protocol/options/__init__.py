"""Each game's table options, one module per game (``moon``, ``straight``, ``texas42``): values only, no
messages, so that the rules engines (``server/games``) play by the same model the wire validates.

A game's options model is the one definition of its options: every default, limit and refusal in words
is its field's; the wire module of the game (``protocol/<game>.py``) re-exports it, and the engine, the
table listing (``TableInfo.options``), the record and the spec all take it from there
(``GameOptions.as_dict``, ``GameOptions.fixed_players``: ``boneyard.protocol.values``)."""
