"""Types of the compiled search (solver/_winprob_core.pyx): those of
:class:`solver.winprob_search.Search`."""

class Search:
    everything: int
    visits_left: int
    max_visits: int
    def __init__(
        self,
        layouts: list[int],
        weights: list[int],
        neighbours: list[list[int]],
        max_visits: int,
        too_large: type[Exception],
    ) -> None: ...
    @property
    def unresolved(self) -> list[int]: ...
    def safe_everywhere(self) -> list[int]: ...
    def surviving(self, cell: int) -> int: ...
    def won_after(self, layouts: int) -> int: ...
    def best_cell(self, layouts: int, opened: int) -> tuple[int | None, int]: ...

def part_layouts(
    cells: list[int],
    constraints: list[tuple[int, list[int]]],
    steps: list[int],
    max_steps: int,
    too_large: type[Exception],
) -> list[tuple[int, int]]: ...
def hidden_neighbours(
    index: dict[tuple[int, int], int],
    columns: int,
    around: tuple[tuple[int, ...], ...],
    cells: list[tuple[int, int]],
) -> list[list[int]]: ...
