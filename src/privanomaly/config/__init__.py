"""The run's configuration: the files and schema check (``check``), dotted keys (``keys``), the overlay merge
(``merge``) and the effective configuration a run records (``effective``)."""
