"""The second private selection method in the audit: importing this registers ``pf_select_r``
(:mod:`privanomaly.privacy.pf_select`, checked by its own exact small-world ``audit_rows``) and its negative
control (the method run with Δu halved), which must be caught."""

from __future__ import annotations

from privanomaly.privacy import pf_select

from .harness import negative_control

for _name, _m in pf_select.negative_controls().items():
    negative_control(_name, f"{_m.label}: Δu halved under the claim of Δu, must fail")(lambda m=_m: m)
