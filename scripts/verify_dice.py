#!/usr/bin/env python3
"""Recompute mornbot's dice (RULINGS S14) from a revealed seed.

    python3 scripts/verify_dice.py SEED_HEX COMMITMENT GAME TURN NAME SIDES

prints whether the seed matches the commitment and the value drawn.

    python3 scripts/verify_dice.py SEED_HEX COMMITMENT GAME deck

prints One Day in London's deck (oneday-shuffle/1, RULINGS OD5): the card
numbers 1-72 in the order the game's seed shuffled them, top first.
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

def shuffle(seed: bytes, game: str, turn: int, prefix: str, cards: list) -> list:
    # oneday-shuffle/1: Fisher-Yates, i from n-1 down to 1, swapping i with
    # the face of draw "<prefix>-<i>" (sides i + 1) less one.
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = draw(seed, game, turn, "%s-%d" % (prefix, i), i + 1) - 1
        cards[i], cards[j] = cards[j], cards[i]
    return cards

if __name__ == "__main__":
    seed_hex, commit, game = sys.argv[1:4]
    seed = bytes.fromhex(seed_hex)
    print("commitment", "OK" if commitment(seed) == commit.lower() else "MISMATCH")
    if sys.argv[4:] == ["deck"]:
        print("deck", " ".join(str(c) for c in shuffle(seed, game, 0, "deck", range(1, 73))))
    else:
        turn, name, sides = sys.argv[4:7]
        print(name, "d%s" % sides, "=", draw(seed, game, int(turn), name, int(sides)))
