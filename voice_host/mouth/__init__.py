"""Mouth: sound out. What the Host says aloud, in whose voice, synthesised with piper, and the thread
that says it (shutting the ears meanwhile). Imports from ears and engine only, never from the loop."""
