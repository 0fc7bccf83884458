"""The desktop the bot plays on: a virtual display (``display``), real games started on it
(``games``), the windows of a desktop (``windows``) and the processes started for them
(``processes``)."""
