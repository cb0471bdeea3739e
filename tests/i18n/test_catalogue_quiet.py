"""``make catalogue`` prints Babel's warnings but the one about an f-string among a refusal's
other arguments (the value given), which tests/i18n/test_refusal_words.py makes harmless."""

from __future__ import annotations

import sys

from firefight.cli import catalogue


def test_the_catalogue_leaves_out_only_the_skipped_f_string_warnings(capsys, monkeypatch):
    def extract(*_args, **_kwargs):
        sys.stderr.write(f"a.py:1: {catalogue.SKIPPED_FSTRING}: it cannot be translated\n")
        sys.stderr.write("b.py:2: warning: something else\n")
        yield ("a.py", 1, "a message", [], None)

    monkeypatch.setattr(catalogue, "extract_from_dir", extract)
    assert catalogue._code_messages() == [("a.py", 1, "a message", [])]
    printed = capsys.readouterr().err
    assert catalogue.SKIPPED_FSTRING not in printed
    assert "b.py:2: warning: something else" in printed


def test_the_code_holds_refusals_whose_value_given_babel_warns_about(capsys):
    """The real extraction over the package prints none of those lines."""
    found = catalogue._code_messages()
    assert found
    assert catalogue.SKIPPED_FSTRING not in capsys.readouterr().err
