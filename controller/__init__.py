"""Mouse and keyboard, the play loop, the outcome log and the ``autosweeper`` command."""
