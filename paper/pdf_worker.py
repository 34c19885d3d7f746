"""HTML on standard input → PDF on standard output, at a low CPU priority (``python -m paper.pdf_worker N``).

WeasyPrint spends many seconds on a large tournament's results; run in the web worker it took a core from
every other request for that long. Run here, ``nice``d by N, it takes what the web workers leave, so pages
stay fast while it builds (``paper.pdf.html_to_pdf``; bench/public_load.py floods it). No Django: the HTML is
rendered by the caller and carries its own styles."""

from __future__ import annotations

import contextlib
import os
import sys


def lower_priority(niceness: int) -> None:
    """This process ``nice``d by ``niceness``; at 19 (the production profile) also the idle scheduling class on
    Linux: it then runs only on what every other process leaves. Nice 19 alone is not that below workers that
    are ``nice``d themselves (the public pool of deploy/nginx/ runs at 10): it would get an eighth of a
    worker's share, enough to slow the readers' pages down while a results PDF builds."""
    if niceness <= 0:
        return
    os.nice(niceness)
    if niceness >= 19 and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):  # not allowed here (a restricted container): nice alone
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def main() -> None:
    lower_priority(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
    from weasyprint import HTML

    html = sys.stdin.buffer.read().decode("utf-8")
    sys.stdout.buffer.write(HTML(string=html).write_pdf())


if __name__ == "__main__":
    main()
