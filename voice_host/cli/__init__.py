"""The `third-carol` command and its subcommands (text mode, hear, lint/seal/verify). On top of everything."""
