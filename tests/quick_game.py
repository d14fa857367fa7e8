"""The quick game of the server, storage and terminal tests: few moves, two seats, public
information, computer players. It is Pig, named here and only here outside its own package
and tests (Pig's test that nobody else names it allows this one line): if Pig went, this line
would name another game and every test would still run."""

QUICK_GAME = "pig"
