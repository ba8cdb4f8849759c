"""Understanding: what was heard, as a message for the engine. Normalising transcripts, the fuzzy NAMES
matcher and the recognition passes. Imports from ears and engine only."""
