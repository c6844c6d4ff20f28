"""Examples: a fair deal's commitment, a contributed seed and the reveal (section 14's worked example)."""

from __future__ import annotations

from boneyard.protocol.spec.examples.base import Example, command, server

SERVER_SEED = bytes(range(32)).hex()
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
ANA_SEED = "a1" * 32
LI_SEED = "5e" * 32
GAME = {"table_id": "t7k2", "game_number": 1, "algorithm": "boneyard-deal/1", "commitment": COMMITMENT}
"""What the commitment and the reveal share."""

DEAL_EXAMPLES: tuple[Example, ...] = (
    server(
        "`deal_commitment`: ana (seat 0) and li (seat 2) may send seeds",
        type="deal_commitment",
        seq=14,
        **GAME,
        seats=[0, 2],
        wait_ms=1000,
    ),
    command("`contribute_seed`", type="contribute_seed", id=8, table_id="t7k2", seed=ANA_SEED),
    server("`seed_contributed`", type="seed_contributed", seq=15, table_id="t7k2", seat=0, seed=ANA_SEED),
    server(
        "`deal_revealed` after `game_over`",
        type="deal_revealed",
        seq=212,
        **GAME,
        server_seed=SERVER_SEED,
        player_seeds=[ANA_SEED, None, LI_SEED],
        record_id="r9x4",
    ),
)
