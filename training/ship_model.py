"""Package a trained No Quarter policy: slim SB3 zip + ONNX + sidecar JSON in agents/models/.

Run from the repository root::

    python -m training.ship_model --checkpoint runs/nq_skirmish/best_model.zip \
        --run-dir runs/nq_skirmish --out agents/models/nq_skirmish_ppo

The zip is re-saved without optimiser state (a fresh optimiser is attached), the ONNX graph
takes ``observation`` and ``action_mask`` (``wargym.agents.neural.export``), and the JSON
records the env the policy was trained on (``env_id``, ``env_kwargs`` without training-only
keys, observation/action layout versions) for ``LearnedAgent.meta``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import yaml


@dataclass
class Args:
    checkpoint: str = "runs/nq_skirmish/best_model.zip"
    """Trained MaskablePPO zip."""
    run_dir: str = "runs/nq_skirmish"
    """Run folder holding args.yaml (the env configuration)."""
    out: str = "agents/models/nq_skirmish_ppo"
    """Output stem (.zip, .onnx, .json are added)."""
    onnx: bool = True
    """Also export ONNX (needs the [export] extra)."""


def main(args: Args) -> dict[str, str]:
    import torch
    from sb3_contrib import MaskablePPO

    from wargym.agents.entry_points import named_kwargs
    from wargym.envs.no_quarter.codec import ACTION_VERSION
    from wargym.export_onnx import make_sidecar_env

    train_args = yaml.safe_load((Path(args.run_dir) / "args.yaml").read_text(encoding="utf-8"))
    model = MaskablePPO.load(args.checkpoint, device="cpu")  # your own run's checkpoint (trusted)
    model.policy.optimizer = torch.optim.Adam(model.policy.parameters(), lr=1e-4)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out.with_suffix(".zip"))
    files = {"zip": str(out.with_suffix(".zip"))}
    if args.onnx:
        from wargym.agents.neural.export import export_onnx

        files["onnx"] = str(export_onnx(model, out.with_suffix(".onnx")))
    env_kwargs = named_kwargs({k: v for k, v in train_args["env_kwargs"].items()
                               if k not in ("reward_shaping", "opponent")})  # fmt: skip
    env = make_sidecar_env(train_args["env_id"], env_kwargs)  # hooks by entry-point name
    obs_version = env.unwrapped.encoder.version  # "nq-obs-v3", "+nq-af-v1" with action_features
    env.close()
    meta = {
        "env_id": train_args["env_id"],
        "env_kwargs": env_kwargs,
        "observation_version": obs_version,
        "action_version": ACTION_VERSION,
        "algorithm": f"sb3_contrib.MaskablePPO ({type(model.policy).__name__})",
        "trained_steps": int(model.num_timesteps),
        "source_checkpoint": args.checkpoint,
    }
    out.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    files["json"] = str(out.with_suffix(".json"))
    print(json.dumps(files))
    return files


if __name__ == "__main__":
    from wargym.agents.config import cli

    main(cli(Args, description=__doc__ or ""))
