"""Pure-Python scoring for sport-mafia tournaments: no Django anywhere in this package.

- ``model``: the tournament as frozen dataclasses; ``fileio``: the tournament file.
- ``rulesets``: the four regulations as registered classes; ``params``: their typed parameters.
- ``validation``: every rule a tournament breaks; ``standings``: ranks, advancement, winners.
- ``metrics``: the registered tie-break metrics; ``cli``: ``python -m scoring``.
"""
