"""Simulations built on the rule sets: engagements (turns of fire between two sides)."""
