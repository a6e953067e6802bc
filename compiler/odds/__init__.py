"""Odds analysis: a rule's odds as the plan the runtimes' engine runs, and the work it may take."""
