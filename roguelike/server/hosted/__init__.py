"""Games that live on the server: the input log, the game processes, and the play, watch and lobby routes.

``log`` keeps each hosted game as its input log (a command is accepted once its row has
committed); ``gameproc`` is the one module that loads the game, in a process forked for each
live game; ``host`` runs those processes from the web process and fans their frames out;
``routes`` serves ``/play``, ``/lobby`` and ``/watch``. docs/server.md ("Hosted play") tells it whole.
"""
