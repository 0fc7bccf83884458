"""The benchmark harness, apart from the rules: seeded games on every core (``run``), each played
by a strategy (``play``), their figures printed, saved and read back (``results``), what the
guesses lose against best play (``regret``), win-rate statistics (``stats``) and progress bars
(``progress``). The rules and mathematics it measures are the rest of :mod:`solver`."""
