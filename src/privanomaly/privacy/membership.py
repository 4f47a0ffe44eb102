"""Which records are public: a keyed hash of each record's own raw content, decided record by record.

A record (its raw feature values as float64, after column selection and before any fitted step, and its
label) is public iff ``h_seed(record) < fraction · 2^64``, with ``h_seed`` a keyed 64-bit mix of the record's
bits (SplitMix64's finaliser, a bijection of 64-bit words, chained over the columns; the key is the config
seed, ``privacy.public_split.seed``). Membership is a function of the record alone, so adding, removing or
substituting one record never changes whether *another* record is public, and neither the dataset's size nor
its order enters. Equal records (duplicates: the same values, the same label) hash alike: all copies are
public or all are private. ``-0.0`` is read as ``0.0`` and every NaN (a missing value) as one NaN, so equal
values give equal hashes.

The public part is put in a canonical order (by hash, then by content), so every quantity fitted on it is a
function of the multiset of public records alone - bit for bit, whatever the private records or the order
of the file. The hash is not a secret: anyone with the seed can tell which records are public, and public
records get no protection - the claim of a row built on this split holds for neighbours differing in one
record that hashes private (:data:`RELATION_TEXT`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["Membership", "record_hash", "public_mask", "split", "RELATION_TEXT", "threshold"]

_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CANON_NAN = np.float64("nan").view(np.uint64)

RELATION_TEXT = ("neighbours differ in one record whose keyed hash (config seed) marks it private; "
                 "records hashed public are public data, unprotected")


def _mix(h: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser (a bijection of uint64, wrapping arithmetic)."""
    h = (h ^ (h >> np.uint64(30))) * _M1
    h = (h ^ (h >> np.uint64(27))) * _M2
    return h ^ (h >> np.uint64(31))


def _bits(X: np.ndarray) -> np.ndarray:
    """The float64 cells as uint64 words: -0.0 read as 0.0, every NaN as one NaN."""
    X = np.asarray(X, dtype=np.float64)
    X = np.where(X == 0.0, 0.0, X)  # -0.0 -> 0.0
    b = X.view(np.uint64).copy()
    b[np.isnan(X)] = _CANON_NAN
    return b


def record_hash(X: np.ndarray, y: np.ndarray, seed: int) -> np.ndarray:
    """h_seed of every record (row of ``X`` with its label ``y``): uint64, one per record (module docstring)."""
    X = np.atleast_2d(np.asarray(X, dtype=np.float64))
    n, d = X.shape
    if len(y) != n:
        raise ValueError(f"record_hash: {n} records and {len(y)} labels")
    with np.errstate(over="ignore"):
        key = _mix(np.uint64(int(seed) % 2**64) ^ _GOLDEN)
        h = np.full(n, _mix(key + np.uint64(d)), dtype=np.uint64)
        cols = np.concatenate([_bits(X), np.asarray(y, dtype=np.int64).astype(np.uint64)[:, None]], axis=1)
        for j in range(d + 1):  # a loop over columns, vectorised over records
            h = _mix(h ^ _mix(cols[:, j] + _GOLDEN * np.uint64(j + 1)))
    return h


def threshold(fraction: float) -> int:
    """floor(fraction · 2^64), exactly: a record is public iff its hash is below it."""
    if not 0 < float(fraction) < 1:
        raise ValueError(f"privacy.public_split.fraction: expected a number in (0, 1), got {fraction!r}")
    return int(Fraction(float(fraction)) * 2**64)


def public_mask(X: np.ndarray, y: np.ndarray, seed: int, fraction: float) -> np.ndarray:
    """True where the record is public (its hash below :func:`threshold`)."""
    return record_hash(X, y, seed) < np.uint64(threshold(fraction))


@dataclass(frozen=True)
class Membership:
    """Row positions of the public part (canonical order: by hash, then content) and of the private part
    (file order); ``seed`` and ``fraction`` as configured."""

    public: np.ndarray
    private: np.ndarray
    seed: int
    fraction: float
    relation: str = RELATION_TEXT

    def describe(self) -> str:
        """The split as public text (no count of the private part: under add/remove that count is private)."""
        return (f"public part: the {len(self.public)} records whose keyed hash (seed {self.seed}) falls below "
                f"fraction {self.fraction:g} (per record; duplicates share it)")


def split(X: np.ndarray, y: np.ndarray, seed: int, fraction: float, min_public: int = 2,
          min_private: int = 2) -> Membership:
    """The per-record split of ``(X, y)`` (module docstring); an error naming the config key when either part
    is too small."""
    h = record_hash(X, y, seed)
    pub = np.flatnonzero(h < np.uint64(threshold(fraction)))
    priv = np.flatnonzero(h >= np.uint64(threshold(fraction)))
    if len(pub) < min_public or len(priv) < min_private:
        raise ValueError(f"privacy.public_split (fraction {fraction}, seed {seed}): {len(pub)} public and "
                         f"{len(priv)} private records of {len(h)}; need >= {min_public} public and >= {min_private} "
                         "private (raise or lower the fraction)")
    X2 = np.atleast_2d(np.asarray(X, dtype=np.float64))
    b = _bits(X2[pub])
    keys = [np.asarray(y)[pub].astype(np.int64)] + [b[:, j] for j in range(b.shape[1] - 1, -1, -1)] + [h[pub]]
    order = np.lexsort(keys)  # last key primary: the hash, then the content
    return Membership(pub[order], priv, int(seed), float(fraction))
