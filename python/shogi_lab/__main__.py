"""``python -m shogi_lab`` is ``python -m shogi_lab.cluster``."""

import sys

from .cluster import main

sys.exit(main())
