"""The ground floor: what every layer may use and what uses nothing above it.

The game model and the drawing vocabulary (millimetres), the errors a user can act on, where
the built-in files live, colours, size presets, YAML read with line numbers, safe (atomic)
output, the on-disk result cache, the terminal's progress line and the one line of a report
every check prints (``findings``). Nothing here imports
another generator package: docs/architecture.md lists the layers and the contracts in
pyproject.toml hold them.
"""
