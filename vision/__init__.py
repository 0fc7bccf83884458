"""Screen pixels to a :class:`solver.Board`: capture, locate the board, read cells by template."""
