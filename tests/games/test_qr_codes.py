"""``{% qr_svg %}`` keeps each code it made (games/templatetags/judge_links.py): the judges page and every seating
sheet draw the same private links on each render, and segno spends about 9 ms on a code."""

from __future__ import annotations

from typing import Any

import segno

from games.templatetags import judge_links


def test_a_link_is_drawn_once_and_the_same_as_segno_draws_it(monkeypatch: Any) -> None:
    judge_links.qr_svg_text.cache_clear()
    made: list[str] = []
    real_make = segno.make

    def counting_make(content: str, **options: Any) -> Any:
        made.append(content)
        return real_make(content, **options)

    monkeypatch.setattr(judge_links.segno, "make", counting_make)
    first = judge_links.qr_svg("https://example.org/t/cup/j/abc/")
    again = judge_links.qr_svg("https://example.org/t/cup/j/abc/")
    printed = judge_links.qr_svg("https://example.org/t/cup/j/abc/", 0.6, "mm")
    other = judge_links.qr_svg("https://example.org/t/cup/j/xyz/")
    assert made == ["https://example.org/t/cup/j/abc/"] * 2 + ["https://example.org/t/cup/j/xyz/"]
    assert first == again and first != printed and first != other
    fresh = real_make("https://example.org/t/cup/j/abc/", error="m", micro=False)
    assert first == fresh.svg_inline(scale=3, unit=None, dark="#000", light="#fff", border=2)
    assert 'class="segno"' in first
