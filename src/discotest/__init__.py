"""discotest: does a translation system get discourse right? Per phenomenon, with evidence per item.

``discotest.run``, ``discotest.compare`` and ``discotest.suites`` (``discotest.api``) are imported on first use: the
package itself imports nothing third-party, so ``python -m discotest`` can drop the working directory from
``sys.path`` (``__main__``) before numpy or a model library is looked for there, and ``import discotest`` is quick.
"""

import sys
import types

from discotest.errors import InputError
from discotest.version import VERSION

__all__ = ["run", "compare", "suites", "InputError", "VERSION"]
__version__ = VERSION
_API = ("run", "compare", "suites")


class _Package(types.ModuleType):
    """Keeps ``discotest.suites`` the API function: importing a suite loader (``discotest.suites.gender`` …, the
    subpackage is reached through import statements only) would otherwise make the import system set the package
    attribute ``suites`` to the subpackage, and ``discotest.suites()`` would fail after any run."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _API and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    if name in _API:
        from discotest import api

        return getattr(api, name)
    raise AttributeError(f"module 'discotest' has no attribute {name!r}")
