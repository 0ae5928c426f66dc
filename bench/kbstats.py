# What bench/'s Python needs of kbench's statistics, written once (imported
# by bench/coverage.sh, interval_tradeoff.sh and interval_rules.py).
from math import comb


def ranks(n):
    """kbench's stats_median_ci_ranks: the 0-based ranks of the tightest
    symmetric order-statistic interval holding the median of n values with
    95%, else the whole range."""
    cdf = lambda j: sum(comb(n, k) for k in range(j + 1)) / 2.0 ** n
    if cdf(0) > 0.025:
        return 0, n - 1
    j = 1
    while j < n // 2 and cdf(j) <= 0.025:
        j += 1
    return j - 1, n - j
