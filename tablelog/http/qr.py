"""A sign-in link as a QR code: inline SVG markup, for a phone to scan off the GM's screen.

segno (pure Python) draws it. The markup has no `style` attribute and no script: only
presentation attributes (`fill`, `stroke`), which the page's Content-Security-Policy
(`style-src 'self'`, page.py) allows, so it goes straight into the page. Its size comes from
the stylesheet (a viewBox, no width or height); black on a white quiet zone whatever the page's
colours, as a camera wants.
"""

from __future__ import annotations

import segno
from markupsafe import escape

BORDER = 4  # modules of quiet zone: what the QR specification asks for


def qr_code(text: str) -> segno.QRCode:
    """The QR code of `text` (error correction M: a screen photographed at an angle)."""
    return segno.make(text, error="m", micro=False)


def qr_svg(text: str, label: str) -> str:
    """`text` as an inline `<svg>` QR code, named `label` for a screen reader."""
    markup = qr_code(text).svg_inline(
        scale=1,
        border=BORDER,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr",
        lineclass=None,
    )
    assert markup.startswith("<svg ")
    return f'<svg role="img" aria-label="{escape(label)}" ' + markup.removeprefix("<svg ")
