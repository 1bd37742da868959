"""`python -m ntt_cy.bench`: the same command as `ntt-cy bench`."""
import sys

from ntt_cy.bench import main

if __name__ == "__main__":
    sys.exit(main())
