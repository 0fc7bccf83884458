"""The benchmark harness, apart from the rules: seeded games on every core (``run``), what the
guesses lose against best play (``regret``), win-rate statistics (``stats``) and progress bars
(``progress``). The rules and mathematics it measures are the rest of :mod:`solver`."""
