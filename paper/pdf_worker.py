"""HTML on standard input → PDF on standard output, at a low CPU priority (``python -m paper.pdf_worker N``).

WeasyPrint spends many seconds on a large tournament's results; run in the web worker it took a core from
every other request for that long. Run here, ``nice``d by N, it takes what the web workers leave, so pages
stay fast while it builds (``paper.pdf.html_to_pdf``; bench/public_load.py floods it). No Django: the HTML is
rendered by the caller and carries its own styles."""

from __future__ import annotations

import os
import sys


def main() -> None:
    niceness = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    if niceness > 0:
        os.nice(niceness)
    from weasyprint import HTML

    html = sys.stdin.buffer.read().decode("utf-8")
    sys.stdout.buffer.write(HTML(string=html).write_pdf())


if __name__ == "__main__":
    main()
