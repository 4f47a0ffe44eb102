"""Privacy end to end: the scope of every released row (:mod:`.scope`), one accountant composing (ε, δ)
(:mod:`.accountant`), a per-record public part disjoint from the released records (:mod:`.membership`), the
preprocessing fitted on it alone (:mod:`.public_fit`), private selection over a candidate grid
(:mod:`.private_selection`); what rule privacy_price reads (:mod:`.price_plan`; the price itself is
:mod:`privanomaly.price.tuning`, its released path :mod:`privanomaly.price.released_path`)."""
