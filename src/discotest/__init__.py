"""discotest: does a translation system get discourse right? Per phenomenon, with evidence per item."""

from discotest.api import run, run_many
from discotest.errors import InputError

__all__ = ["run", "run_many", "InputError"]
__version__ = "0.1.0"
