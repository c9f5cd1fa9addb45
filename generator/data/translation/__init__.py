"""Kits in more than one language: the build's language session and every translation made
(``i18n``), the message and catalogue files (``i18n_files``), and the catalogue ``pnp i18n``
writes (``i18n_skeleton``); with them where a value of the game's data was written
(``origin``: a YAML line or a spreadsheet's cell), which both a catalogue entry and a face's
error name, matched in the form translations match texts in.

Built on files/ alone.
"""
