"""`python -m unonet` is the `unonet` command."""

from unonet.cli import main

raise SystemExit(main())
