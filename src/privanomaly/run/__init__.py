"""A run's bookkeeping: job logs (``log``), the run record (``record``), one run per directory (``guard``), the
library digest that reruns jobs on code changes (``code_digest``), provenance files (``provenance``) and the
conda environment written from the lock (``envlock``)."""
