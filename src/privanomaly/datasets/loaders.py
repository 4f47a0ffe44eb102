"""Parse raw files into a table of columns plus a 0/1 label (1 = anomaly/outlier, 0 = normal).

Formats (``datasets.<name>.format``):

* ``npz``      — numpy archive with a feature matrix (key ``read.features_key``, default ``X``) and a label
                 vector (key ``label.column``, e.g. ``y``); the ADBench copies of ODDS data.
* ``mat``      — MATLAB v5 file with the same two keys (the ODDS ``.mat`` downloads), via ``scipy.io.loadmat``.
* ``csv``      — delimited text with a header row (e.g. Kaggle ``creditcard.csv``: quoted header, ``"0"``/``"1"``
                 quoted class); may be read from inside a zip with ``read.member``.
* ``parquet``  — a Parquet table.
* ``uci_data`` — UCI ``.data`` files: no header, comma separated, blanks after commas, ``?`` = missing.
                 Columns are named ``read.names`` if given, else ``x0..x{n-1}``.
* ``aps_csv``  — UCI APS Failure at Scania Trucks: a licence preamble (20 lines) before the header line that
                 starts with ``class,``, ``na`` = missing; read directly or from the UCI zip (``read.member``).
* ``zip_csv``  — a ``csv`` inside a zip archive (``read.member`` required).

Text files (``csv``, ``uci_data``, ``aps_csv``) may be gzip'd (recognised by their first bytes, whatever their
name) and start with a UTF-8 byte-order mark. Every row must have as many fields as the header (or
``read.names``, or the first row): a row with fewer or more is an error naming its line, never padded with
missing values or read with a column shifted into the row labels.

Feature names follow the source where it has names, else ``x0..x{d-1}`` (docs/CONVENTIONS.md). The bytes and text
of a file come from :mod:`.rawtext`; the label column is split off by :mod:`.labels`.
"""

from __future__ import annotations

import io
import os
import re
import warnings
import zipfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .rawtext import decode_error, is_gzip, is_html, read_text, separator_hint
from .validation import DataError


def _csv_source(path: Path, read: Mapping[str, Any], where: str = "") -> Callable[[], Any]:
    """What pandas reads, as a function called for each read of the file: the path itself, or a stream of the
    text of a zip member / a gzip'd file - decompressed and decoded at the first call only."""
    member = read.get("member")
    state: dict[str, str | None] = {}

    def source() -> Any:
        if "text" not in state:
            plain = member is None and not zipfile.is_zipfile(path) and not is_gzip(path)
            state["text"] = None if plain else read_text(path, member, read.get("encoding", "utf-8"), where)
        text = state["text"]
        return path if text is None else io.StringIO(text)

    return source


def _read_csv(
    path: Path, read: Mapping[str, Any], *, header: bool, na_values: Sequence[str], where: str = "",
    label: str | int | None = None, **kw: Any
) -> pd.DataFrame:
    names = read.get("names")
    _check_read_options(read, path, where)
    opts: dict[str, Any] = dict(
        sep=read.get("sep", ","),
        header=0 if read.get("header", header) else None,
        na_values=list(read.get("na_values", na_values)),
        skipinitialspace=bool(read.get("skipinitialspace", True)),
        skiprows=read.get("skiprows", 0) or None,
        comment=read.get("comment"),
        encoding=read.get("encoding", "utf-8"),
        index_col=False,  # never take the first column as row labels (pandas does when rows outnumber the names)
        low_memory=False,
    )
    opts.update(kw)
    if len(opts["sep"]) > 1 and opts["sep"] != r"\s+":  # "::", a regex: only pandas' python engine splits these
        opts["engine"] = "python"
        del opts["low_memory"]
    if names is not None:
        opts["names"] = list(names)
    what = f"{where}read.names ({len(names)} names)" if names is not None else "the header"
    source = _csv_source(path, read, where)
    df = _parse(source, opts, path, where, what)
    if opts["header"] == 0 and names is None:
        # pandas silently renames duplicated header names (a, a -> a, a.1): refuse them instead
        raw = pd.read_csv(source(), **{**opts, "header": None, "nrows": 1, "dtype": str})
        cols = [str(c).strip() for c in raw.iloc[0].tolist()] if len(raw) else []
        dups = sorted({c for c in cols if cols.count(c) > 1})
        if dups:
            raise DataError(
                f"{path}: duplicate column name(s) {dups} in the header; every column needs its own name "
                f"(rename them, or give read.names)"
            )
        _check_header_is_not_data(cols, path, where)
    if opts["header"] is None and names is None:
        df.columns = [f"x{i}" for i in range(df.shape[1])]
    df.columns = [str(c).strip() for c in df.columns]
    if (opts["header"] == 0 and names is None and df.shape[1] > 1 and re.fullmatch(r"Unnamed: \d+", df.columns[-1])
            and df.iloc[:, -1].isna().all()):
        df = df.iloc[:, :-1]  # the header and every row end with a separator: an empty field, not a column
    if _has_padded_cells(df):
        expected = (f"{where}read.names gives" if names is not None
                    else "the header has" if opts["header"] == 0 else "the first row has")
        _check_short_rows(source(), opts, df.shape[1], path, expected, where)
    if label is not None:
        _label_verbatim(df, label, source, opts)
    return df


def _label_verbatim(df: pd.DataFrame, label: str | int, source: Callable[[], Any], opts: Mapping[str, Any]) -> None:
    """Put back, in place, the text of label cells that pandas read as missing by its default markers (``NA``,
    ``N/A``, ``None``, ``null``, ``nan``, ...): a label is a word of the file, and ``label.anomaly_values`` /
    ``normal_values`` name it; only an empty cell or one of ``read.na_values`` has no label."""
    col = label if label in df.columns else (df.columns[label] if isinstance(label, int) and 0 <= label < df.shape[1]
                                             else None)
    if col is None or not df[col].isna().any():
        return
    pos = list(df.columns).index(col)
    words = pd.read_csv(source(), **{**opts, "usecols": [pos], "dtype": str, "keep_default_na": False,
                                     "na_values": list(opts.get("na_values") or [])}).iloc[:, 0]
    if len(words) != len(df):
        return
    words = words.str.strip()
    if (df[col].isna().to_numpy() & words.notna().to_numpy() & (words != "").to_numpy()).any():
        df[col] = words.where(words != "").to_numpy()  # the column as text (labels.label_mask compares numbers too)


def _check_read_options(read: Mapping[str, Any], path: Path, where: str) -> None:
    """Raise naming the key for parser options pandas refuses with a bare ValueError (or takes silently wrong)."""
    sep, comment, names = read.get("sep"), read.get("comment"), read.get("names")
    if sep is not None and (not isinstance(sep, str) or sep == ""):
        raise DataError(f"{where}read.sep: {sep!r} is not a field separator; give one or more characters "
                        f"(e.g. ',', ';', '\\t') or a regular expression such as '\\s+' ({path})")
    if comment is not None and (not isinstance(comment, str) or len(comment) != 1):
        raise DataError(f"{where}read.comment: {comment!r} must be exactly one character (e.g. '#'): the text "
                        f"after it on a line is ignored ({path})")
    if names is not None:
        dups = sorted({str(n) for n in names if list(names).count(n) > 1})
        if dups:
            raise DataError(f"{where}read.names: duplicate name(s) {dups}; every column needs its own name ({path})")


_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _check_header_is_not_data(cols: Sequence[str], path: Path, where: str) -> None:
    """Raise if every field of the header line is a number (other than the names 0, 1, ... that pandas' to_csv
    writes for unnamed columns): that line is a data row of a file without a header, which reading it as the
    header would drop silently."""
    if not cols or not all(_NUMBER.fullmatch(c) for c in cols) or cols == [str(i) for i in range(len(cols))]:
        return
    shown = ", ".join(cols[:6]) + (", ..." if len(cols) > 6 else "")
    fix = (f"if the file has no header, set {where}read.header: false (columns x0, x1, ...; the label by its 0-based "
           f"index) or give the names in {where}read.names; if those numbers are the column names, give them in "
           f"{where}read.names") if where else "add a header line naming the columns"
    raise DataError(f"{path}: the header line ({shown}) is all numbers: it looks like the first data row of a file "
                    f"without a header, which would be dropped as the header; {fix}")


def read_csv_file(path: str | os.PathLike, read: Mapping[str, Any] | None = None, where: str = "",
                  label: str | int | None = None) -> pd.DataFrame:
    """A delimited file with a header row, read exactly as format ``csv`` reads it (gzip by content, BOM, a row
    with more or fewer fields than the header is a DataError naming its line, the ``label`` column's words kept
    as written); the Python API's reader."""
    return _read_csv(Path(path), dict(read or {}), header=True, na_values=[], where=where, label=label)


def _parse(source: Callable[[], Any], opts: Mapping[str, Any], path: Path, where: str, what: str) -> pd.DataFrame:
    """``pd.read_csv(source(), **opts)``; every parser failure is a DataError naming ``path``."""
    try:
        with warnings.catch_warnings():
            # with index_col=False pandas would cut the surplus fields off with a mere warning
            warnings.filterwarnings("error", message="Length of header or names", category=pd.errors.ParserWarning)
            return pd.read_csv(source(), **opts)
    except pd.errors.ParserWarning as exc:
        raise DataError(
            f"{path}: the rows have more fields than {what}; every row needs as many fields as the header "
            f"(a column name is missing: complete the header{f' or give {where}read.names' if where else ''})"
        ) from exc
    except UnicodeDecodeError as exc:
        raise decode_error(path, exc, opts.get("encoding", "utf-8"), where) from exc
    except pd.errors.EmptyDataError as exc:
        if opts.get("skiprows"):
            raise DataError(f"{path}: no line is left after skipping {where}read.skiprows = {opts['skiprows']} lines "
                            "(no header, no rows); lower read.skiprows to the number of lines before the data") from exc
        raise DataError(f"{path}: the file is empty (no header, no rows)") from exc
    except pd.errors.ParserError as exc:  # e.g. a ragged row: "Expected 3 fields in line 3, saw 4"
        raise DataError(
            f"{path}: malformed CSV ({str(exc).strip()}); every row needs as many fields as the header"
        ) from exc
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        raise  # the caller names these (the pipeline checks them before: sources.file_present)
    except (EOFError, OSError, zlib.error) as exc:  # a compressed file (by its name) that is damaged
        raise DataError(f"{path}: cannot be read ({exc}); replace it with a good copy") from exc


def _has_padded_cells(df: pd.DataFrame) -> bool:
    """Whether the last column has empty cells: where pandas pads a row that has too few fields."""
    if df.shape[1] < 2 or len(df) == 0:
        return False
    last = df.iloc[:, -1]
    if last.isna().any():
        return True
    return not pd.api.types.is_numeric_dtype(last) and bool((last.astype("string") == "").any())


_PANDAS_COMPRESSED = (".bz2", ".xz", ".zst", ".tar", ".tgz")  # pandas decompresses these by name (gzip: see is_gzip)


def _check_short_rows(
    source: Any, opts: Mapping[str, Any], n_fields: int, path: Path, expected: str, where: str = "", line0: int = 0
) -> None:
    """Raise naming the first line with fewer fields than ``n_fields``: pandas fills such a row with missing
    values, so a truncated file or a row that lost a field would pass as missing data.

    The fields are counted by pyarrow's CSV parser (the same quoting; whitespace-only lines are blank, as for
    pandas); ``line0`` lines precede ``source`` in the file (the APS preamble). Not checked: rows skipped by
    a list or callable, ``read.comment`` (pyarrow has no comments), files pandas decompresses by their name.
    """
    import pyarrow.csv as pacsv

    skip, sep = opts.get("skiprows") or 0, opts.get("sep", ",")
    if (not isinstance(skip, int) or opts.get("comment") or (len(sep) != 1 and sep != r"\s+")
            or (isinstance(source, Path) and source.suffix.lower() in _PANDAS_COMPRESSED)):
        return  # a regular-expression separator other than whitespace is not matched here either
    text = source.read_text(encoding=opts.get("encoding", "utf-8")) if isinstance(source, Path) else source.getvalue()
    if sep == r"\s+":  # runs of whitespace separate fields, leading and trailing ones none
        text, sep = re.sub(r"(?m)^[ \t]+|[ \t]+(?=\r?$)", "", re.sub(r"[ \t\f\v]+", " ", text)), " "
    elif sep == " " and opts.get("skipinitialspace"):  # pandas skips the blanks after a blank: runs are one
        text = re.sub(r"(?m)^ +", "", re.sub(" +", " ", text))
    data = text.encode("utf-8")
    short: list[tuple[int, int]] = []

    def on_invalid(row: Any) -> str:
        if not short and row.text.strip() and row.actual_columns < row.expected_columns:
            short.append((row.number, row.actual_columns, row.text))
        return "skip"

    pacsv.read_csv(
        io.BytesIO(data),
        read_options=pacsv.ReadOptions(
            skip_rows=skip, column_names=[f"c{i}" for i in range(n_fields)],
            skip_rows_after_names=1 if opts.get("header") == 0 else 0, use_threads=False,
        ),
        parse_options=pacsv.ParseOptions(delimiter=sep, newlines_in_values=True,
                                         invalid_row_handler=on_invalid),
        convert_options=pacsv.ConvertOptions(include_columns=["c0"]),
    )
    if short:
        line, fields, row_text = short[0]
        first = line - skip - (1 if opts.get("header") == 0 else 0) == 1
        hint = f"; if it is a line of text before the data, skip it with {where}read.skiprows" if first else ""
        if first and fields == 1:
            hint += separator_hint(row_text, where, "the line was read as one field")
        if "read.names" in expected:
            hint += f"; or {where}read.names lists more columns than the file has"
        raise DataError(
            f"{path}: line {line + line0} has {fields} field(s) where {expected} {n_fields}: the file is truncated "
            f"or the row lost a field (an empty value still needs its separator, e.g. `1,,3`){hint}"
        )


def _read_aps(path: Path, read: Mapping[str, Any], where: str = "") -> pd.DataFrame:
    """APS csv: skip the licence preamble up to the line starting with ``read.header_prefix`` (``class,``)."""
    prefix = read.get("header_prefix", "class,")
    text = read_text(path, read.get("member"), read.get("encoding", "utf-8"), where)
    max_pre = int(read.get("max_preamble_lines", 100))
    lines = text.split("\n", max_pre + 1)
    header = next(
        (i for i, line in enumerate(lines[: max_pre + 1]) if line.lstrip().replace('"', "").startswith(prefix)), None
    )
    if header is None:
        raise DataError(
            f"{path}: no header line starting with {prefix!r} in the first {max_pre + 1} lines (is this the APS csv?)"
        )
    body = "\n".join(lines[header:])
    opts = dict(sep=",", header=0, na_values=list(read.get("na_values", ["na"])), keep_default_na=False,
                index_col=False, skipinitialspace=False, encoding="utf-8", low_memory=False)
    df = _parse(lambda: io.StringIO(body), opts, path, where, "the header")
    if _has_padded_cells(df):
        _check_short_rows(io.StringIO(body), opts, df.shape[1], path, "the header has", where, line0=header)
    df.attrs["preamble_lines"] = header
    return df


CONFIG_KEYS = ("read.features_key", "label.column")
"""What names the features' and the label's array in messages: the config keys (the Python API names its own)."""


def _read_arrays(X: np.ndarray, y: np.ndarray, label_key: str, path: Path) -> pd.DataFrame:
    X = np.asarray(X)
    y = np.asarray(y).reshape(-1) if np.asarray(y).ndim > 1 and min(np.asarray(y).shape) == 1 else np.asarray(y)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise DataError(f"{path}: expected X (n x d) and {label_key} (n), got shapes {X.shape} and {y.shape}")
    if np.iscomplexobj(X):  # float64 would keep the real part only
        raise DataError(f"{path}: the feature array has complex dtype {X.dtype}, expected real numbers")
    if not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
        raise DataError(f"{path}: the feature array has dtype {X.dtype}, expected numbers")
    df = pd.DataFrame(X.astype(np.float64), columns=[f"x{i}" for i in range(X.shape[1])])
    df[label_key] = y
    return df


def _load_npz(path: Path, fkey: str, lkey: str, where: str, fix: str, names: Sequence[str] = CONFIG_KEYS
              ) -> pd.DataFrame:
    """Arrays ``fkey`` (features) and ``lkey`` (labels) of an ``.npz``; never unpickles (allow_pickle=False)."""
    with open(path, "rb") as fh:
        head = fh.read(6)
    if not zipfile.is_zipfile(path) and head != b"\x93NUMPY":  # np.load would try it as a pickle and say so
        raise DataError(f"{path}: not an .npz archive (neither a zip archive of arrays nor a NumPy file: truncated, "
                        f"corrupt or another format); {fix}")
    try:
        loaded = np.load(path, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):  # a .npy file: one bare array
            raise DataError(
                f"{path}: is a single NumPy array (.npy, shape {loaded.shape}), not an .npz archive of the arrays "
                f"{fkey!r} and {lkey!r}; save both with np.savez(path, {fkey}=X, {lkey}=y)"
            )
        with loaded as d:
            keys = list(d.keys())
            _check_array_keys(path, keys, fkey, lkey, where, "array", names)
            arrays = {}
            for key in (fkey, lkey):
                try:
                    arrays[key] = d[key]
                except ValueError as exc:
                    if "allow_pickle" not in str(exc):
                        raise
                    raise DataError(
                        f"{path}: array {key!r} holds Python objects (dtype=object), which are never unpickled "
                        f"(unsafe); save it as a numeric array, e.g. np.savez(path, {fkey}=X.astype(float), "
                        f"{lkey}=y.astype(int))"
                    ) from exc
    except DataError:
        raise
    except (zipfile.BadZipFile, ValueError, EOFError, OSError, zlib.error) as exc:
        raise DataError(f"{path}: not a valid .npz archive (truncated or corrupt: {exc}); {fix}") from exc
    return _read_arrays(arrays[fkey], arrays[lkey], lkey, path)


def _check_array_keys(path: Path, keys: list[str], fkey: str, lkey: str, where: str, kind: str,
                      names: Sequence[str] = CONFIG_KEYS) -> None:
    """Raise naming the config key (``names``) whose array (``kind``: array / variable) is not in the file."""
    for key, config_key in zip((fkey, lkey), names):
        if key not in keys:
            raise DataError(
                f"{path}: no {kind} {key!r} ({where}{config_key}); the file has {keys}: set {where}{config_key} "
                f"to one of them"
            )


def load_table(
    path: str | os.PathLike,
    fmt: str,
    read: Mapping[str, Any] | None,
    label_column: str | int,
    *,
    where: str = "",
    fix: str = "replace the file with a good copy",
    keys: Sequence[str] = CONFIG_KEYS,
) -> pd.DataFrame:
    """Parse ``path`` in format ``fmt`` into a DataFrame holding the features and the label column.

    ``where`` (e.g. ``"datasets.thyroid."``) prefixes the config keys named in messages; ``fix`` is the advice
    for a file that is damaged (a download: delete it so that it is fetched again; a local file: replace it);
    ``keys`` what names the features' and the label's array of an npz/mat file (default: the config keys).

    Every failure is a :class:`DataError` naming the file: the parsers of binary containers (zip, npz, MATLAB,
    Parquet, compressed text) raise many kinds of exception on damaged bytes - a truncated MATLAB header an
    IndexError, a flipped byte of a zip header NotImplementedError, of an npz header a TokenError -, and each
    is reported as a file that cannot be read in ``fmt``, with ``fix`` (the original exception is chained).
    """
    path = Path(path)
    read = dict(read or {})
    try:
        return _load_table(path, fmt, read, label_column, where, fix, keys)
    except (DataError, FileNotFoundError, IsADirectoryError, PermissionError, MemoryError):
        raise
    except Exception as exc:  # a parser's own failure on bytes it cannot make sense of
        raise DataError(f"{path}: cannot be read as {where}format: {fmt} - the file is damaged or not in that "
                        f"format ({type(exc).__name__}: {' '.join(str(exc).split())}); {fix}") from exc


def _load_table(
    path: Path, fmt: str, read: dict[str, Any], label_column: str | int, where: str, fix: str,
    keys: Sequence[str] = CONFIG_KEYS,
) -> pd.DataFrame:
    """:func:`load_table` without the translation of a parser's own exceptions."""
    from .sources import file_present

    if not file_present(path, f"{where}files[0]" if where else ""):
        raise DataError(f"{path}: file not found")
    if path.stat().st_size == 0:
        raise DataError(f"{path}: the file is empty (0 bytes); {fix}")
    if is_html(path):
        raise DataError(f"{path}: is an HTML page, not the data file (a login, error or viewer page saved in its "
                        f"place?); {fix}")
    if fmt in ("npz", "mat"):
        fkey = read.get("features_key", "X")
        lkey = str(label_column)
        if fmt == "npz":
            return _load_npz(path, fkey, lkey, where, fix, keys)
        import scipy.io

        try:
            d = scipy.io.loadmat(path)
        except NotImplementedError as exc:  # MATLAB v7.3 = HDF5
            raise DataError(
                f"{path}: a MATLAB v7.3 (HDF5) file, which {where}format: mat cannot read (scipy reads v4-v7); "
                f"save it again as v7 (MATLAB: save(file, 'X', 'y', '-v7')), or as an .npz of X and y with "
                f"{where}format: npz"
            ) from exc
        except (ValueError, EOFError, OSError, TypeError) as exc:
            raise DataError(f"{path}: not a valid MATLAB .mat file (truncated or corrupt: {exc}); {fix}") from exc
        _check_array_keys(path, [k for k in d if not k.startswith("__")], fkey, lkey, where, "variable", keys)
        import scipy.sparse

        # MATLAB saves sparse matrices as such: the dense values are the data
        X, y = (d[k].toarray() if scipy.sparse.issparse(d[k]) else d[k] for k in (fkey, lkey))
        return _read_arrays(X, y, lkey, path)
    if fmt == "csv":
        return _read_csv(path, read, header=True, na_values=[], where=where, label=label_column)
    if fmt == "zip_csv":
        if not read.get("member"):
            raise DataError(f"{path}: format zip_csv needs {where}read.member")
        return _read_csv(path, read, header=True, na_values=[], where=where, label=label_column)
    if fmt == "uci_data":
        return _read_csv(path, read, header=False, na_values=["?"], where=where, label=label_column)
    if fmt == "aps_csv":
        return _read_aps(path, read, where)
    if fmt == "parquet":
        try:
            df = pd.read_parquet(path)
        except (OSError, ValueError) as exc:  # pyarrow.ArrowInvalid is a ValueError
            raise DataError(f"{path}: not a valid Parquet file ({exc}); {fix}") from exc
        # pandas restores a column saved as the frame's index (df.set_index("a").to_parquet) as the index:
        # a named index is a column of the data; unnamed row labels are not
        named = [n for n in df.index.names if n is not None]
        return (df.reset_index(level=named) if named else df).reset_index(drop=True)
    raise DataError(f"{path}: unknown format {fmt!r}")
