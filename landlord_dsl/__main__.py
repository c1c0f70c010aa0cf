"""`python -m landlord_dsl` runs the command line."""

import sys

from .cli.main import main

sys.exit(main())
