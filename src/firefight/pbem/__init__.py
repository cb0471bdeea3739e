"""Dice neither player can predict or steer, for play by e-mail and at a shared table
(docs/pbem.md): hash chains (``chain``), the protocol read from a game's journal (``game``),
and the players' messages and commands (``play``)."""
