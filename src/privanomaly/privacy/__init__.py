"""Privacy end to end: the scope of every released row (:mod:`.scope`), one accountant composing (ε, δ)
(:mod:`.accountant`), a public split disjoint from the released records (:mod:`.public_split`), private
selection over a candidate grid (:mod:`.private_selection`) and the price of honest tuning (:mod:`.price`)."""
