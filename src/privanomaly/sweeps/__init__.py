"""Sweeps over ε, k, β and r: config parsing and grid (:mod:`.spec`), shared ball counts and
absent query points (:mod:`.counts`), one paper-A grid point (:mod:`.points`), paper B's σ and top-h rows
(:mod:`.sigma`), the tidy table (:mod:`.collect`), figures (:mod:`.plots`), index rows (:mod:`.index`)."""
