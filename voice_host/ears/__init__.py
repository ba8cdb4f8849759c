"""Ears: sound in. The microphone and speaker devices, end-of-speech detection (Silero VAD), faster-whisper,
and the near-voice gate. Nothing here knows the game; nothing here imports from the layers above."""
