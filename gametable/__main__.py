"""``python -m gametable`` is the ``gametable`` command."""

import sys

from gametable.cli import main

sys.exit(main())
