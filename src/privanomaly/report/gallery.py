"""Small PNG copies of key figures for the README gallery.

Every run writes them inside its own results, ``<results_dir>/gallery/`` (rule ``report_gallery``): no run
writes outside ``results_dir``/``resources_dir``, so a run with a user's overlay or seed never rewrites the
tracked ``docs/gallery/`` and concurrent runs never touch each other's files. ``make gallery`` runs the
default ``config.yaml`` (no overlay) and then publishes with ``python -m privanomaly.report.gallery``:
``publish`` copies the configured thumbnails to ``docs/gallery/``.

Thumbnails are resized with Pillow and saved without metadata, so the same figure gives the same bytes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from PIL import Image

from privanomaly import io


PUBLISHED_DIR = "docs/gallery"  # the README's gallery (tracked), relative to the checkout


def gallery_dir(results_dir: str) -> str:
    """Where a run writes its gallery thumbnails: ``<results_dir>/gallery``."""
    return f"{results_dir}/gallery"


def gallery_name(relpath: str) -> str:
    """``paper_a/figures/fig2_accuracy_privacy.png`` -> ``paper_a_fig2_accuracy_privacy.png``."""
    p = Path(relpath)
    if p.suffix.lower() != ".png":
        raise ValueError(f"gallery: {relpath!r} is not a .png figure")
    paper = p.parts[0] if len(p.parts) > 1 else ""
    return f"{paper}_{p.name}" if paper and not p.name.startswith(paper) else p.name


def thumbnail(src: str | os.PathLike, dst: str | os.PathLike, width: int) -> tuple[int, int]:
    """Write ``src`` scaled to ``width`` pixels wide (never enlarged), palette-quantised PNG; return its size."""
    if width < 16:
        raise ValueError(f"gallery: width must be >= 16 pixels, got {width}")
    with Image.open(src) as im:
        im = im.convert("RGB")
        if im.width > width:
            im = im.resize((width, max(1, round(im.height * width / im.width))), Image.Resampling.LANCZOS)
        small = im.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        with io.atomic_path(dst) as tmp:
            small.save(tmp, format="PNG", optimize=True)
        return small.size


def publish(config: dict, root: str | os.PathLike = ".") -> list[Path]:
    """Copy the thumbnails of ``config['report']['gallery']`` from the run's gallery to ``docs/gallery``.

    ``config`` must be the default config (``make gallery`` passes config.yaml alone); a thumbnail that the
    run did not produce is an error naming it (nothing is copied then). Returns the published files.
    """
    root = Path(root)
    src_dir = root / gallery_dir(config["results_dir"])
    names = [gallery_name(rel) for rel in config["report"]["gallery"]]
    missing = [str(src_dir / n) for n in names if not (src_dir / n).is_file()]
    if missing:
        raise FileNotFoundError(
            f"gallery: {missing} not built; run the default pipeline first (make gallery does) - figures whose "
            f"data are unavailable offline cannot be published"
        )
    out = []
    for n in names:
        dst = root / PUBLISHED_DIR / n
        with io.atomic_path(dst) as tmp:
            shutil.copyfile(src_dir / n, tmp)
        out.append(dst)
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m privanomaly.report.gallery [--config config.yaml]``: publish a run's gallery to docs/gallery."""
    import yaml

    ap = argparse.ArgumentParser(prog="python -m privanomaly.report.gallery", description=main.__doc__)
    ap.add_argument("--config", default="config.yaml", help="the default config (no overlay)")
    args = ap.parse_args(argv)
    config = yaml.safe_load(Path(args.config).read_text(encoding="utf-8"))
    for p in publish(config, Path(args.config).resolve().parent):
        print(f"published {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


def check_known(gallery: list[str], patterns: Iterable[str]) -> None:
    """Every ``report.gallery`` entry must be a figure the workflow can write (``patterns``: PNG files relative
    to the results, with ``{wildcards}``): a figure this run does not build is skipped, but a misspelt path is
    an error naming ``report.gallery[i]`` and the nearest figures - it would never be in any gallery."""
    import difflib
    import re

    from privanomaly.report.catalogue import WILDCARD, WILDCARD_VALUE

    patterns = sorted(set(patterns))
    regexes = [re.compile(WILDCARD.sub(WILDCARD_VALUE, re.escape(p).replace(r"\{", "{").replace(r"\}", "}")))
               for p in patterns]
    for i, rel in enumerate(gallery):
        if not any(rx.fullmatch(rel) for rx in regexes):
            near = difflib.get_close_matches(rel, patterns, n=3, cutoff=0.5)
            raise ValueError(f"config report.gallery[{i}]: {rel!r} is no figure of this workflow"
                             f"{' (nearest: ' + ', '.join(near) + ')' if near else ''}; give a .png path under "
                             "results_dir of a catalogue figure (workflow/report/catalogue.yaml)")


def sources(gallery: list[str], built: Iterable[str], results_dir: str) -> dict[str, str]:
    """{gallery thumbnail: figure} for the configured gallery figures (``report.gallery``, relative to the
    results) that this run builds (``built``, relative too). The thumbnails go inside the results
    (:func:`gallery_dir`), never to the tracked docs/gallery: ``make gallery`` publishes them there."""
    built = set(built)
    return {f"{gallery_dir(results_dir)}/{gallery_name(rel)}": f"{results_dir}/{rel}" for rel in gallery if rel in built}
