"""Kept for old imports: the rulesets now live in referee/rules/ (see referee.rules)."""

from referee.rules import RULESETS as PROFILES, get  # noqa: F401
