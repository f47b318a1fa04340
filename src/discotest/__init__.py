"""discotest: does a translation system get discourse right? Per phenomenon, with evidence per item."""

from discotest.api import compare, run, suites
from discotest.errors import InputError
from discotest.version import VERSION

__all__ = ["run", "compare", "suites", "InputError", "VERSION"]
__version__ = VERSION
