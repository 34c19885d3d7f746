"""Entry point of ``python -m scoring``; a crash is a bug and exits 1."""

from __future__ import annotations

import sys

from .cli import EXIT_BUG, main

if __name__ == "__main__":
    try:
        sys.exit(main())
    except SystemExit:
        raise
    except BrokenPipeError:  # the reader (e.g. `head`) stopped reading: not an error
        sys.stderr.close()
        sys.exit(0)
    except Exception:  # anything unexpected is our bug, not the user's input
        import traceback  # only then: it costs the start-up of every command

        traceback.print_exc()
        sys.exit(EXIT_BUG)
