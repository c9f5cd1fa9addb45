"""Front ends: the command line, watch mode, and the application layer they share.

``app`` is everything a front end may ask of the tool; ``cli`` (``pnp`` and ``python -m
generator``) and ``watch`` talk only to it, so a second front end (a preview server) behaves
the same.
"""
