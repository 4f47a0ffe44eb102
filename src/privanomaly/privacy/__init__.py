"""Privacy end to end: the scope of every released row (:mod:`.scope`), one accountant composing (ε, δ)
(:mod:`.accountant`), a per-record public part disjoint from the released records (:mod:`.membership`), the
preprocessing fitted on it alone (:mod:`.public_fit`), private selection over a candidate grid by the
exponential mechanism (:mod:`.private_selection`) or permute-and-flip (:mod:`.permute_flip`, audited as
:mod:`.pf_select`), by name (:mod:`.selection_methods`); the price of honest tuning is
:mod:`privanomaly.price.tuning`, its released path :mod:`privanomaly.price.released_path`."""
