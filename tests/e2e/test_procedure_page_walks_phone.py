"""The 390 px walk of :mod:`tests.e2e.test_procedure_page_walks`: axe-core on the pages a
player opens first on a phone, and no text over its box on any procedure page. In a file of
its own so that ``--dist loadfile`` may give it to another worker than the 1280 px walk."""

from __future__ import annotations

from tests.e2e.test_procedure_page_walks import report, walked

__all__ = ["walked"]  # the walk's fixture, made once for this file's tests


def test_axe_finds_no_serious_or_critical_violation_on_the_phone_pages(walked):
    found = walked("390px").axe
    assert not found, f"axe-core's serious or critical violations at 390px:\n{report(found)}"


def test_no_text_overflows_its_box_on_any_procedure_page_at_390px(walked):
    found = walked("390px").overflows
    assert not found, f"text over its box, or sideways scrolling, at 390px:\n{report(found)}"
