# Rules for paper_b; filled in by its issue.


def paper_b_targets():
    return []
