"""The table screen: a full-screen Textual app that shows the ledger, the night and the evidence.

It reads only `Game.state`, `Reply.parts` and the voice side's events; the engine knows nothing of it.
"""
