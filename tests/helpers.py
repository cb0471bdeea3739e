"""Helpers shared by the test modules."""

from __future__ import annotations

import pytest

from firefight.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``firefight ARGS`` in-process: its exit code, standard output and standard error."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
