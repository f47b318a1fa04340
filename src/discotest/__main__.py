import sys

from discotest.cli import main

sys.exit(main())
