"""Complete example rule modules, written only against the public API of ``docs/modules.md``.

Importing a module of this package registers it (its rules, its figure layer and its table
panel), so that ``Rules(modules=(NAME,))`` plays it and its saved games load:

>>> from catan_nb import Board, Game
>>> from catan_nb.rules import Rules
>>> from catan_nb.examples import shearing
>>> game = Game(Board.beginner(), seed=3, start="beginner", rules=Rules(modules=(shearing.NAME,)))
>>> game.goods[-1], game.vp_target
(Textile.YARN, 11)

* :mod:`catan_nb.examples.shearing`: a new good (yarn), a new piece kind (the loom), two
  actions, a yield, a decision on the stack, a win target, a figure layer and a table panel.
* :mod:`catan_nb.examples.toll_bridges`: a path piece that joins roads directly (the bridge),
  a public good (silver), where a piece may stand (``allowed_sites``, ``check_site``) and a site
  surcharge (the toll), with a figure layer and a panel that only declares (a cost row, a column).
"""

__all__ = ["shearing", "toll_bridges"]
