"""Finding and loading the speech models offline, with errors that say how to fix them."""
