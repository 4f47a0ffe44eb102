"""The end-to-end private releases in the audit: importing this registers the mechanisms of
:mod:`privanomaly.privacy.end_to_end` (selection + release, composed; checked by their own exact small-world
``audit_rows``) and their negative controls, which tune on the private part and must be caught."""

from __future__ import annotations

from privanomaly.privacy import end_to_end

from .harness import negative_control

for _name, _m in end_to_end.negative_controls().items():
    negative_control(_name, f"{_m.label}: tuned on the released records, must fail")(lambda m=_m: m)
