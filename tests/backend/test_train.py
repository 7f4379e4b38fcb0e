"""The training backend with real torchrun (Debian's python3-torch, CPU/gloo): every parallel layout (data, ZeRO-1,
tensor, sequence, pipeline and their mixes) trains exactly like one process, its shards re-assemble into the same
weights, resume equals an uninterrupted run, stops and crashes never leave a complete-looking checkpoint, outputs
are as documented, invalid settings stop with words, two-node launches work, and Ingot consolidates the output."""
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


PORT_LOCKS = os.path.join(tempfile.gettempdir(), "ingot-test-ports")
_held_ports = {}  # port: its lock file's descriptor, open (so the port stays reserved) until this process exits


def _port_candidates():
    """Ports below the kernel's ephemeral range, so that no outgoing connection (gloo's, a store client's, another
    test's) is ever given one; torchrun's default ports left out."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low, high = map(int, f.read().split())
    except (OSError, ValueError):
        low, high = 32768, 60999
    ports = [p for p in range(20000, 30000) if not low <= p <= high and p not in (29400, 29500)]
    return ports or [p for p in range(20000, 30000) if p not in (29400, 29500)]


def free_port():
    """A rendezvous port no other test process running now can get (ctest -j runs test processes side by side,
    and binding port 0 then closing the socket lets two of them draw the same port before torchrun binds it).
    The port is reserved with an exclusive flock on PORT_LOCKS/<port>.lock, kept until this process exits: a
    process holding it is alive, and the kernel drops it when the process ends, however it ends, so nothing stale
    blocks a port later. The lock files stay (unlinking a lock file others may be opening is itself a race).
    A port some other program is bound to is skipped."""
    import fcntl
    import socket
    os.makedirs(PORT_LOCKS, exist_ok=True)
    try:
        os.chmod(PORT_LOCKS, 0o1777)  # other users' test runs reserve ports here too
    except OSError:
        pass
    ports = _port_candidates()
    start = os.getpid() % len(ports)  # concurrent processes start their search in different places
    for port in ports[start:] + ports[:start]:
        if port in _held_ports:
            continue
        try:  # read-only is enough for flock, and opens another user's lock file too
            lock = os.open(os.path.join(PORT_LOCKS, f"{port}.lock"), os.O_RDONLY | os.O_CREAT, 0o666)
        except OSError:
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            with socket.socket() as sock:
                sock.bind(("", port))
        except OSError:  # reserved by another test process, or in use
            os.close(lock)
            continue
        _held_ports[port] = lock
        return port
    raise RuntimeError(f"no free port to reserve in {PORT_LOCKS}")


def launcher(nproc):
    """torchrun on one node with a rendezvous port of its own: `--standalone` always uses port 29400, so two jobs
    on one machine (tests running beside a real job, say) would meet in one rendezvous store."""
    if nproc == 1:
        return [PY, "-m", "ingot_train"]
    return [PY, "-m", "ingot_train.launch", "--nnodes=1", "--master_addr=127.0.0.1", f"--master_port={free_port()}",
            f"--nproc_per_node={nproc}", "-m", "ingot_train"]


def run(args, nproc=1, check=True):
    cmd = launcher(nproc) + args
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


def events(out_dir):
    with open(os.path.join(out_dir, "metrics.jsonl")) as f:
        return [r for r in map(json.loads, f) if r.get("type") == "event"]


def weights(out_dir):
    sys.path.insert(0, BACKEND)
    from ingot_train.model import load_safetensors
    return load_safetensors(os.path.join(out_dir, "tensor_parallel_shards", "tp_rank_00_pp_rank_00", "model.safetensors"))


def shard_tensors(out_dir):
    """{(tp, pp): (tensors, metadata)} of every rank folder the backend saved."""
    sys.path.insert(0, BACKEND)
    from ingot_train.model import load_safetensors
    root = os.path.join(out_dir, "tensor_parallel_shards")
    out = {}
    for name in sorted(os.listdir(root)):
        tp, pp = int(name[8:10]), int(name[19:21])
        out[(tp, pp)] = (load_safetensors(os.path.join(root, name, "model.safetensors")),
                         load_json(os.path.join(root, name, "mp_metadata.json")))
    return out


def reassemble(out_dir):
    """The test's own reference merge: concatenate tensor-parallel parts on partition_dim (in tp order), take the
    rest from tp rank 0, stages contribute disjoint names."""
    import torch
    shards = shard_tensors(out_dir)
    tps = sorted({tp for tp, _ in shards})
    full = {}
    for pp in sorted({pp for _, pp in shards}):
        tensors, meta = shards[(0, pp)]
        for name in tensors:
            assert name not in full, f"{name} saved by two stages"
            m = meta["parameters"][name]
            if m["tensor_model_parallel"]:
                assert m["num_partitions"] == len(tps) and m["partition_stride"] == 1
                full[name] = torch.cat([shards[(tp, pp)][0][name] for tp in tps], dim=m["partition_dim"])
            else:
                full[name] = tensors[name]
    return full


TINY = ["--config_name", "tiny", "--max_steps", "6", "--seed", "7"]
LAYOUTS = {  # name: (processes, flags); all with a global batch of 4 sequences per step
    "tp2": (2, ["--tensor_parallel_size", "2", "--per_device_train_batch_size", "4"]),
    "tp2_no_sp": (2, ["--tensor_parallel_size", "2", "--per_device_train_batch_size", "4", "--disable_sequence_parallel"]),
    "tp2_no_vocab": (2, ["--tensor_parallel_size", "2", "--per_device_train_batch_size", "4",
                         "--disable_embedding_parallelization"]),
    "pp2": (2, ["--pipeline_parallel_size", "2", "--per_device_train_batch_size", "4", "--num_microbatches", "4"]),
    "pp2_accum2": (2, ["--pipeline_parallel_size", "2", "--per_device_train_batch_size", "2", "--num_microbatches", "2",
                       "--gradient_accumulation_steps", "2"]),
    "tp2_pp2": (4, ["--tensor_parallel_size", "2", "--pipeline_parallel_size", "2", "--per_device_train_batch_size", "4",
                    "--num_microbatches", "2"]),
    "dp2_zero1": (2, ["--zero_1", "--per_device_train_batch_size", "2"]),
    "dp2_tp2_zero1": (4, ["--zero_1", "--tensor_parallel_size", "2", "--per_device_train_batch_size", "2"]),
}


class TestTrain(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ingot-backend-")
        cls.single = os.path.join(cls.tmp, "single")
        run(TINY + ["--output_dir", cls.single, "--per_device_train_batch_size", "4"])
        cls.runs = {}

    @classmethod
    def layout(cls, name):
        """The output folder of a 6-step run on layout NAME (run once, shared by the tests)."""
        if name not in cls.runs:
            nproc, flags = LAYOUTS[name]
            out = os.path.join(cls.tmp, name)
            run(TINY + flags + ["--output_dir", out], nproc=nproc)
            cls.runs[name] = out
        return cls.runs[name]

    def assertLossesEqual(self, expected, got, rel=1e-4):
        self.assertEqual(len(expected), len(got))
        self.assertGreaterEqual(len(got), 5)
        for step, (x, y) in enumerate(zip(expected, got), 1):
            self.assertLess(abs(x - y) / abs(x), rel, f"step {step}: {x} vs {y}")

    def assertWeightsEqual(self, expected, got, tol=1e-5):
        self.assertEqual(set(expected), set(got))
        for k in expected:
            self.assertEqual(expected[k].shape, got[k].shape, k)
            self.assertEqual(expected[k].dtype, got[k].dtype, k)
            self.assertLessEqual(float((expected[k].float() - got[k].float()).abs().max()), tol, k)

    def test_data_parallel_equals_one_process(self):
        out = os.path.join(self.tmp, "dp2")
        run(TINY + ["--output_dir", out, "--per_device_train_batch_size", "2"], nproc=2)
        self.assertLossesEqual(losses(self.single), losses(out), rel=1e-4)
        self.assertWeightsEqual(weights(self.single), weights(out))

    def test_every_parallel_layout_equals_one_process(self):
        # Same seed, same global batch: the loss of every step and the re-assembled weights match the single
        # process (up to the order of floating-point sums across ranks).
        for name in LAYOUTS:
            with self.subTest(layout=name):
                out = self.layout(name)
                self.assertLossesEqual(losses(self.single), losses(out))
                self.assertWeightsEqual(weights(self.single), reassemble(out))

    def test_shards_and_metadata(self):
        out = self.layout("tp2_pp2")
        shards = shard_tensors(out)
        self.assertEqual(set(shards), {(0, 0), (1, 0), (0, 1), (1, 1)})
        first, last = shards[(0, 0)], shards[(1, 1)]
        self.assertIn("model.embed_tokens.weight", first[0])
        self.assertNotIn("lm_head.weight", first[0])
        self.assertIn("lm_head.weight", last[0])
        self.assertIn("model.layers.1.mlp.down_proj.weight", last[0])  # global layer numbers on every stage
        self.assertNotIn("model.layers.0.mlp.down_proj.weight", last[0])
        meta = first[1]["parameters"]
        self.assertEqual(meta["model.layers.0.self_attn.q_proj.weight"],
                         {"tensor_model_parallel": True, "partition_dim": 0, "partition_stride": 1, "num_partitions": 2})
        self.assertEqual(meta["model.layers.0.self_attn.o_proj.weight"]["partition_dim"], 1)
        self.assertEqual(meta["model.layers.0.mlp.down_proj.weight"]["partition_dim"], 1)
        self.assertEqual(meta["model.embed_tokens.weight"]["partition_dim"], 0)  # vocab-parallel
        self.assertEqual(meta["model.layers.0.input_layernorm.weight"], {"tensor_model_parallel": False})
        self.assertEqual(first[0]["model.layers.0.self_attn.k_proj.weight"].shape[0], 2 * 16 // 2)  # 2 kv heads of 16 / tp
        no_vocab = shard_tensors(self.layout("tp2_no_vocab"))[(1, 0)]
        self.assertEqual(no_vocab[1]["parameters"]["model.embed_tokens.weight"], {"tensor_model_parallel": False})

    def test_each_rank_holds_only_its_shard(self):
        started = [e for e in events(self.layout("tp2")) if e["event"] == "started"][0]
        full = started["parameters"]
        self.assertEqual(full, sum(t.numel() for t in weights(self.single).values()))
        self.assertEqual(len(started["parameters_per_rank"]), 2)
        for n in started["parameters_per_rank"]:  # everything is split but the norms
            self.assertLess(n, full * 0.51)
        started = [e for e in events(self.layout("tp2_pp2")) if e["event"] == "started"][0]
        self.assertEqual(started["parameters"], full)  # summed over the stages
        self.assertLess(max(started["parameters_per_rank"]), full * 0.3)
        finished = [e for e in events(self.layout("tp2_pp2")) if e["event"] == "finished"][0]
        self.assertEqual(len(finished["peak_memory_per_rank"]), 4)
        self.assertTrue(started["sequence_parallel"])
        zero_dir = os.path.join(self.layout("dp2_zero1"), "tensor_parallel_shards", "tp_rank_00_pp_rank_00")
        self.assertEqual(sorted(n for n in os.listdir(zero_dir) if n.startswith("optimizer")),
                         ["optimizer_dp_rank_00.safetensors", "optimizer_dp_rank_01.safetensors"])
        sys.path.insert(0, BACKEND)
        from ingot_train.model import SafetensorsFile
        files = [SafetensorsFile(os.path.join(zero_dir, f"optimizer_dp_rank_0{r}.safetensors")) for r in (0, 1)]
        states = [{k[:-len(".exp_avg")] for k in f.header if k.endswith(".exp_avg")} for f in files]
        self.assertTrue(states[0] and states[1])  # ZeRO-1: each rank keeps the state of part of the weights only
        self.assertFalse(states[0] & states[1])
        self.assertEqual(states[0] | states[1], set(weights(self.single)))
        for f in files:  # the step count, and each moment shaped like its weight
            self.assertEqual(f.header["__metadata__"], {"format": "ingot-adamw-1", "step": "6"})
            for k in f.header:
                if k.endswith(".exp_avg_sq"):
                    self.assertEqual(f.header[k]["shape"], list(weights(self.single)[k[:-len(".exp_avg_sq")]].shape))

    def test_tied_embeddings_from_a_model_folder_across_stages(self):
        # A Hugging Face folder with tied embeddings, trained on tp=2 x pp=2: the LM head lives on the last stage
        # as a copy kept equal to the first stage's embedding; each rank reads only its slice of the file.
        sys.path.insert(0, BACKEND)
        from ingot_train.model import save_safetensors
        folder = os.path.join(self.tmp, "tied-model")
        os.makedirs(folder, exist_ok=True)
        sd = weights(self.single)
        del sd["lm_head.weight"]
        save_safetensors(os.path.join(folder, "model.safetensors"), sd, {"format": "pt"})
        config = load_json(os.path.join(self.single, "config.json"))
        config["tie_word_embeddings"] = True
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(config, f)
        args = ["--model_name_or_path", folder, "--max_steps", "5", "--seed", "3", "--per_device_train_batch_size", "4"]
        one, split = os.path.join(self.tmp, "tied-one"), os.path.join(self.tmp, "tied-tp2pp2")
        run(args + ["--output_dir", one])
        layout = ["--tensor_parallel_size", "2", "--pipeline_parallel_size", "2", "--num_microbatches", "2"]
        run(args + layout + ["--output_dir", split, "--save_steps", "3"], nproc=4)
        self.assertLossesEqual(losses(one), losses(split))
        self.assertNotIn("lm_head.weight", weights(one))
        self.assertWeightsEqual(weights(one), reassemble(split))
        self.assertNotIn("lm_head.weight", shard_tensors(split)[(0, 1)][0])
        # Resuming rebuilds the last stage's copy of the tied weight from the first stage's shard.
        cont = os.path.join(self.tmp, "tied-resumed")
        run(args + layout + ["--output_dir", cont, "--resume_from_checkpoint", os.path.join(split, "checkpoint-3")], nproc=4)
        for x, y in zip(losses(split)[3:], losses(cont)):
            self.assertLess(abs(x - y) / abs(x), 1e-6)
        self.assertEqual(len(losses(cont)), 2)

    def test_model_folder_formats(self):
        # The same weights as model.safetensors, as safetensors shards with an index, and as pytorch_model.bin give
        # the same run (read as slices on tp=2); weights that do not fit the config stop with words.
        import torch
        sys.path.insert(0, BACKEND)
        from ingot_train.model import save_safetensors
        sd = weights(self.single)
        config = load_json(os.path.join(self.single, "config.json"))
        folders = {}
        for kind in ("single", "sharded", "bin", "wrong"):
            folder = os.path.join(self.tmp, "model-" + kind)
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "config.json"), "w") as f:
                json.dump(dict(config, hidden_size=32) if kind == "wrong" else config, f)
            folders[kind] = folder
        save_safetensors(os.path.join(folders["single"], "model.safetensors"), sd, {"format": "pt"})
        save_safetensors(os.path.join(folders["wrong"], "model.safetensors"), sd, {"format": "pt"})
        names = sorted(sd)
        halves = {"model-00001-of-00002.safetensors": names[: len(names) // 2],
                  "model-00002-of-00002.safetensors": names[len(names) // 2:]}
        for file, part in halves.items():
            save_safetensors(os.path.join(folders["sharded"], file), {k: sd[k] for k in part}, {"format": "pt"})
        with open(os.path.join(folders["sharded"], "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {}, "weight_map": {k: file for file, part in halves.items() for k in part}}, f)
        torch.save({k: v.clone() for k, v in sd.items()}, os.path.join(folders["bin"], "pytorch_model.bin"))
        args = ["--max_steps", "3", "--seed", "2", "--per_device_train_batch_size", "4", "--tensor_parallel_size", "2"]
        got = {}
        for kind in ("single", "sharded", "bin"):
            out = os.path.join(self.tmp, "from-" + kind)
            run(args + ["--model_name_or_path", folders[kind], "--output_dir", out], nproc=2)
            got[kind] = losses(out)
        self.assertEqual(got["sharded"], got["single"])
        self.assertEqual(got["bin"], got["single"])
        p = run(args + ["--model_name_or_path", folders["wrong"], "--output_dir", os.path.join(self.tmp, "from-wrong")],
                nproc=2, check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("has shape [260, 64], the config needs [260, 32]", p.stderr)
        # A vocabulary the byte tokens do not fit stops with words (instead of an index error or silent zeros).
        small = os.path.join(self.tmp, "model-small-vocab")
        os.makedirs(small, exist_ok=True)
        with open(os.path.join(small, "config.json"), "w") as f:
            json.dump(dict(config, vocab_size=200), f)
        sd200 = dict(sd, **{k: sd[k][:200].clone() for k in ("model.embed_tokens.weight", "lm_head.weight")})
        save_safetensors(os.path.join(small, "model.safetensors"), sd200, {"format": "pt"})
        p = run(args + ["--model_name_or_path", small, "--output_dir", os.path.join(self.tmp, "from-small")],
                nproc=2, check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("outside the model's vocabulary of 200", p.stderr)
        # A folder with its own tokenizer but no transformers here: trained on bytes, said in words.
        with open(os.path.join(folders["single"], "tokenizer_config.json"), "w") as f:
            json.dump({"tokenizer_class": "LlamaTokenizer"}, f)
        out = os.path.join(self.tmp, "from-single-tok")
        p = run(["--model_name_or_path", folders["single"], "--max_steps", "1", "--output_dir", out])
        started = events(out)[0]
        try:
            __import__("transformers")
        except ImportError:
            self.assertIn("has a tokenizer, but transformers is not importable", p.stderr)
            self.assertEqual(started["tokenizer"], "bytes")
            self.assertEqual(started["tokenizer_warning"], "transformers is not importable")
        self.assertTrue(os.path.exists(os.path.join(out, "tokenizer_config.json")))  # copied into the output

    def test_epochs_warmup_accumulation_and_no_clipping(self):
        # --num_train_epochs sets the steps when --max_steps is not given; the learning rate warms up linearly;
        # accumulation of 2 x 2 sequences equals batches of 4; --max_grad_norm 0 reports the norm unclipped.
        import math
        sys.path.insert(0, BACKEND)
        from ingot_train.data import ByteTokenizer
        with open(os.path.join(BACKEND, "data", "sample.txt"), encoding="utf-8") as f:
            blocks = (len(ByteTokenizer().encode(f.read())) - 1) // 64
        out = os.path.join(self.tmp, "epochs")
        run(["--config_name", "tiny", "--num_train_epochs", "0.5", "--per_device_train_batch_size", "2",
             "--gradient_accumulation_steps", "2", "--warmup_steps", "2", "--max_grad_norm", "0", "--seed", "7",
             "--output_dir", out])
        state = load_json(os.path.join(out, "trainer_state.json"))
        steps = math.ceil(0.5 * blocks / 4)
        self.assertEqual(state["global_step"], steps)
        self.assertGreaterEqual(state["epoch"], 0.5)
        with open(os.path.join(out, "metrics.jsonl")) as f:
            metrics = [r for r in map(json.loads, f) if r["type"] == "metric"]
        self.assertEqual([m["learning_rate"] for m in metrics[:2]], [0.0005, 0.001])
        self.assertEqual(metrics[2]["learning_rate"], 0.001)  # then linear decay to 0 after the warm-up
        self.assertLess(metrics[3]["learning_rate"], 0.001)
        self.assertGreater(metrics[0]["grad_norm"], 1.0)  # the single run clips at 1.0; this one does not
        # Same samples, same first step (the first learning rate differs, so only step 1's loss compares).
        self.assertLess(abs(metrics[0]["loss"] - losses(self.single)[0]) / losses(self.single)[0], 1e-6)

    def test_resume_equals_uninterrupted(self):
        # The learning-rate schedule depends on max_steps: resume a 6-step run from its step-3 checkpoint.
        first = os.path.join(self.tmp, "first")
        run(TINY + ["--output_dir", first, "--per_device_train_batch_size", "4", "--save_steps", "3"])
        self.assertTrue(os.path.isdir(os.path.join(first, "checkpoint-3", "tensor_parallel_shards")))
        # HF Trainer's trainer_state.json keys, the same in a checkpoint and in the final output.
        keys = {"global_step", "max_steps", "epoch", "log_history", "train_batch_size", "logging_steps", "save_steps",
                "num_train_epochs"}
        for folder in (os.path.join(first, "checkpoint-3"), first):
            self.assertEqual(set(load_json(os.path.join(folder, "trainer_state.json"))), keys, folder)
        cont = os.path.join(self.tmp, "continued")
        run(TINY + ["--output_dir", cont, "--per_device_train_batch_size", "4",
                    "--resume_from_checkpoint", os.path.join(first, "checkpoint-3")])
        resumed = losses(cont)
        self.assertEqual(len(resumed), 3)
        for x, y in zip(losses(self.single)[3:], resumed):
            self.assertLess(abs(x - y) / abs(x), 1e-6)

    def test_save_total_limit_keeps_the_newest_checkpoints(self):
        # Every step saved, only the newest 2 kept; a link named like a checkpoint, an incomplete-looking folder
        # and a folder of another name are left alone, and what a link points to is never touched.
        out = os.path.join(self.tmp, "rotated")
        os.makedirs(out)
        kept = os.path.join(self.tmp, "not-a-checkpoint")
        os.makedirs(os.path.join(kept, "inner"))
        open(os.path.join(kept, "trainer_state.json"), "w").close()
        os.symlink(kept, os.path.join(out, "checkpoint-0"))
        os.makedirs(os.path.join(out, "checkpoint-1x"))
        dp2 = ["--per_device_train_batch_size", "2"]  # torchrun, 2 ranks: rank 0 deletes while the other goes on
        run(TINY + dp2 + ["--output_dir", out, "--save_steps", "1", "--save_total_limit", "2"], nproc=2)
        names = sorted(n for n in os.listdir(out) if n.startswith("checkpoint-"))
        self.assertEqual(names, ["checkpoint-0", "checkpoint-1x", "checkpoint-4", "checkpoint-5"])
        self.assertTrue(os.path.isdir(os.path.join(kept, "inner")))
        deleted = [p for e in events(out) if e["event"] == "deleted_checkpoints" for p in e["paths"]]
        self.assertEqual(sorted(os.path.basename(p) for p in deleted), [f"checkpoint-{n}" for n in (1, 2, 3)])
        self.assertFalse([n for n in os.listdir(out) if ".tmp-" in n])
        # The kept ones are complete: resuming from the newest equals the uninterrupted run.
        cont = os.path.join(self.tmp, "rotated-continued")
        run(TINY + dp2 + ["--output_dir", cont, "--resume_from_checkpoint", os.path.join(out, "checkpoint-4")], nproc=2)
        resumed = losses(cont)
        self.assertEqual(len(resumed), 2)
        for x, y in zip(losses(out)[4:], resumed):
            self.assertLess(abs(x - y) / abs(x), 1e-6)
        # 0 keeps all; a negative limit is refused with words.
        every = os.path.join(self.tmp, "every")
        run(TINY + ["--output_dir", every, "--per_device_train_batch_size", "4", "--save_steps", "2"])
        self.assertEqual(sorted(n for n in os.listdir(every) if n.startswith("checkpoint-")),
                         ["checkpoint-2", "checkpoint-4"])
        p = run(TINY + ["--output_dir", os.path.join(self.tmp, "x"), "--save_total_limit", "-1"], check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--save_total_limit must not be negative", p.stderr)

    def test_resume_on_a_parallel_layout(self):
        # tp=2 x dp=2 with ZeRO-1 (optimizer state per data-parallel rank): resume after step 3 on the same layout.
        nproc, flags = LAYOUTS["dp2_tp2_zero1"]
        first = os.path.join(self.tmp, "layout-first")
        run(TINY + flags + ["--output_dir", first, "--save_steps", "3"], nproc=nproc)
        ck = os.path.join(first, "checkpoint-3")
        cont = os.path.join(self.tmp, "layout-continued")
        run(TINY + flags + ["--output_dir", cont, "--resume_from_checkpoint", ck], nproc=nproc)
        resumed = losses(cont)
        self.assertEqual(len(resumed), 3)
        for x, y in zip(losses(first)[3:], resumed):
            self.assertLess(abs(x - y) / abs(x), 1e-6)
        self.assertWeightsEqual(reassemble(first), reassemble(cont), tol=1e-6)
        # Another layout is refused before anything starts.
        p = run(TINY + ["--per_device_train_batch_size", "4", "--output_dir", os.path.join(self.tmp, "x"),
                        "--resume_from_checkpoint", ck], nproc=2, check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("resume on the same parallel layout", p.stderr)

    def test_a_crash_while_saving_leaves_no_complete_looking_checkpoint(self):
        # The process dies (os._exit, no cleanup) right when the finished checkpoint-2 folder would be renamed.
        out = os.path.join(self.tmp, "crash")
        crash = ("import os, sys; import ingot_train.train as t\n"
                 "real = os.replace\n"
                 "def replace(a, b):\n"
                 "    if '.tmp-' in a and b.endswith('checkpoint-2'): os._exit(9)\n"
                 "    real(a, b)\n"
                 "t.os.replace = replace\n"
                 "sys.exit(t.main(sys.argv[1:]))\n")
        args = TINY + ["--output_dir", out, "--per_device_train_batch_size", "4", "--save_steps", "2"]
        p = subprocess.run([PY, "-c", crash] + args, env=ENV, capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 9, p.stderr)
        left = os.listdir(out)
        self.assertNotIn("checkpoint-2", left)
        self.assertNotIn("tensor_parallel_shards", left)
        self.assertEqual(len([n for n in left if n.startswith("checkpoint-2.tmp-")]), 1)
        cli = os.environ.get("INGOT_CLI")
        if cli:  # Ingot does not mistake the temporary folder for a checkpoint
            p = subprocess.run([cli, "consolidate", out, os.path.join(self.tmp, "crash-out"), "--json"],
                               capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "crash-out")))
        # The next run in the same folder removes the leftover and completes.
        run(args)
        self.assertFalse([n for n in os.listdir(out) if ".tmp-" in n])
        self.assertIn("removed_incomplete_checkpoints", [e["event"] for e in events(out)])
        self.assertTrue(os.path.isdir(os.path.join(out, "checkpoint-2", "tensor_parallel_shards")))

    def test_data_formats_give_the_same_tokens(self):
        # One text as a .txt file, a folder of .txt, a .jsonl record, and its byte tokens as .pt and .npy: the same
        # token stream, so the same losses; bad files stop with words.
        import numpy
        import torch
        sys.path.insert(0, BACKEND)
        from ingot_train.data import ByteTokenizer
        d = os.path.join(self.tmp, "data")
        os.makedirs(os.path.join(d, "folder"), exist_ok=True)
        with open(os.path.join(BACKEND, "data", "sample.txt"), encoding="utf-8") as f:
            text = f.read()
        for path in (os.path.join(d, "one.txt"), os.path.join(d, "folder", "a.txt")):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(d, "one.jsonl"), "w", encoding="utf-8") as f:
            f.write(json.dumps({"text": text, "id": 1}) + "\n\n")
        ids = ByteTokenizer().encode(text)
        torch.save(torch.tensor(ids, dtype=torch.int32), os.path.join(d, "tokens.pt"))
        numpy.save(os.path.join(d, "tokens.npy"), numpy.array(ids, dtype=numpy.uint16))
        args = ["--config_name", "tiny", "--max_steps", "2", "--seed", "5"]
        results = {}
        for name in ("one.txt", "folder", "one.jsonl", "tokens.pt", "tokens.npy"):
            out = os.path.join(self.tmp, "data-" + name)
            run(args + ["--train_file", os.path.join(d, name), "--output_dir", out])
            results[name] = losses(out)
        for name, got in results.items():
            self.assertEqual(got, results["one.txt"], name)
        with open(os.path.join(d, "bad.jsonl"), "w") as f:
            f.write('{"text": "a"}\n{"body": "b"}\n')
        torch.save(torch.zeros(10), os.path.join(d, "floats.pt"))
        with open(os.path.join(d, "broken.npy"), "wb") as f:
            f.write(b"not numpy")
        with open(os.path.join(d, "truncated.jsonl"), "w") as f:
            f.write('{"text": "a"}\n{"text": "b\n')
        with open(os.path.join(d, "latin1.txt"), "wb") as f:
            f.write("caf\u00e9".encode("latin-1"))
        for name, words in (("bad.jsonl", 'line 2 has no "text" field'), ("floats.pt", "integer token ids"),
                            ("truncated.jsonl", "line 2 is not JSON"), ("latin1.txt", "is not UTF-8 text"),
                            ("broken.npy", "cannot read the token file")):
            p = run(args + ["--train_file", os.path.join(d, name), "--output_dir", os.path.join(self.tmp, "bad-data")],
                    check=False)
            self.assertNotEqual(p.returncode, 0, name)
            self.assertIn(words, p.stderr, name)
            self.assertNotIn("Traceback", p.stderr, name)
            self.assertIn(words, events(os.path.join(self.tmp, "bad-data"))[-1]["reason"])  # what the monitor will show

    def test_a_full_disk_while_saving_fails_clearly_and_leaves_no_checkpoint(self):
        # Files may not grow past 200 kB (RLIMIT_FSIZE; Python ignores SIGXFSZ, so writes fail with EFBIG): the
        # tiny model's checkpoint-2 (430 kB of weights) cannot be written.
        import resource
        out = os.path.join(self.tmp, "full")
        args = TINY + ["--output_dir", out, "--per_device_train_batch_size", "4", "--save_steps", "2"]
        limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
        p = subprocess.run([PY, "-m", "ingot_train"] + args, env=ENV, capture_output=True, text=True, timeout=600,
                           preexec_fn=limit)
        self.assertNotEqual(p.returncode, 0)
        failed = [e for e in events(out) if e["event"] == "failed"]
        self.assertEqual(len(failed), 1)
        self.assertIn("File too large", failed[0]["reason"])
        self.assertFalse(os.path.exists(os.path.join(out, "checkpoint-2")))
        self.assertFalse(os.path.exists(os.path.join(out, "tensor_parallel_shards")))

    def two_nodes(self, out, node1_prefix=()):
        """A two-node launch on this machine: two torchrun agents (one process each) meeting at a static
        rendezvous on 127.0.0.1, as --nnodes/--node_rank/--master_addr/--master_port set it up across hosts."""
        port = free_port()
        procs = []
        for node in (0, 1):
            cmd = [PY, "-m", "ingot_train.launch", "--nnodes=2", f"--node_rank={node}", "--nproc_per_node=1",
                   "--master_addr=127.0.0.1", f"--master_port={port}", "-m", "ingot_train"] + TINY + \
                  ["--per_device_train_batch_size", "2", "--output_dir", out]
            procs.append(subprocess.Popen(list(node1_prefix if node else ()) + cmd, env=ENV, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True))
        return [(p.wait(timeout=600), p.communicate()[1]) for p in procs]

    def test_two_nodes(self):
        out = os.path.join(self.tmp, "two-nodes")
        results = self.two_nodes(out)
        self.assertEqual([rc for rc, _ in results], [0, 0], results[1][1][-3000:])
        self.assertLossesEqual(losses(self.single), losses(out))
        self.assertFalse([n for n in os.listdir(out) if n.startswith(".ingot-shared-check")])

    def test_an_output_folder_the_nodes_do_not_share_is_refused_at_the_start(self):
        # The second "node" gets its own empty tmpfs on the output folder's parent (a mount namespace, as root).
        parent = os.path.join(self.tmp, "unshared")
        os.makedirs(parent, exist_ok=True)
        probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs tmpfs {parent}"], capture_output=True)
        if probe.returncode != 0:
            self.skipTest("no mount namespaces here (needs root): " + probe.stderr.decode()[-200:])
        prefix = ["unshare", "-m", "sh", "-c", f'mount -t tmpfs tmpfs {parent} && exec "$@"', "sh"]
        out = os.path.join(parent, "out")
        results = self.two_nodes(out, prefix)
        for rc, err in results:
            self.assertNotEqual(rc, 0)
        self.assertIn("rank(s) 1 do not see the files rank 0 writes", results[0][1])
        self.assertIn("must be on a filesystem every node shares", results[0][1])
        names = [e["event"] for e in events(out)]
        self.assertNotIn("first_step", names)  # stopped before training, not at the first save
        self.assertIn("every node shares", events(out)[-1]["reason"])

    def stop_after_step(self, cmd, out, sig, step=3):
        """Starts CMD, waits for the metric of STEP on stdout, sends SIG to the launching process; returns its exit
        status."""
        with tempfile.TemporaryFile("w+") as err:
            p = subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=err, text=True)
            with p.stdout:
                for line in p.stdout:
                    if line.startswith("INGOT_METRIC ") and json.loads(line[len("INGOT_METRIC "):])["step"] >= step:
                        p.send_signal(sig)
                        break
                else:
                    err.seek(0)
                    self.fail(f"no step {step} before the run ended:\n{err.read()[-3000:]}")
                p.stdout.read()
            return p.wait(timeout=120)

    def test_a_stop_signal_saves_a_checkpoint_and_stops(self):
        import signal
        for name, nproc, sig in (("stop-one", 1, signal.SIGINT), ("stop-dp2", 2, signal.SIGTERM)):
            with self.subTest(name=name):
                out = os.path.join(self.tmp, name)
                args = ["--config_name", "tiny", "--max_steps", "100000", "--per_device_train_batch_size", "2",
                        "--output_dir", out]
                rc = self.stop_after_step(launcher(nproc) + args, out, sig)
                evs = events(out)
                stopped = [e for e in evs if e["event"] == "stopped"]
                self.assertEqual(len(stopped), 1, [e["event"] for e in evs])
                if nproc == 1:
                    self.assertEqual(rc, 0)
                n = stopped[0]["step"]
                self.assertGreaterEqual(n, 3)
                self.assertLess(n, 100000)
                ck = os.path.join(out, f"checkpoint-{n}")
                self.assertEqual(stopped[0]["checkpoint"], ck)
                self.assertEqual(load_json(os.path.join(ck, "trainer_state.json"))["global_step"], n)
                self.assertEqual(set(weights(ck)), set(weights(self.single)))
                self.assertFalse([x for x in os.listdir(out) if ".tmp-" in x])

    def test_outputs(self):
        for name in ("metrics.jsonl", "trainer_state.json", "train_results.json", "all_results.json", "config.json",
                     "training_args.json"):
            self.assertTrue(os.path.exists(os.path.join(self.single, name)), name)
        state = load_json(os.path.join(self.single, "trainer_state.json"))
        self.assertEqual(state["global_step"], 6)
        self.assertEqual(len(state["log_history"]), 6)
        names = [e["event"] for e in events(self.single)]
        self.assertEqual(names[0], "started")
        started = events(self.single)[0]
        self.assertEqual(started["host"], __import__("socket").gethostname())
        self.assertGreater(started["pid"], 1)
        self.assertIn("first_step", names)
        self.assertEqual(names[-1], "finished")
        with open(os.path.join(self.single, "metrics.jsonl")) as f:
            metric = [r for r in map(json.loads, f) if r["type"] == "metric"][0]
        for key in ("step", "loss", "learning_rate", "grad_norm", "tokens_per_second", "step_time", "peak_memory", "rank"):
            self.assertIn(key, metric)
        meta = load_json(os.path.join(self.single, "tensor_parallel_shards", "tp_rank_00_pp_rank_00", "mp_metadata.json"))
        self.assertFalse(meta["parameters"]["model.embed_tokens.weight"]["tensor_model_parallel"])
        self.assertFalse([d for d in os.listdir(self.single) if ".tmp-" in d])  # no half-written checkpoint

    def test_help_documents_every_setting(self):
        p = run(["--help"])
        flags = ["--model_name_or_path", "--config_name", "--train_file", "--per_device_train_batch_size",
                 "--gradient_accumulation_steps", "--block_size", "--learning_rate", "--weight_decay", "--warmup_steps",
                 "--max_steps", "--num_train_epochs", "--max_grad_norm", "--bf16", "--zero_1", "--tensor_parallel_size",
                 "--pipeline_parallel_size", "--num_microbatches", "--disable_sequence_parallel",
                 "--disable_embedding_parallelization", "--logging_steps", "--save_steps", "--save_total_limit", "--output_dir",
                 "--resume_from_checkpoint", "--seed", "--device", "--engine", "--fsdp", "--torch_compile"]
        options = p.stdout[p.stdout.index("options:"):]
        for flag in flags:
            # Each flag starts an option entry that carries words after it.
            line = [l for l in options.splitlines() if l.strip().startswith(flag + " ") or l.strip() == flag
                    or l.strip().startswith(flag + ",")]
            self.assertTrue(line, flag)
        self.assertEqual(options.count("  --"), len(flags))

    def test_ingot_consolidates_the_backend_output(self):
        cli = os.environ.get("INGOT_CLI")
        if not cli:
            self.skipTest("INGOT_CLI not set")
        sys.path.insert(0, BACKEND)
        from ingot_train.model import load_safetensors
        for name, source in (("single", self.single), ("tp2_pp2", self.layout("tp2_pp2"))):
            out = os.path.join(self.tmp, "consolidated-" + name)
            p = subprocess.run([cli, "consolidate", source, out, "--verify", "--json"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("Ingot backend", json.loads(p.stdout)["layout"])
            self.assertWeightsEqual(reassemble(source), load_safetensors(os.path.join(out, "model.safetensors")), tol=0)

    def reshard(self, source, out, *flags):
        p = subprocess.run([os.environ["INGOT_CLI"], "reshard", source, out, "--verify", "--json", *flags],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        return json.loads(p.stdout)

    def test_reshard_then_resume_equals_uninterrupted(self):
        # A run saved at step 3 on one layout, re-sharded by Ingot for another, resumed there: steps 4-6 have the
        # losses of an uninterrupted 6-step run (the same on every layout, up to fp32 sums), AdamW state included.
        if not os.environ.get("INGOT_CLI"):
            self.skipTest("INGOT_CLI not set")
        sys.path.insert(0, BACKEND)
        from ingot_train.model import SafetensorsFile
        # tp 4 needs 4 key/value heads: the "small" model, with short sequences to keep it quick.
        small = ["--config_name", "small", "--max_steps", "6", "--seed", "7", "--block_size", "64"]
        tp4 = ["--tensor_parallel_size", "4", "--per_device_train_batch_size", "4"]
        cases = [("tp2", small, 2, ["--tensor_parallel_size", "2", "--per_device_train_batch_size", "4"],
                  4, tp4, ["--tensor-parallel-size", "4"]),
                 ("tp2_pp2", TINY, 4, LAYOUTS["tp2_pp2"][1], 1, ["--per_device_train_batch_size", "4"],
                  ["--tensor-parallel-size", "1", "--pipeline-parallel-size", "1"])]
        for name, model, nproc, flags, new_nproc, new_flags, reshard_flags in cases:
            with self.subTest(source=name):
                if name == "tp2":  # the uninterrupted run on the new layout
                    reference = os.path.join(self.tmp, "reshard-reference-tp4")
                    run(small + tp4 + ["--output_dir", reference], nproc=4)
                    reference = losses(reference)
                else:
                    reference = losses(self.single)
                first = os.path.join(self.tmp, f"reshard-{name}")
                run(model + flags + ["--output_dir", first, "--save_steps", "3"], nproc=nproc)
                ck = os.path.join(first, "checkpoint-3")
                out = os.path.join(self.tmp, f"reshard-{name}-out")
                report = self.reshard(ck, out, *reshard_flags)
                self.assertTrue(report["verified"])
                self.assertTrue(report["optimizer_state"])
                tp = report["tensor_parallel_size"]
                ranks = sorted(os.listdir(os.path.join(out, "tensor_parallel_shards")))
                self.assertEqual(ranks, [f"tp_rank_{t:02d}_pp_rank_00" for t in range(tp)])
                opt = SafetensorsFile(os.path.join(out, "tensor_parallel_shards", ranks[-1], "optimizer.safetensors"))
                self.assertEqual(opt.header["__metadata__"]["step"], "3")
                # The re-sharded weights are the saved ones, split anew.
                self.assertWeightsEqual(reassemble(ck), reassemble(out), tol=0)
                cont = os.path.join(self.tmp, f"reshard-{name}-resumed")
                run(model + new_flags + ["--output_dir", cont, "--resume_from_checkpoint", out], nproc=new_nproc)
                started = [e for e in events(cont) if e["event"] == "started"][0]
                self.assertTrue(started["optimizer_resumed"])
                self.assertEqual(started["resumed_from"], 3)
                resumed = losses(cont)
                self.assertEqual(len(resumed), 3)
                for step, (x, y) in enumerate(zip(reference[3:], resumed), 4):
                    self.assertLess(abs(x - y) / abs(x), 1e-4, f"step {step}: {x} vs {y}")
                # Without the optimizer state, step 4 (weights only) still matches, and later steps drift.
                if name == "tp2":
                    bare = os.path.join(self.tmp, "reshard-weights-only")
                    self.assertFalse(self.reshard(ck, bare, "--tensor-parallel-size", "4", "--weights-only")["optimizer_state"])
                    cont = os.path.join(self.tmp, "reshard-weights-only-resumed")
                    run(model + new_flags + ["--output_dir", cont, "--resume_from_checkpoint", bare], nproc=new_nproc)
                    self.assertFalse([e for e in events(cont) if e["event"] == "started"][0]["optimizer_resumed"])
                    got = losses(cont)
                    self.assertLess(abs(got[0] - reference[3]) / got[0], 1e-4)
                    self.assertGreater(abs(got[2] - reference[5]) / got[2], 1e-4)

    def test_reshard_a_model_folder_to_start_a_parallel_run(self):
        # Weights only, from a Hugging Face folder (Ingot's consolidation of the single run): a tp=2 run resumed
        # from it has the losses of a tp=2 run started from the folder itself.
        if not os.environ.get("INGOT_CLI"):
            self.skipTest("INGOT_CLI not set")
        model = os.path.join(self.tmp, "reshard-model")
        p = subprocess.run([os.environ["INGOT_CLI"], "consolidate", self.single, model], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        out = os.path.join(self.tmp, "reshard-model-tp2")
        report = self.reshard(model, out, "--tensor-parallel-size", "2")
        self.assertFalse(report["optimizer_state"])
        self.assertTrue(any("Weights only" in n for n in report["notes"]))
        flags = ["--tensor_parallel_size", "2", "--per_device_train_batch_size", "4", "--max_steps", "3", "--seed", "7"]
        a = os.path.join(self.tmp, "reshard-model-resumed")
        run(["--config_name", "tiny", "--output_dir", a, "--resume_from_checkpoint", out] + flags, nproc=2)
        b = os.path.join(self.tmp, "reshard-model-direct")
        run(["--model_name_or_path", model, "--output_dir", b] + flags, nproc=2)
        self.assertEqual(len(losses(a)), 3)
        for x, y in zip(losses(b), losses(a)):
            self.assertLess(abs(x - y) / abs(x), 1e-6)
        # Layouts the model cannot take are refused with words, and nothing is written.
        bad = os.path.join(self.tmp, "reshard-model-tp3")
        p = subprocess.run([os.environ["INGOT_CLI"], "reshard", model, bad, "--tensor-parallel-size", "3"], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("do not split over 3 tensor-parallel ranks", p.stderr)
        self.assertFalse(os.path.exists(bad))

    def test_invalid_settings_stop_with_words(self):
        x = ["--output_dir", os.path.join(self.tmp, "x")]
        cases = [
            (x, 1, ["name a model"]),
            (x + ["--config_name", "tiny", "--train_file", "/nonexistent.txt"], 1, ["does not exist"]),
            (x + ["--config_name", "nonesuch"], 1, ["unknown --config_name nonesuch"]),
            (x + ["--config_name", "tiny", "--tensor_parallel_size", "3"], 2, ["does not divide the world size 2"]),
            (x + ["--config_name", "tiny", "--block_size", "0"], 1, ["--block_size must be at least 1"]),
            (x + ["--config_name", "tiny", "--tensor_parallel_size", "3", "--block_size", "64"], 3,
             ["num_attention_heads (4) is not divisible by --tensor_parallel_size 3",
              "num_key_value_heads (2) is not divisible", "vocab_size (260) is not divisible",
              "--block_size 64 is not divisible"]),
            (x + ["--config_name", "tiny", "--tensor_parallel_size", "4"], 4, ["num_key_value_heads (2) is not divisible"]),
            (x + ["--config_name", "tiny", "--pipeline_parallel_size", "3"], 3, ["has 2 layers, fewer than --pipeline_parallel_size 3"]),
            (x + ["--config_name", "tiny", "--per_device_train_batch_size", "3", "--num_microbatches", "2"], 1,
             ["does not split into 2 micro-batches"]),
            # Debian 12's torch 1.13 has no DTensor: the native engine (tests/backend/test_native.py) is refused.
            (x + ["--config_name", "tiny", "--engine", "native"], 1, ["--engine native needs torch 2.4 or later"]),
            (x + ["--config_name", "tiny", "--fsdp"], 1, ["--fsdp needs the native engine"]),
        ]
        for args, nproc, words in cases:
            with self.subTest(args=args):
                p = run(args, nproc=nproc, check=False)
                self.assertNotEqual(p.returncode, 0)
                for w in words:  # once, not once per rank
                    self.assertEqual(p.stderr.count(w), 1, w)
                self.assertFalse(os.path.exists(os.path.join(self.tmp, "x", "metrics.jsonl")))  # nothing started


if __name__ == "__main__":
    unittest.main(verbosity=2)
