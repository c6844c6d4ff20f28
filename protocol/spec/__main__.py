"""``python -m protocol.spec``: regenerate the spec files (``--check`` to verify them)."""

import sys

from protocol.spec.gen import main

sys.exit(main())
