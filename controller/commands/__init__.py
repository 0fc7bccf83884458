"""One module per ``autosweeper`` subcommand, each with ``add_parser`` and ``run``."""
