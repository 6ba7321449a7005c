"""Sub-commands of ``python -m k8sjobs``; each module has ``add_arguments`` and ``handle``."""
