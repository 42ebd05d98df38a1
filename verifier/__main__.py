"""``python -m verifier`` runs the command line."""

import sys

from verifier.cli import main

sys.exit(main())
