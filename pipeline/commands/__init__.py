"""CLI subcommands: every module here with a ``register(subparsers)`` function is a command."""
