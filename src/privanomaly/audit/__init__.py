"""Privacy audits: the statistical (Clopper–Pearson) machinery and the one harness over the mechanism registry.

* :mod:`.statistical` — Clopper–Pearson lower bounds of the privacy loss from samples, event families (the
  former ``privanomaly.audit``; every name is re-exported here, so ``from privanomaly import audit;
  audit.audit(...)`` still works).
* :mod:`.exact_loss` — exact hockey-stick divergences (discrete and Gaussian) and privacy losses of closed-form
  output distributions, the worst edge of a neighbourhood graph (re-exported here too).
* :mod:`.worlds` — exhaustive small worlds (1-D and 2-D grids, l1/l2/l_inf, several r) and their edges.
* :mod:`.harness` — :func:`run`: every registered mechanism through its family's auditor, plus the
  negative controls (:mod:`.controls`), into the "Privacy audit" table. ``python -m privanomaly.audit``.
* :mod:`.paper_a` — the auditor of paper A's family ("aiq"), registered here (importing this package).
* :mod:`.paper_b` — the auditors of paper B's families, registered here (importing this package).
* :mod:`.end_to_end` — the end-to-end private mechanisms (:mod:`privanomaly.privacy.end_to_end`) and their
  negative controls, registered here.
* :mod:`.released_path` — every row kind that can say ``proven_end_to_end``, run from raw float records to the
  release (:mod:`privanomaly.price.released_path`), and its negative controls.
* :mod:`.selection` — permute-and-flip selection of r (:mod:`privanomaly.privacy.pf_select`) and its negative
  control, registered here.
"""

from .statistical import *  # noqa: F401,F403
from .exact_loss import *  # noqa: F401,F403
from .statistical import __doc__ as _statistical_doc  # noqa: F401
from .harness import (  # noqa: F401
    AUDITORS,
    LEVELS,
    NEGATIVE_CONTROLS,
    AuditRow,
    Level,
    audit_mechanism,
    auditor,
    claim_text,
    negative_control,
    run,
)
from . import paper_a as _paper_a  # noqa: F401 - registers paper A's auditor
from . import paper_b as _paper_b  # noqa: F401 - registers paper B's auditors
from . import float_boundary_worlds as _float_boundary_worlds  # noqa: F401 - its negative controls
from . import end_to_end as _end_to_end  # noqa: F401 - registers the end-to-end mechanisms and their controls
from . import released_path as _released_path  # noqa: F401 - the released paths' rows and their controls
from . import selection as _selection  # noqa: F401 - registers permute-and-flip selection and its control
