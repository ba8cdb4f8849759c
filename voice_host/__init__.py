"""The app around the engine: text mode, the table screen, ears (whisper) and a mouth (piper)."""
