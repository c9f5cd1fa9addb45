"""Fonts: the ones we ship or pin and a project's own, registered once for both renderers and
measured (``fonts``), a project's ``fonts/`` folder listed (``project_fonts``), each project
font's tables checked with ``struct`` before ReportLab or Pillow parse the file (``sfnt``), and
what ReportLab reads of a TrueType file kept per file content, so no process parses a font
twice (``font_tables``).

Built on files/ alone.
"""
