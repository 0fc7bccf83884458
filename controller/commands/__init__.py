"""One module per ``autosweeper`` subcommand, each with ``add_parser(subparsers)`` and ``run(args)``."""
