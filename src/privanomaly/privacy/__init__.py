"""Privacy end to end: the scope of every released row (:mod:`.scope`), one accountant composing (ε, δ)
(:mod:`.accountant`), a public split disjoint from the released records (:mod:`.public_split`), private
selection over a candidate grid (:mod:`.private_selection`); what rule privacy_price reads (:mod:`.price_plan`;
the price itself is :mod:`privanomaly.price.tuning`)."""
