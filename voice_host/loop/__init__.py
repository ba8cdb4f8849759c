"""The loop: one night at the table. The listener (utterances in, understood), the session (confirm before
spending), the journal, the case files on disk and the events the screen shows. Imports from ears,
understanding and engine."""
