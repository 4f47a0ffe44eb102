"""Format-identical *stand-ins* for the two paper-A datasets that cannot be fetched offline.

Kaggle credit card (``creditcard.csv``, 284,807 x 31) and UCI APS (``aps+failure+at+scania+trucks.zip``,
training set 60,000 x 171) are not mirrored on the build machines. To prove the pipeline at their real size
without inventing their numbers, this module writes files of the *identical format* from a seed:

* credit card — quoted header ``"Time","V1",…,"V28","Amount","Class"``, unquoted numbers, quoted ``"0"``/``"1"``
  labels, 284,807 rows of which 492 are frauds, ``Time`` in seconds over two days (sorted, integers) and
  ``Amount`` in currency units (2 decimals, heavy-tailed), V1..V28 centred with decreasing spread
  (PCA-like) and frauds shifted in several components;
* APS — a zip holding ``aps_failure_training_set.csv`` (60,000 rows, 1,000 ``pos``) and
  ``aps_failure_test_set.csv`` (16,000 rows, 375 ``pos``), each starting with a 20-line preamble, then the
  header ``class,aa_000,…`` (170 attributes), non-negative integer counters, ``na`` for missing (several
  attributes mostly ``na``; one attribute constant, as in the public descriptions of the data).

The values are NOT the real data and are never to be reported as such: the APS preamble says so in the file,
the credit-card format has no room for a comment, so both live only in a stand-in mirror directory of the
scale run (``.scale/``), and every paper-A table/figure/claim built from them carries "stand-in data".
Files are byte-for-byte reproducible from the seed (the zip is stored uncompressed with fixed timestamps,
so its bytes do not depend on the zlib build), which lets the scale overlay pin their sha256.

Rule ``standin`` calls :func:`write_standin`; by hand: ``python -m privanomaly.datasets.standins creditcard OUT SEED``.
"""

from __future__ import annotations

import csv
import io as _io
import os
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from privanomaly.io import atomic_path
from privanomaly.seeding import rng as make_rng

# ---- credit card (Kaggle / ULB) ----
CREDITCARD_ROWS = 284_807
CREDITCARD_FRAUDS = 492
CREDITCARD_SECONDS = 172_792  # the last Time of the public file: two days of transactions
CREDITCARD_COLUMNS = ["Time", *[f"V{i}" for i in range(1, 29)], "Amount", "Class"]

# ---- APS Failure at Scania Trucks (UCI 421) ----
APS_MEMBER = "aps_failure_training_set.csv"
APS_TEST_MEMBER = "aps_failure_test_set.csv"
APS_TRAIN_ROWS, APS_TRAIN_POS = 60_000, 1_000
APS_TEST_ROWS, APS_TEST_POS = 16_000, 375
APS_PREAMBLE_LINES = 20
_APS_HISTOGRAMS = ("ag", "ay", "az", "ba", "cn", "cs", "ee")  # 10-bin histogram attributes xx_000..xx_009
_APS_SINGLE = (
    "aa ab ac ad ae af ah ai aj ak al am an ao ap aq ar as at au av ax bb bc bd be bf bg bh bi bj bk bl bm bn bo "
    "bp bq br bs bt bu bv bx by bz ca cb cc cd ce cf cg ch ci cj ck cl cm co cp cq cr ct cu cv cx cy cz da db dc "
    "dd de df dg dh di dj dk dl dm dn do dp dq dr ds dt du dv dx dy dz ea eb ec ed ef eg"
).split()
APS_MOSTLY_NA = ("ab_000", "bm_000", "bn_000", "bo_000", "bp_000", "bq_000", "br_000", "cr_000")
APS_CONSTANT = "cd_000"  # one attribute has a single value in every row


# The real header spells two single counters irregularly: ``am_0`` and ``ec_00`` (not am_000 / ec_000).
_APS_IRREGULAR = {"am": "am_0", "ec": "ec_00"}


def aps_attribute_names() -> list[str]:
    """The 170 APS attribute names in file order: single counters ``xx_000`` (``am_0`` and ``ec_00`` as in the
    real header) and 10-bin histograms ``xx_000..xx_009``."""
    names = []
    for prefix in sorted(set(_APS_SINGLE) | set(_APS_HISTOGRAMS)):
        if prefix in _APS_HISTOGRAMS:
            names += [f"{prefix}_{i:03d}" for i in range(10)]
        else:
            names.append(_APS_IRREGULAR.get(prefix, f"{prefix}_000"))
    if len(names) != 170:  # guards the hand-written list above
        raise AssertionError(f"expected 170 APS attributes, built {len(names)}")
    return names


def _label_positions(rng: np.random.Generator, n: int, n_pos: int) -> np.ndarray:
    """Boolean mask with exactly ``n_pos`` True at seeded random rows."""
    mask = np.zeros(n, dtype=bool)
    mask[rng.choice(n, size=n_pos, replace=False)] = True
    return mask


def creditcard_frame(seed: int, n: int = CREDITCARD_ROWS, n_fraud: int = CREDITCARD_FRAUDS) -> pd.DataFrame:
    """The credit-card stand-in as a DataFrame (``Class`` as the strings "0"/"1", like the quoted file)."""
    rng = make_rng(seed, "standin", "creditcard")
    fraud = _label_positions(rng, n, n_fraud)
    time = np.sort(rng.integers(0, CREDITCARD_SECONDS + 1, size=n))
    time[-1] = CREDITCARD_SECONDS
    spread = np.geomspace(1.95, 0.33, 28)  # PCA components: decreasing standard deviation
    V = rng.standard_t(df=5, size=(n, 28)) * spread * np.sqrt(3 / 5)
    shift = np.zeros(28)
    shift[[0, 2, 6, 9, 11, 13, 15, 16]] = [-4.8, -7.0, -5.6, -5.7, -6.3, -7.0, -4.1, -6.7]  # V1 V3 V7 V10 ...
    shift[[1, 3, 10]] = [3.6, 4.5, 3.8]  # V2 V4 V11
    V[fraud] = V[fraud] * 1.8 + shift
    amount = np.round(np.exp(rng.normal(3.0, 1.6, size=n)), 2)
    amount[rng.random(n) < 0.0064] = 0.0  # a few zero-amount transactions
    amount = np.minimum(amount, 25_691.16)
    df = pd.DataFrame(V, columns=CREDITCARD_COLUMNS[1:29])
    df.insert(0, "Time", time)
    df["Amount"] = amount
    df["Class"] = np.where(fraud, "1", "0")
    return df


def write_creditcard(path: str | os.PathLike, seed: int, n: int = CREDITCARD_ROWS,
                     n_fraud: int = CREDITCARD_FRAUDS) -> None:
    """Write the credit-card stand-in CSV (quoted header and labels, unquoted numbers) atomically."""
    df = creditcard_frame(seed, n, n_fraud)
    with atomic_path(path) as tmp:
        df.to_csv(tmp, index=False, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")


def _aps_frame(rng: np.random.Generator, names: list[str], n: int, n_pos: int, profile: dict) -> pd.DataFrame:
    """One APS table: integer counters (nullable, NA = ``na``), ``class`` first."""
    pos = _label_positions(rng, n, n_pos)
    cols: dict[str, object] = {"class": np.where(pos, "pos", "neg")}
    for j, name in enumerate(names):
        if name == APS_CONSTANT:
            values = np.full(n, 1_209_600.0)
        else:
            mu, sigma, zero_rate, pos_factor = profile["mu"][j], profile["sigma"][j], profile["zero"][j], profile["pf"][j]
            values = np.exp(rng.normal(mu, sigma, size=n))
            values[pos] *= pos_factor
            values[rng.random(n) < zero_rate] = 0.0
            values = np.floor(values)
        na = rng.random(n) < profile["na"][j]
        col = pd.array(values.astype(np.int64), dtype="Int64")
        col[na] = pd.NA
        cols[name] = col
    return pd.DataFrame(cols)


def _aps_profile(rng: np.random.Generator, names: list[str]) -> dict:
    """Per-attribute scale, zero rate, positive-class factor and missing rate (shared by train and test)."""
    d = len(names)
    na = rng.uniform(0.0, 0.03, size=d)
    na[rng.choice(d, size=20, replace=False)] = rng.uniform(0.05, 0.25, size=20)
    for name in APS_MOSTLY_NA:
        na[names.index(name)] = rng.uniform(0.6, 0.82)
    na[names.index("aa_000")] = 0.0  # the first counter is always present
    pf = np.ones(d)
    informative = rng.choice(d, size=40, replace=False)
    pf[informative] = rng.uniform(3.0, 30.0, size=40)
    return {"mu": rng.uniform(1.0, 12.0, size=d), "sigma": rng.uniform(0.5, 2.5, size=d),
            "zero": rng.uniform(0.0, 0.6, size=d), "pf": pf, "na": na}


def aps_preamble(seed: int) -> str:
    """The 20 preamble lines (licence-style text before the header), saying that this file is a stand-in."""
    lines = [
        "This file is a STAND-IN for APS Failure and Operational Data for Scania Trucks.",
        "",
        "It was generated by privanomaly.datasets.standins from a seed; its values are NOT the Scania data.",
        f"Seed: {seed}. It has the format of the UCI file: this preamble, a header line, 'na' = missing.",
        "",
        "The real data: https://archive.ics.uci.edu/dataset/421/aps+failure+at+scania+trucks",
        "Copyright (c) <2016> <Scania CV AB>, distributed by UCI under its licence.",
        "",
        "Use: prove the pipeline at the real size (60000 x 171 training rows) without the real file.",
        "Never report numbers computed from this file as results on the APS data.",
        "",
        "Layout: the header line starts with 'class,'; 'class' is 'pos' or 'neg';",
        "every other column is a non-negative integer counter or 'na'.",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
    ]
    assert len(lines) == APS_PREAMBLE_LINES
    return "\n".join(lines) + "\n"


def aps_csv_text(seed: int, which: str = "train", n: int | None = None, n_pos: int | None = None) -> str:
    """Text of ``aps_failure_{training,test}_set.csv``: preamble, header ``class,aa_000,…``, rows."""
    names = aps_attribute_names()
    profile = _aps_profile(make_rng(seed, "standin", "aps", "profile"), names)
    n_default, pos_default = (APS_TRAIN_ROWS, APS_TRAIN_POS) if which == "train" else (APS_TEST_ROWS, APS_TEST_POS)
    df = _aps_frame(make_rng(seed, "standin", "aps", which), names, n or n_default, n_pos or pos_default, profile)
    buf = _io.StringIO()
    buf.write(aps_preamble(seed))
    df.to_csv(buf, index=False, na_rep="na", lineterminator="\n")
    return buf.getvalue()


def write_aps_zip(path: str | os.PathLike, seed: int, n: int | None = None, n_pos: int | None = None) -> None:
    """Write the APS stand-in zip (training + test set, stored, fixed timestamps) atomically."""
    sizes = {"train": (n, n_pos), "test": (None if n is None else max(n // 4, 2), None if n_pos is None else
                                           max(n_pos // 3, 1))}
    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED) as zf:
        for which, member in (("train", APS_MEMBER), ("test", APS_TEST_MEMBER)):
            info = zipfile.ZipInfo(member, date_time=(2016, 10, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zf.writestr(info, aps_csv_text(seed, which, *sizes[which]).encode("utf-8"))


# ---- labelling and isolation of a run that uses stand-ins ----
NORMAL_RUN_DIRS = ("results", "resources")  # config.yaml's results_dir / resources_dir of a normal run


def check_isolation(notes: dict[str, str], results_dir: str, resources_dir: str) -> None:
    """Refuse a run with stand-ins whose outputs or raw cache are those of a normal run (``results/``,
    ``resources/``): stand-in tables must never be mistaken for results, and a stand-in in the raw cache must
    never be picked up by a normal run."""
    if not notes:
        return
    for key, value, normal in (("results_dir", results_dir, "results"), ("resources_dir", resources_dir, "resources")):
        if os.path.realpath(value) == os.path.realpath(normal):  # also written absolute, or through a link
            raise ValueError(
                f"{key}: {value!r} is the directory of a normal run, but datasets {sorted(notes)} are stand-ins "
                f"(datasets.<name>.stand_in); use the scale overlay (--configfile .scale/config.yaml), whose "
                f"{key} is under .scale/"
            )


def annotate(df: pd.DataFrame, notes: dict[str, str], column: str = "dataset") -> pd.DataFrame:
    """``df`` with the stand-in note of each row's dataset in its ``note`` column (kept notes come first)."""
    if not notes:
        return df
    out = df.copy()
    if "note" not in out.columns:
        out["note"] = ""
    extra = out[column].map(notes)
    has = extra.notna()
    old = out.loc[has, "note"].fillna("").astype(str)
    out.loc[has, "note"] = [f"{o}; {e}" if o else e for o, e in zip(old, extra[has])]
    return out


def figure_note(notes: dict[str, str], shown: list[str]) -> str | None:
    """Footer text for a figure showing datasets ``shown``; None when none of them is a stand-in."""
    hit = [n for n in shown if n in notes]
    if not hit:
        return None
    return f"stand-in data: {', '.join(hit)} are generated files of the real format, not the real data"


def stamp_figure(fig, notes: dict[str, str], shown: list[str]):
    """Write :func:`figure_note` at the bottom of ``fig`` (in red) when it shows a stand-in dataset."""
    text = figure_note(notes, shown)
    if text:
        fig.text(0.5, -0.02, text, ha="center", va="top", fontsize=9, color="tab:red")
    return fig


GENERATORS: dict[str, Callable[[str | os.PathLike, int], None]] = {
    "creditcard": write_creditcard,
    "aps": write_aps_zip,
}


def write_standin(generator: str, path: str | os.PathLike, seed: int) -> None:
    """Write stand-in ``generator`` (a key of ``GENERATORS``) at its real size to ``path``."""
    if generator not in GENERATORS:
        raise ValueError(f"unknown stand-in generator {generator!r} (known: {', '.join(sorted(GENERATORS))})")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    GENERATORS[generator](path, seed)


if __name__ == "__main__":  # python -m privanomaly.datasets.standins <generator> <out> <seed>
    if len(sys.argv) != 4:
        sys.exit("usage: python -m privanomaly.datasets.standins {creditcard|aps} OUT SEED")
    write_standin(sys.argv[1], sys.argv[2], int(sys.argv[3]))
