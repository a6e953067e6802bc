"""Entry point: ``python -m rulesc`` runs ``rulesc``."""

from .cli import main

raise SystemExit(main())
