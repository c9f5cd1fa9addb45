"""Orchestration: a whole kit (or PNG set, preview, simulation, reference) from the layers below.

``build`` runs data -> faces -> layout -> render for one game; ``export`` writes PNGs;
``parallel`` runs several games at once; ``simulate`` reports on seeded games (played by
generator/rules/play.py); ``preflight`` checks a kit before it is printed. ``exporters/``
sits apart from that pipeline: the Tabletop Simulator object, the gallery preview, the
authoring reference, the editors' JSON Schemas and the studio's draft build. Front ends call
in through generator/frontends/app.py.
"""
