"""``python -m tilefit``: runs the tilefit tool, or says how to get it."""
import os
import subprocess
import sys

import pytest

import tilefit
import tilefit.__main__


def _env(**extra):
    env = dict(os.environ)
    env.update(extra)
    return env


def test_runs_the_tool():
    tool = tilefit.__main__.tool_path()
    if tool is None:
        pytest.skip("no tilefit tool (the installed wheel carries one; CTest sets TILEFIT_BINARY)")
    p = subprocess.run([sys.executable, "-m", "tilefit", "--version"], capture_output=True, text=True, cwd="/",
                       env=_env(PYTHONPATH=os.pathsep.join(sys.path)))
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("tilefit " + tilefit.__version__)


def test_says_how_to_get_the_tool(monkeypatch, capsys):
    monkeypatch.setattr(tilefit.__main__, "tool_path", lambda: None)
    assert tilefit.__main__.main(["--version"]) == 2
    assert "pip install ." in capsys.readouterr().err
