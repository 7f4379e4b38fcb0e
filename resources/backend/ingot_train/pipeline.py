"""The pipeline schedule (1F1B): micro-batches through the pipeline stages, activations forward and gradients
backward between neighbouring stages with point-to-point sends. With one stage it is plain gradient accumulation
over the micro-batches."""
import torch
import torch.distributed as dist


def run_micro_batches(model, lay, ids, args, accum, autocast):
    """One micro-step on the 1F1B schedule: each stage runs (stages after it) forward passes ahead, then alternates
    one forward and one backward, then drains the backward passes, so at most pp micro-batches of activations are
    alive per stage (GPipe keeps all of them). Activations go to the next stage and gradients back with
    point-to-point sends (non-blocking, so no stage waits on a send). AUTOCAST() gives the context of the forward
    passes. Returns the summed loss on the last stage."""
    chunks = ids.chunk(args.num_microbatches)
    n = len(chunks)
    hidden = model.config.hidden_size
    seq = ids.shape[1] // lay.tp if lay.sequence_parallel else ids.shape[1]
    pending, live = [], []
    total = torch.zeros((), device=ids.device)

    def forward(mb):
        if lay.first_stage:
            inp = mb
        else:
            inp = torch.empty((mb.shape[0], seq, hidden), dtype=torch.float32, device=ids.device)
            dist.recv(inp, src=lay.prev_rank())
            inp.requires_grad_()
        with autocast():
            out = model(inp, mb)
        if not lay.last_stage:
            sent = out.detach().float().contiguous()
            pending.append((dist.isend(sent, dst=lay.next_rank()), sent))
        live.append((inp, out))

    def backward():
        nonlocal total
        inp, out = live.pop(0)
        if lay.last_stage:
            (out / (n * accum)).backward()
            total += out.detach().float() / n
        else:
            g = torch.empty(out.shape, dtype=torch.float32, device=ids.device)
            dist.recv(g, src=lay.next_rank())
            out.backward(g.to(out.dtype))
        if not lay.first_stage:
            sent = inp.grad.contiguous()
            pending.append((dist.isend(sent, dst=lay.prev_rank()), sent))

    warmup = min(lay.pp - lay.pp_rank - 1, n)
    for mb in chunks[:warmup]:
        forward(mb)
    for mb in chunks[warmup:]:
        forward(mb)
        backward()
    while live:
        backward()
    for work, _ in pending:
        work.wait()
    return total
