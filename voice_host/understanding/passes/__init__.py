"""The recognition passes, one module each; voice_host/understanding/cascade.py runs them in order."""
