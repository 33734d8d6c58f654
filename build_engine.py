"""Compile the rules engine with mypyc into build/engine/rules/ (``make engine``).

The compiled modules live outside the sources, so the pure-Python package stays importable as it
is: rules/build.py decides at import which of the two runs (GINMESA_RULES=pure or compiled).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent
C_SOURCES = ROOT / "build" / "engine-c"

# The modules compiled. Compiled code checks its annotations at run time, so where the engine takes
# anything and refuses a wrong type with its own error (InvalidCard, InvalidRuleset, InvalidState...),
# the compiled build would raise a TypeError first. These stay Python for that reason:
#   moves    Action("discard", "7H") takes a str for its Card field and parses it;
#   ruleset  Ruleset checks the type of every option (hollywood=1 is an InvalidRuleset);
#   showdown showdown(multiplier=1.5) and Showdown.from_dict(a list) are RulesErrors;
#   match    Match.from_dict names the bad field of a stored match in its InvalidState;
# and __init__ and build, which choose the build. The others take their untyped input as object.
COMPILED_MODULES = ["cards", "deal", "errors", "hollywood", "melding", "scoring", "view"]


def main() -> None:
    os.environ["GINMESA_RULES"] = "pure"  # never load the build being replaced
    from mypyc.build import mypycify
    from setuptools import setup

    from rules.build import COMPILED, MANIFEST, SOURCES, source_digest

    shutil.rmtree(COMPILED.parent, ignore_errors=True)
    compiled = [str(SOURCES / f"{module}.py") for module in COMPILED_MODULES]
    extensions = mypycify(
        # not the project's mypy configuration: it loads the Django plugin, which rules/ never needs
        ["--config-file", "", "--strict", *map(str, sorted(SOURCES.glob("*.py")))],
        only_compile_paths=compiled,
        target_dir=str(C_SOURCES),
        # the shared runtime library becomes rules._mypyc_runtime__mypyc, found on the package's path
        group_name="rules._mypyc_runtime",
    )
    setup(
        name="ginmesa-rules-compiled",
        ext_modules=extensions,
        script_args=[
            "build_ext",
            "--build-lib",
            str(COMPILED.parent),
            "--build-temp",
            str(C_SOURCES / "obj"),
        ],
    )
    MANIFEST.write_text(
        "".join(f"{module} {source_digest(SOURCES / f'{module}.py')}\n" for module in COMPILED_MODULES),
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
