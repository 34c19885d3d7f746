"""``{% qr_svg url %}``: a QR code of ``url`` as inline SVG (segno), for the judges' private links on the judges
page and the seating sheets; no image file and no script, so the Content-Security-Policy and WeasyPrint take it
as it is."""

from __future__ import annotations

from functools import lru_cache

import segno
from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def qr_svg(url: str, scale: float = 3, unit: str | None = None) -> SafeString:
    """``scale``: the size of a module (in pixels, or in ``unit``: "mm" for the printed sheets)."""
    return mark_safe(qr_svg_text(url, scale, unit))


@lru_cache(maxsize=1024)
def qr_svg_text(url: str, scale: float, unit: str | None) -> str:
    """Kept per process: a code is about 9 ms to make (segno tries eight masks), and the judges page and every
    seating sheet show the same links on each render."""
    code = segno.make(url, error="m", micro=False)
    return str(code.svg_inline(scale=scale, unit=unit, dark="#000", light="#fff", border=2))
