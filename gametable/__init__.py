"""The composition root: the CLI and the wiring of `run`, `sim`, `replay` and `journal` (the only place that ties the layers together)."""
