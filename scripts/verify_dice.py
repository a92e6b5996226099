#!/usr/bin/env python3
"""Recompute mornbot's dice (RULINGS S14) from a revealed seed.

    python3 scripts/verify_dice.py SEED_HEX COMMITMENT GAME TURN NAME SIDES

prints whether the seed matches the commitment and the value drawn.
Standard library only: hashlib, hmac, struct.
"""
import hashlib, hmac, struct, sys

DOMAIN = b"mornbot-dice-v1\x00"

def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()

def draw(seed: bytes, game: str, turn: int, name: str, sides: int) -> int:
    g, n = game.encode(), name.encode()
    limit = 2**64 - (2**64 % sides)        # reject the biased tail: no modulo bias
    counter = 0
    while True:
        msg = (DOMAIN + struct.pack(">I", len(g)) + g + struct.pack(">Q", turn)
               + struct.pack(">I", len(n)) + n + struct.pack(">II", sides, counter))
        x = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % sides + 1           # faces 1..sides
        counter += 1

if __name__ == "__main__":
    seed_hex, commit, game, turn, name, sides = sys.argv[1:7]
    seed = bytes.fromhex(seed_hex)
    print("commitment", "OK" if commitment(seed) == commit.lower() else "MISMATCH")
    print(name, "d%s" % sides, "=", draw(seed, game, int(turn), name, int(sides)))
