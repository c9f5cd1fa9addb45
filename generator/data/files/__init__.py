"""Where things are found: the one place that decides where a name is looked for (``project``:
a project folder, then the built-ins) and the one door every file a stranger's data names goes
through (``resolve``: confined to the project or the built-ins, never a path joined as it
stands).

The ground floor of the data layer: the other subpackages find files only through these two
modules, and these import nothing else of it.
"""
