"""A stand-in for the Neuron compiler wrapper in a real backend run (no Neuron device here): imported by every Python
of a job that has this folder on its PYTHONPATH (site imports sitecustomize), it acts in rank 0 of an ingot_train run
only. It logs what libneuronxla's neuron_cc_wrapper.py logs for a run's graphs ("Compile cache path: ...", "Call
compiler with cmd: [...]": the lines services/cache/compilelog.h reads, as tests/cache/tst_explain and
tests/ui/tst_jobmonitor write them) and writes each graph's cache entry as the wrapper leaves it
(<cache>/neuronxcc-<version>/MODULE_<hlo hash>+<flags hash>/ with model.hlo_module.pb, compile_flags.json,
model.neff, model.done).

A graph whose entry is already in the cache, finished (model.done), is not compiled again: the stand-in logs the
wrapper's cache hit ("Using a cached neff at <entry>/model.neff. Exiting with a successfully compiled graph.", as
neuron_cc_wrapper.py logs it when its cache lookup finds the NEFF) and writes nothing.

Two graphs per run: the optimizer step, whose HLO does not depend on the sequence length, and the training step,
whose input_ids are s64[2,<block_size>]. Their HLO files are made by the test (services/cache/hlo.h
writeHloModule) in $INGOT_STANDIN_HLO: step.pb and train-<block_size>.pb. The flags hash is the first 8 hex digits
of the md5 of NEURON_CC_FLAGS, so other flags give the same graph another key, as the real cache does.
"""
import hashlib
import json
import os
import shutil


def _run():
    if os.environ.get("RANK") != "0" or "INGOT_STANDIN_HLO" not in os.environ:
        return
    with open("/proc/self/cmdline", "rb") as f:
        argv = f.read().decode("utf-8", "replace").split("\0")
    if "ingot_train" not in argv or "--block_size" not in argv:
        return
    block = int(argv[argv.index("--block_size") + 1])
    flags = os.environ.get("NEURON_CC_FLAGS", "")
    cache = os.environ["NEURON_COMPILE_CACHE_URL"]
    root = os.path.join(cache, "neuronxcc-2.15.128.0+56dc5a86")
    fh = hashlib.md5(flags.encode()).hexdigest()[:8]
    w = "2024-01-11 05:53:27.000498:  741535  INFO ||NEURON_CC_WRAPPER||: "
    print(w + "Compile cache path: " + cache, flush=True)
    hlo = os.environ["INGOT_STANDIN_HLO"]
    for name, source in [("MODULE_1001+" + fh, "step.pb"), ("MODULE_%d+%s" % (2000 + block, fh), "train-%d.pb" % block)]:
        d = os.path.join(root, name)
        if os.path.exists(os.path.join(d, "model.done")):
            print(w + "Using a cached neff at " + os.path.join(d, "model.neff")
                  + ". Exiting with a successfully compiled graph.", flush=True)
            continue
        print(w + "Call compiler with cmd: ['neuronx-cc', 'compile', '--framework=XLA', '/tmp/work/model." + name
              + ".hlo_module.pb', '--output', '/tmp/work/model." + name + ".neff']", flush=True)
        os.makedirs(d)
        shutil.copyfile(os.path.join(hlo, source), os.path.join(d, "model.hlo_module.pb"))
        with open(os.path.join(d, "compile_flags.json"), "w") as f:
            json.dump(flags.split(), f)
        with open(os.path.join(d, "model.neff"), "w") as f:
            f.write("neff")
        open(os.path.join(d, "model.done"), "w").close()


_run()
