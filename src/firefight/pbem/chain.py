"""A player's SHA-256 hash chain: the secret seed, the anchor he commits to, the elements he
reveals one by one walking back along the chain (docs/pbem.md, "The hash chains").

``c0 = SHA-256(seed)``, ``c(k) = SHA-256(c(k-1))``, the **anchor** is ``c(length)``. The element
revealed for resolution ``i`` (1, 2, …) is ``c(length - i)``: it hashes to the one revealed
before it (the anchor for ``i = 1``), and nobody can compute it from what was revealed before
(that would invert SHA-256). The seed itself is revealed when the game ends; ``length + 1``
hashes of it give the anchor.
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BYTES = 32
"""A seed is 256 random bits (``secrets.token_bytes``)."""
DEFAULT_LENGTH = 1000
"""Resolutions a game can hold by default: each takes one element of each player's chain.
Walking the chain costs one hash an element; a longer game asks for more (``--length``)."""
MAX_LENGTH = 1_000_000


def sha(data: bytes) -> bytes:
    """SHA-256."""
    return hashlib.sha256(data).digest()


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's generator."""
    return secrets.token_bytes(SEED_BYTES)


def element(seed: bytes, length: int, index: int) -> bytes:
    """The element revealed for resolution ``index``: ``c(length - index)``; ``index = 0`` is the
    anchor itself."""
    if not 0 <= index <= length:
        msg = f"index {index} outside the chain of {length}"
        raise ValueError(msg)
    value = sha(seed)
    for _ in range(length - index):
        value = sha(value)
    return value


def anchor(seed: bytes, length: int) -> bytes:
    """The anchor of the chain from ``seed``: what a player commits to."""
    return element(seed, length, 0)


def follows(revealed: bytes, before: bytes) -> bool:
    """Whether ``revealed`` is the element just before ``before`` on a chain (hashes to it)."""
    return sha(revealed) == before


def seed_reaches(seed: bytes, length: int, anchor_value: bytes) -> bool:
    """Whether ``seed`` is the seed of the chain whose anchor is ``anchor_value``."""
    return element(seed, length, 0) == anchor_value
