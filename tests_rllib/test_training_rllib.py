"""RLlib smoke: one PPO iteration with num_env_runners=0.

It runs only in the ``.venv-rllib`` venv (``[rllib]`` pins an older gymnasium than the main
venv), so it lives outside ``tests/``: ``.venv-rllib/bin/python -m pytest -q tests_rllib``
(training/README.md). There ray and torch must import; a missing one is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_training_rllib_one_ppo_iteration(tmp_path: Path) -> None:
    """``training.rllib_ppo --smoke`` runs one PPO iteration and writes its checkpoint."""
    import ray.rllib  # noqa: F401 - this venv must have it
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
