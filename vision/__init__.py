"""Screen pixels to a :class:`solver.Board`: capture, locating the board, reading cells by template."""
