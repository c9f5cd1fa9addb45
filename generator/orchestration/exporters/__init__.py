"""What is made from a kit besides the kit: apart from the pipeline that builds it.

``tts`` (a Tabletop Simulator saved object), ``schema_export`` (the editors' JSON Schemas),
``reference_doc`` (the authoring reference), ``preview`` (the gallery of every kit) and
``studio`` (the studio's draft build). Each reads the pipeline (generator/orchestration/
build.py and its helpers); the pipeline never imports an exporter (an import-linter contract
in pyproject.toml), so what a kit is made of never depends on what is exported from it.
"""
