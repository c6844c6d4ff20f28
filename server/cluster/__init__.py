class ClusterError(Exception):
    """The node cannot join or reach its cluster (said to the operator in one line)."""
