"""``python -m firefight`` runs the CLI."""

from firefight.cli import run

run()
