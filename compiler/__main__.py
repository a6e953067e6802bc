"""Entry point: ``python -m compiler`` runs ``rulesc``."""

from .cli import main

raise SystemExit(main())
