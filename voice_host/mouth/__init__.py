"""Mouth: sound out. What the Host says aloud, in whose voice, synthesised with piper."""
