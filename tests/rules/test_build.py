"""Which build of the engine runs (rules/build.py): a run meant to be compiled cannot silently be
pure, nor the other way round, and a compiled build older than its sources is never used."""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

import rules
from rules import build

ASKED = os.environ.get("GINMESA_RULES", "")


def loaded_from_extension(module: str) -> bool:
    return sys.modules[f"rules.{module}"].__file__.endswith(EXTENSION_SUFFIXES[0])


@pytest.mark.skipif(not ASKED, reason="GINMESA_RULES unset: either build may run")
def test_the_build_asked_for_is_the_one_running():
    assert rules.BUILD == ASKED
    # melding is compiled in every compiled build (make engine); the package's chooser never is
    assert loaded_from_extension("melding") == (ASKED == "compiled")
    assert not loaded_from_extension("build")


def test_every_module_of_the_compiled_build_is_loaded_from_it():
    if rules.BUILD == "pure":
        assert not any(
            loaded_from_extension(name.split(".")[1]) for name in sys.modules if name.startswith("rules.")
        )
        return
    compiled = [line.split()[0] for line in build.MANIFEST.read_text(encoding="utf-8").splitlines()]
    assert compiled and all(loaded_from_extension(module) for module in compiled)


@pytest.fixture
def fake_build(tmp_path, monkeypatch):
    """A compiled build of one module, "cards", in a temporary directory, made from rules/cards.py."""
    sources = tmp_path / "rules"
    compiled = tmp_path / "build" / "engine" / "rules"
    sources.mkdir()
    compiled.mkdir(parents=True)
    (sources / "cards.py").write_text("CARDS = ()\n", encoding="utf-8")
    (compiled / f"cards{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    manifest = compiled / "MANIFEST"
    manifest.write_text(f"cards {build.source_digest(sources / 'cards.py')}\n", encoding="utf-8")
    monkeypatch.setattr(build, "SOURCES", sources)
    monkeypatch.setattr(build, "COMPILED", compiled)
    monkeypatch.setattr(build, "MANIFEST", manifest)
    return sources, compiled


def test_a_current_build_is_chosen_unless_pure_is_asked_for(fake_build, monkeypatch):
    _, compiled = fake_build
    path = ["rules"]
    monkeypatch.delenv("GINMESA_RULES", raising=False)
    assert build.choose(path) == "compiled"
    assert path == [str(compiled), "rules"]
    path = ["rules"]
    monkeypatch.setenv("GINMESA_RULES", "pure")
    assert build.choose(path) == "pure"
    assert path == ["rules"]


def test_a_build_older_than_its_sources_is_not_used(fake_build, monkeypatch):
    sources, _ = fake_build
    (sources / "cards.py").write_text("CARDS = (1,)\n", encoding="utf-8")
    path = ["rules"]
    monkeypatch.delenv("GINMESA_RULES", raising=False)
    with pytest.warns(UserWarning, match=r"rules/cards\.py changed since the compiled build"):
        assert build.choose(path) == "pure"
    assert path == ["rules"]
    monkeypatch.setenv("GINMESA_RULES", "compiled")
    with pytest.raises(ImportError, match=r"GINMESA_RULES=compiled, but rules/cards\.py changed"):
        build.choose(path)


def test_no_build_is_pure_quietly_or_an_error_when_compiled_is_asked_for(fake_build, monkeypatch, recwarn):
    _, compiled = fake_build
    (compiled / "MANIFEST").unlink()
    monkeypatch.delenv("GINMESA_RULES", raising=False)
    assert build.choose(["rules"]) == "pure"
    assert not recwarn.list
    monkeypatch.setenv("GINMESA_RULES", "compiled")
    with pytest.raises(ImportError, match="there is no compiled build"):
        build.choose(["rules"])
    monkeypatch.setenv("GINMESA_RULES", "yes")
    with pytest.raises(ImportError, match="pure or compiled"):
        build.choose(["rules"])
