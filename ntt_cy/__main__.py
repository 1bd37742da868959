"""`python -m ntt_cy`: the ntt-cy command line (see ntt_cy/cli.py)."""
import sys

from ntt_cy.cli import main

if __name__ == "__main__":
    sys.exit(main())
