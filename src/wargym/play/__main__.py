"""``python -m wargym.play``: see :mod:`wargym.play`."""

import sys

from wargym.play import main

sys.exit(main())
