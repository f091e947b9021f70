"""``python -m chemie``."""

import sys

from chemie.cli import main

sys.exit(main())
