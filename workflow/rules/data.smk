# Rules for data; filled in by its issue.


def data_targets():
    return []
