"""ActionFeaturePolicy: per-action head over the nq-af-v1 block; trains, exports to ONNX."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


def _model():  # noqa: ANN202
    import gymnasium
    from sb3_contrib import MaskablePPO

    import wargym.envs  # noqa: F401
    from wargym.agents.envspecs import mirror_skirmish
    from wargym.agents.neural import policy_kwargs
    from wargym.agents.neural.af_policy import ActionFeaturePolicy

    env = gymnasium.make(
        "wargym/NoQuarter-Skirmish-v1",
        action_features=True,
        cell=4.0,
        battle_factory=mirror_skirmish,
    )
    model = MaskablePPO(
        ActionFeaturePolicy, env, n_steps=64, batch_size=32, n_epochs=1,
        policy_kwargs=policy_kwargs([32], "tanh"), seed=0, device="cpu",
    )  # fmt: skip
    return env, model


def test_af_policy_logits_depend_on_each_actions_own_features() -> None:
    env, model = _model()
    obs, _ = env.reset(seed=1)
    observation = torch.as_tensor(obs["observation"][None]).float()
    n = env.action_space.n
    rows = model.policy.af_rows
    latent = torch.randn(1, model.policy.mlp_extractor.latent_dim_pi)
    column = 7
    changed = observation.clone()
    changed[0, observation.shape[1] - rows * n + column] += 1.0  # row 0 of action 7 only
    with torch.no_grad():
        base = model.policy.af_logits(latent, observation)
        after = model.policy.af_logits(latent, changed)
    moved = (after - base).abs()[0] > 1e-7
    assert bool(moved[column]) and int(moved.sum()) == 1  # weights shared, columns separate


def test_af_policy_head_is_trained_and_exports_to_onnx_with_identical_actions(
    tmp_path,  # noqa: ANN001
) -> None:
    onnxruntime = pytest.importorskip("onnxruntime")
    from sb3_contrib import MaskablePPO

    from wargym.agents.neural.export import export_onnx

    env, model = _model()
    before = model.policy.af_context.weight.detach().clone()
    model.learn(128)
    # the optimiser is rebuilt after the head exists: PPO updates the shared head too
    assert not torch.equal(before, model.policy.af_context.weight.detach())
    model.save(tmp_path / "af.zip")
    loaded = MaskablePPO.load(tmp_path / "af.zip", device="cpu")
    assert type(loaded.policy).__name__ == "ActionFeaturePolicy"
    export_onnx(loaded, tmp_path / "af.onnx", check=20)
    session = onnxruntime.InferenceSession(str(tmp_path / "af.onnx"))
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    compared = 0
    for _ in range(40):  # real observations, feature block filled in
        mask = obs["action_mask"]
        feed = {
            "observation": obs["observation"][None],
            "action_mask": mask[None].astype(np.float32),
        }
        onnx_action = int(session.run(["action"], feed)[0][0])
        torch_action, _ = loaded.predict(
            {k: v[None] for k, v in obs.items()}, action_masks=mask[None].astype(bool),
            deterministic=True,
        )  # fmt: skip
        assert onnx_action == int(torch_action[0]) and mask[onnx_action]
        compared += 1
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, _ = env.reset()
    assert compared == 40
