"""The learning-rate schedule: linear warm-up to the peak, then linear decay to 0 at the last step."""


def lr_at(step, args, total):
    """The learning rate used by optimizer step STEP (from 0) of TOTAL."""
    if args.warmup_steps and step < args.warmup_steps:
        return args.learning_rate * (step + 1) / args.warmup_steps
    return args.learning_rate * max(0.0, (total - step) / max(1, total - args.warmup_steps))
