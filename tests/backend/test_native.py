"""The training backend's native engine with a real PyTorch 2 (Debian 13's python3-torch 2.6, run through
tests/support/torch2/python3; CPU/gloo, real torchrun): every parallel layout (DDP, ZeRO-1, FSDP, tensor + sequence
parallel, FSDP x TP on a 2-D mesh, pipeline stages, torch.compile) trains exactly like one process, and one process
like the XLA engine; a DCP checkpoint saved on tp=2 resumes with FSDP or on one process as if uninterrupted; the
checkpoint folder is what torch.distributed.checkpoint writes, with the model and optimizer under the backend's own
names; an engine never resumes the other's checkpoint. This file runs inside the PyTorch 2 root
(tests/CMakeLists.txt: backend_native)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BACKEND = os.path.join(HERE, "..", "..", "resources", "backend")
sys.path.insert(0, HERE)
from test_train import events, free_port, load_json, losses  # noqa: E402  (the port reservation the XLA tests use)

PY = sys.executable  # the PyTorch 2 root's python3: torchrun and the backend run in the same root
ENV = dict(os.environ, PYTHONPATH=BACKEND + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")
TINY = ["--config_name", "tiny", "--max_steps", "6", "--seed", "7"]
LAYOUTS = {  # name: (processes, flags); a global batch of 4 sequences per step, like the single process
    "ddp2": (2, ["--per_device_train_batch_size", "2"]),
    "zero1_2": (2, ["--per_device_train_batch_size", "2", "--zero_1"]),
    "fsdp2": (2, ["--per_device_train_batch_size", "2", "--fsdp"]),
    # Saves at step 3: the source of the resume tests.
    "tp2": (2, ["--per_device_train_batch_size", "4", "--tensor_parallel_size", "2", "--save_steps", "3"]),
    "fsdp2_tp2": (4, ["--per_device_train_batch_size", "2", "--fsdp", "--tensor_parallel_size", "2"]),
    "pp2": (2, ["--per_device_train_batch_size", "4", "--pipeline_parallel_size", "2", "--num_microbatches", "4"]),
    # torch.compile with the CPU backend this machine can run (aot_eager: the root has no C++ compiler for inductor).
    "compiled": (1, ["--per_device_train_batch_size", "4", "--torch_compile"]),
}
# What the first log lines must name for each layout (the implementation of each setting).
SAYS = {"ddp2": ["DDP over 2 ranks"], "zero1_2": ["ZeroRedundancyOptimizer"], "fsdp2": ["FSDP1"],
        "tp2": ["DTensor parallelize_module", "SequenceParallel", "loss_parallel"],
        "fsdp2_tp2": ["FSDP1", "DTensor parallelize_module"], "compiled": ["torch.compile(backend="],
        "pp2": ["2 stages on the backend's own 1F1B schedule"]}


def grad_norms(out_dir):
    with open(os.path.join(out_dir, "metrics.jsonl")) as f:
        return [r["grad_norm"] for r in map(json.loads, f) if r.get("type") == "metric"]


def command(args, nproc=1, engine="native"):
    if nproc == 1:
        cmd = [PY, "-m", "ingot_train"]
    else:
        cmd = [PY, "-m", "torch.distributed.run", "--nnodes=1", "--master_addr=127.0.0.1",
               f"--master_port={free_port()}", f"--nproc_per_node={nproc}", "-m", "ingot_train"]
    return cmd + ["--engine", engine] + args


def run(args, nproc=1, engine="native", check=True):
    cmd = command(args, nproc, engine)
    p = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=300)
    if check and p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed:\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}")
    return p


class TestNative(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ingot-native-")
        cls.single = os.path.join(cls.tmp, "single")
        cls.single_log = run(TINY + ["--output_dir", cls.single, "--per_device_train_batch_size", "4"]).stdout
        cls.runs = {}

    @classmethod
    def layout(cls, name):
        """(output folder, stdout) of a 6-step run on layout NAME (run once, shared by the tests)."""
        if name not in cls.runs:
            nproc, flags = LAYOUTS[name]
            out = os.path.join(cls.tmp, name)
            cls.runs[name] = out, run(TINY + flags + ["--output_dir", out], nproc=nproc).stdout
        return cls.runs[name]

    def assertLossesEqual(self, expected, got, rel=1e-4):
        self.assertEqual(len(expected), len(got))
        self.assertGreaterEqual(len(got), 3)
        for step, (x, y) in enumerate(zip(expected, got), 1):
            self.assertLess(abs(x - y) / abs(x), rel, f"step {step}: {x} vs {y}")

    def test_one_process_equals_the_xla_engine(self):
        # The same model, init, data order, schedule and clipping as the XLA engine (run here on the same torch).
        out = os.path.join(self.tmp, "xla")
        run(TINY + ["--output_dir", out, "--per_device_train_batch_size", "4"], engine="xla")
        self.assertLossesEqual(losses(out), losses(self.single))
        self.assertLossesEqual(grad_norms(out), grad_norms(self.single), rel=1e-5)
        self.assertIn("ingot_train: engine native", self.single_log)

    def test_every_parallel_layout_equals_one_process(self):
        for name in LAYOUTS:
            with self.subTest(layout=name):
                out, log = self.layout(name)
                self.assertLossesEqual(losses(self.single), losses(out))
                # The global gradient norm (what clipping scales by) counts every weight once, whatever it became:
                # a slip (a pending DTensor sum squared per rank, FSDP1's own norm missing the tp split) shows
                # here long before the loss drifts past 1e-4.
                self.assertLossesEqual(grad_norms(self.single), grad_norms(out), rel=1e-5)
                head = "\n".join(l for l in log.splitlines() if l.startswith("ingot_train: "))
                self.assertIn("engine native", head)
                for words in SAYS[name]:
                    self.assertIn(words, head)

    def test_checkpoint_is_dcp_with_the_backends_names(self):
        import torch
        from torch.distributed.checkpoint import FileSystemReader
        out, _ = self.layout("tp2")
        ck = os.path.join(out, "checkpoint-3")
        for folder in (ck, out):  # every save_steps checkpoint and the final output
            names = set(os.listdir(folder))
            self.assertLessEqual({".metadata", "__0_0.distcp", "__1_0.distcp", "config.json", "trainer_state.json",
                                  "training_args.json"}, names, folder)
            self.assertFalse([n for n in names if ".tmp-" in n])
            self.assertEqual(load_json(os.path.join(folder, "training_args.json"))["engine"], "native")
        self.assertEqual(load_json(os.path.join(ck, "trainer_state.json"))["global_step"], 3)
        meta = FileSystemReader(ck).read_metadata().state_dict_metadata
        # The whole (global) shapes under the XLA engine's names, each tensor saved once over the two ranks' files.
        self.assertEqual(list(meta["model.model.embed_tokens.weight"].size), [260, 64])
        self.assertEqual(list(meta["model.model.layers.1.self_attn.k_proj.weight"].size), [32, 64])
        self.assertEqual(list(meta["optimizer.state.lm_head.weight.exp_avg_sq"].size), [260, 64])
        self.assertIn("optimizer.state.model.norm.weight.step", meta)
        self.assertIn("trainer.step", meta)
        self.assertIn("rng", meta)
        split = meta["model.model.layers.0.mlp.down_proj.weight"]
        self.assertEqual(sorted(list(c.offsets) for c in split.chunks), [[0, 0], [0, 64]])  # split on dim 1 (tp=2)
        # torch itself reads the weights back.
        import torch.distributed.checkpoint as dcp
        sd = {"model.norm.weight": torch.empty(64)}
        dcp.load({"model": sd}, checkpoint_id=ck)  # (one process without a process group)
        self.assertTrue(torch.isfinite(sd["model.norm.weight"]).all())
        self.assertNotEqual(float(sd["model.norm.weight"].sum()), 64.0)  # trained away from its init of ones

    def test_save_total_limit_keeps_the_newest_native_checkpoints(self):
        out = os.path.join(self.tmp, "rotated")
        run(["--config_name", "tiny", "--max_steps", "4", "--save_steps", "1", "--save_total_limit", "2",
             "--output_dir", out])
        self.assertEqual(sorted(n for n in os.listdir(out) if n.startswith("checkpoint-")),
                         ["checkpoint-2", "checkpoint-3"])
        self.assertTrue(os.path.isfile(os.path.join(out, "checkpoint-3", ".metadata")))
        self.assertTrue(os.path.isfile(os.path.join(out, ".metadata")))  # the final save, in the output folder

    def test_a_stop_signal_saves_a_dcp_checkpoint_that_resumes(self):
        # SIGTERM to torchrun (what Ingot's Stop sends): every rank ends its step, the DCP checkpoint is saved, and
        # a run resumed from it goes on from that step.
        import signal
        out = os.path.join(self.tmp, "stopped")
        args = ["--config_name", "tiny", "--max_steps", "100000", "--per_device_train_batch_size", "2",
                "--output_dir", out]
        with tempfile.TemporaryFile("w+") as err:
            p = subprocess.Popen(command(args, 2), env=ENV, stdout=subprocess.PIPE, stderr=err, text=True)
            with p.stdout:
                for line in p.stdout:  # waits on the run's own report of step 2, never on a fixed time
                    if line.startswith("INGOT_METRIC ") and json.loads(line[len("INGOT_METRIC "):])["step"] >= 2:
                        p.send_signal(signal.SIGTERM)
                        break
                else:
                    err.seek(0)
                    self.fail(f"no step 2 before the run ended:\n{err.read()[-3000:]}")
                p.stdout.read()
            p.wait(timeout=120)
        stopped = [e for e in events(out) if e["event"] == "stopped"]
        self.assertEqual(len(stopped), 1)
        n = stopped[0]["step"]
        ck = os.path.join(out, f"checkpoint-{n}")
        self.assertEqual(stopped[0]["checkpoint"], ck)
        self.assertTrue(os.path.isfile(os.path.join(ck, ".metadata")))
        self.assertFalse([x for x in os.listdir(out) if ".tmp-" in x])
        res = os.path.join(self.tmp, "stopped-resumed")
        run(["--config_name", "tiny", "--max_steps", str(n + 2), "--per_device_train_batch_size", "4",
             "--output_dir", res, "--resume_from_checkpoint", ck])
        self.assertEqual(events(res)[0]["resumed_from"], n)
        self.assertEqual(events(res)[-1]["event"], "finished")
        self.assertEqual(len(losses(res)), 2)

    def test_resume_on_another_layout_equals_uninterrupted(self):
        # Saved at step 3 on tp=2; resumed with FSDP over 2 ranks and on one process: steps 4-6 equal the
        # uninterrupted single process (DCP re-shards model and AdamW state on load).
        out, _ = self.layout("tp2")
        ck = os.path.join(out, "checkpoint-3")
        expected = losses(self.single)[3:]
        for name, nproc, flags in (("resumed_fsdp2", 2, ["--per_device_train_batch_size", "2", "--fsdp"]),
                                   ("resumed_one", 1, ["--per_device_train_batch_size", "4"])):
            with self.subTest(layout=name):
                res = os.path.join(self.tmp, name)
                run(TINY + flags + ["--output_dir", res, "--resume_from_checkpoint", ck], nproc=nproc)
                self.assertLossesEqual(expected, losses(res))

    def test_an_engine_never_resumes_the_others_checkpoint(self):
        out, _ = self.layout("tp2")
        ck = os.path.join(out, "checkpoint-3")
        p = run(TINY + ["--output_dir", os.path.join(self.tmp, "refused"), "--resume_from_checkpoint", ck],
                engine="xla", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("was written by the native engine (a DCP checkpoint), this run uses the xla engine", p.stderr)
        xla = os.path.join(self.tmp, "xla_ck")
        run(TINY[:2] + ["--max_steps", "1", "--output_dir", xla], engine="xla")
        p = run(TINY + ["--output_dir", os.path.join(self.tmp, "refused2"), "--resume_from_checkpoint", xla],
                check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("was written by the XLA engine", p.stderr)

    def test_invalid_combinations_stop_with_words(self):
        cases = [(["--fsdp", "--zero_1"], "native", "pass either --fsdp or --zero_1"),
                 (["--fsdp"], "xla", "--fsdp needs the native engine"),
                 (["--torch_compile"], "xla", "--torch_compile needs the native engine"),
                 (["--zero_1", "--tensor_parallel_size", "2"], "native", "use --fsdp"),
                 (["--pipeline_parallel_size", "2", "--tensor_parallel_size", "2"], "native",
                  "combines with data parallelism and --zero_1 only")]
        for flags, engine, words in cases:
            with self.subTest(flags=flags, engine=engine):
                p = run(TINY + flags + ["--output_dir", os.path.join(self.tmp, "invalid")], engine=engine,
                        check=False)
                self.assertEqual(p.returncode, 2)
                self.assertIn(words, p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
