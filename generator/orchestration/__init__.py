"""Orchestration: a whole kit (or PNG set, preview, simulation, reference) from the layers below.

``build`` runs data -> faces -> layout -> render for one game; ``export`` writes PNGs;
``parallel`` runs several games at once; ``simulate`` reports on seeded games (played by
generator/rules/play.py); ``preflight`` checks a
kit before it is printed; ``preview``, ``reference_doc`` and ``schema_export`` write the gallery,
the authoring reference and the editors' JSON Schemas. Front ends call in through
generator/frontends/app.py.
"""
