"""What a kit looks like, as files: face templates found, read and checked (``templates``),
themes layered and checked (``themes``), icons (``icons``) and SVG art (``svg``, each file
checked by ``svg_scan`` before any SVG library sees it); the one door from drawing back to
loading for a name computed while drawing (``lookup``); and the icons, art and fonts a kit's
finished pages draw with, loaded once for the renderers (``resources``).

Built on files/ and typefaces/.
"""
