"""discotest: does a translation system get discourse right? Per phenomenon, with evidence per item.

``discotest.run``, ``discotest.compare``, ``discotest.card`` and ``discotest.suites`` (``discotest.api``) are imported
on first use: the package itself imports nothing third-party, so ``python -m discotest`` can drop the working directory
from ``sys.path`` (``__main__``) before numpy or a model library is looked for there, and ``import discotest`` is
quick.
"""

from discotest.errors import InputError

__all__ = ["run", "compare", "card", "suites", "InputError", "VERSION"]
_API = ("run", "compare", "card", "suites")


def __getattr__(name: str):
    if name in _API:
        from discotest import api

        return getattr(api, name)
    if name in ("VERSION", "__version__"):  # read on first use: the aligner's child processes never need it (40 ms)
        from discotest.version import VERSION

        return VERSION
    raise AttributeError(f"module 'discotest' has no attribute {name!r}")
