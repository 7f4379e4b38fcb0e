"""The one error type of the backend: a run that must stop with words (bad data, a model folder that does not fit,
a layout the checkpoint was not saved on, an output folder the nodes do not share, ...). The top level (train.main)
reports it as the `failed` event and as one `ingot_train: error: ...` line on stderr, and exits with status 1."""

PREFIX = "ingot_train: error: "


class TrainError(Exception):
    """Stops the run; str(error) is the reason as the user reads it (without PREFIX)."""
