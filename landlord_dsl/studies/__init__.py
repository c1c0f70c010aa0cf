"""Stage 6, studies.

Many games played and measured (simulation, statistics, parallel runs, sweeps,
outcomes, rule coverage) and the exact analysis of the board (analysis/).
"""
