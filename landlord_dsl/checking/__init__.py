"""Stage 2, checking.

Names and types resolved, every problem collected with its place; the loader
merges a variant onto its base and checks the result into a RuleSet.
"""
