"""The console script's earlier target (`lurker = memory.cli:main`, and `python -m memory.cli`),
kept for installs made before the entry points moved to memory/surfaces/. An entry point itself:
nothing in the engine imports it."""
import sys

from memory.surfaces.cli import main

if __name__ == "__main__":
    sys.exit(main())
