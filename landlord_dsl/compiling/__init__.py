"""Stage 3, compiling.

A checked RuleSet and option values turned into a Program: generated Python,
tables and the facts the engine needs (program/ says what a Program is).
"""
