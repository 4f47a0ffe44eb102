"""The price of honest tuning over both papers: which (dataset, eps) rows to compute (``plan``), the rows
themselves (``tuning``) and their figure (``plots``)."""
