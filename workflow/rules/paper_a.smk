# Rules for paper_a; filled in by its issue.


def paper_a_targets():
    return []
