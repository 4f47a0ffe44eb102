"""Privacy end to end: the scope of every released row (:mod:`.scope`), one accountant composing (ε, δ)
(:mod:`.accountant`), a public split disjoint from the released records (:mod:`.public_split`), private
selection over a candidate grid by the exponential mechanism (:mod:`.private_selection`) or permute-and-flip
(:mod:`.permute_flip`, audited as :mod:`.pf_select`), by name (:mod:`.selection_methods`); what rule privacy_price reads (:mod:`.price_plan`;
the price itself is :mod:`privanomaly.honest_tuning`)."""
