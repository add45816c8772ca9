"""RLlib smoke: one PPO iteration with num_env_runners=0 (only in the .venv-rllib venv)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_training_rllib_one_ppo_iteration(tmp_path: Path) -> None:
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")
    ray_tmp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # AF_UNIX paths must stay < 108 bytes
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_AUTH_MODE": "disabled",
           "RAY_TMPDIR": ray_tmp}  # fmt: skip
    try:
        done = subprocess.run(
            [sys.executable, "-m", "training.rllib_ppo", "--smoke", "--checkpoint-dir",
             str(tmp_path / "ckpt")],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert '"iteration": 1' in done.stdout
