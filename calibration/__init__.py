"""Learns a skin (tile templates and grid geometry) for a Minesweeper game it has not seen."""
