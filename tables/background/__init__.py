"""Background work: the registry of tasks, what follows a committed change, and the embedded scheduler of `make run`."""
