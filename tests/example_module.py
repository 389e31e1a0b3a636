"""The complete example module now ships with the package: :mod:`catan_nb.examples.shearing`.

Kept so that tests written against ``import example_module`` go on working.
"""

from catan_nb.examples.shearing import *  # noqa: F401,F403
from catan_nb.examples.shearing import NAME, Shearing  # noqa: F401
