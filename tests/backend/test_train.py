"""The training backend with real torchrun (Debian's python3-torch, CPU/gloo): data parallel equals one process,
resume equals an uninterrupted run, outputs are as documented, invalid settings stop with words, and Ingot
consolidates what the backend saves."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BACKEND = os.path.join(HERE, "..", "..", "resources", "backend")
PY = "/usr/bin/python3"
ENV = dict(os.environ, PYTHONPATH=BACKEND, OMP_NUM_THREADS="1")


def run(args, nproc=1, check=True):
    if nproc == 1:
        cmd = [PY, "-m", "ingot_train"] + args
    else:
        cmd = [PY, "-m", "ingot_train.launch", "--standalone", f"--nproc_per_node={nproc}", "-m", "ingot_train"] + args
    p = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=600)
    if check and p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed:\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}")
    return p


def load_json(path):
    with open(path) as f:
        return json.load(f)


def losses(out_dir):
    with open(os.path.join(out_dir, "metrics.jsonl")) as f:
        return [r["loss"] for r in map(json.loads, f) if r.get("type") == "metric"]


def weights(out_dir):
    sys.path.insert(0, BACKEND)
    from ingot_train.model import load_safetensors
    return load_safetensors(os.path.join(out_dir, "tensor_parallel_shards", "tp_rank_00_pp_rank_00", "model.safetensors"))


class TestTrain(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ingot-backend-")
        cls.single = os.path.join(cls.tmp, "single")
        run(["--config_name", "tiny", "--output_dir", cls.single, "--max_steps", "6", "--per_device_train_batch_size", "4",
             "--seed", "7"])

    def test_data_parallel_equals_one_process(self):
        out = os.path.join(self.tmp, "dp2")
        run(["--config_name", "tiny", "--output_dir", out, "--max_steps", "6", "--per_device_train_batch_size", "2",
             "--seed", "7"], nproc=2)
        a, b = losses(self.single), losses(out)
        self.assertEqual(len(a), 6)
        for x, y in zip(a, b):
            self.assertLess(abs(x - y) / abs(x), 1e-4)
        wa, wb = weights(self.single), weights(out)
        self.assertEqual(set(wa), set(wb))
        for k in wa:
            self.assertLess(float((wa[k].float() - wb[k].float()).abs().max()), 1e-5, k)

    def test_resume_equals_uninterrupted(self):
        # The learning-rate schedule depends on max_steps: resume a 6-step run from its step-3 checkpoint.
        first = os.path.join(self.tmp, "first")
        run(["--config_name", "tiny", "--output_dir", first, "--max_steps", "6", "--per_device_train_batch_size", "4",
             "--seed", "7", "--save_steps", "3"])
        self.assertTrue(os.path.isdir(os.path.join(first, "checkpoint-3", "tensor_parallel_shards")))
        cont = os.path.join(self.tmp, "continued")
        run(["--config_name", "tiny", "--output_dir", cont, "--max_steps", "6", "--per_device_train_batch_size", "4",
             "--seed", "7", "--resume_from_checkpoint", os.path.join(first, "checkpoint-3")])
        uninterrupted = losses(self.single)
        resumed = losses(cont)
        self.assertEqual(len(resumed), 3)
        for x, y in zip(uninterrupted[3:], resumed):
            self.assertLess(abs(x - y) / abs(x), 1e-6)

    def test_outputs(self):
        for name in ("metrics.jsonl", "trainer_state.json", "train_results.json", "all_results.json", "config.json"):
            self.assertTrue(os.path.exists(os.path.join(self.single, name)), name)
        state = load_json(os.path.join(self.single, "trainer_state.json"))
        self.assertEqual(state["global_step"], 6)
        self.assertEqual(len(state["log_history"]), 6)
        with open(os.path.join(self.single, "metrics.jsonl")) as f:
            events = [json.loads(l)["event"] for l in f if '"event"' in l]
        self.assertEqual(events[0], "started")
        self.assertIn("first_step", events)
        self.assertEqual(events[-1], "finished")
        meta = load_json(os.path.join(self.single, "tensor_parallel_shards", "tp_rank_00_pp_rank_00", "mp_metadata.json"))
        self.assertFalse(meta["parameters"]["model.embed_tokens.weight"]["tensor_model_parallel"])
        self.assertFalse([d for d in os.listdir(self.single) if ".tmp-" in d])  # no half-written checkpoint

    def test_ingot_consolidates_the_backend_output(self):
        cli = os.environ.get("INGOT_CLI")
        if not cli:
            self.skipTest("INGOT_CLI not set")
        out = os.path.join(self.tmp, "consolidated")
        p = subprocess.run([cli, "consolidate", self.single, out, "--verify", "--json"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("Ingot backend", json.loads(p.stdout)["layout"])
        wa = weights(self.single)
        sys.path.insert(0, BACKEND)
        from ingot_train.model import load_safetensors
        wb = load_safetensors(os.path.join(out, "model.safetensors"))
        for k in wa:
            self.assertTrue(bool((wa[k] == wb[k]).all()), k)

    def test_invalid_settings_stop_with_words(self):
        cases = [
            (["--output_dir", os.path.join(self.tmp, "x")], 1, "name a model"),
            (["--config_name", "tiny", "--output_dir", os.path.join(self.tmp, "x"), "--train_file", "/nonexistent.txt"], 1, "does not exist"),
            (["--config_name", "tiny", "--output_dir", os.path.join(self.tmp, "x"), "--tensor_parallel_size", "3"], 2, "does not divide the world size 2"),
            (["--config_name", "tiny", "--output_dir", os.path.join(self.tmp, "x"), "--block_size", "0"], 1, "--block_size must be at least 1"),
        ]
        for args, nproc, words in cases:
            p = run(args, nproc=nproc, check=False)
            self.assertNotEqual(p.returncode, 0, args)
            self.assertIn(words, p.stderr, args)


if __name__ == "__main__":
    unittest.main(verbosity=2)
