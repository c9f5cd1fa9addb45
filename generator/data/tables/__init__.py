"""A game's data file read into a ``Game`` (generator/core/model.py): parsed, checked against
its schema (``schema``) and expanded (``loader``), its tables' declared column types
(``columns``) and spreadsheets (``spreadsheet``, an XLSX file bounded by ``xlsx_scan`` before
``xlsx`` hands it to openpyxl), what each face template reads of the data, typed (``fields``),
and the load-time checks of its ``verify:`` and ``deal:`` lists (``verify_list``,
``deal_list``). Every problem is a DataError at the data file's own line.

The top of the data layer, built on all the others; its entry is generator/data/__init__.py's
``load_game``.
"""
