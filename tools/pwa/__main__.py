"""``python -m tools.pwa [build] [--check] ...`` builds the PWA; ``python -m tools.pwa verify`` lists
every patch of Flet's files as applied or mismatch (see ``build.py``)."""

import sys

from tools.pwa.build import main

sys.exit(main())
