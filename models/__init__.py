"""Finding and loading the speech models offline, with errors that say how to fix them."""

from models.locate import (
    ModelCorruptError,
    ModelError,
    ModelMissingError,
    PiperVoiceFiles,
    SpeechEmbeddingFiles,
    WhisperModelName,
    cache_folder,
    piper_voice_files,
    silero_vad_path,
    speech_embedding_files,
    whisper_model_dir,
)

__all__ = [
    "ModelCorruptError",
    "ModelError",
    "ModelMissingError",
    "PiperVoiceFiles",
    "SpeechEmbeddingFiles",
    "WhisperModelName",
    "cache_folder",
    "piper_voice_files",
    "silero_vad_path",
    "speech_embedding_files",
    "whisper_model_dir",
]
