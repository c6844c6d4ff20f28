"""``python -m boneyard.protocol.spec``: regenerate the spec files (``--check`` to verify them)."""

import sys

from boneyard.protocol.spec.gen import main

sys.exit(main())
