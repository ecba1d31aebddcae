"""pipeline: many pages in, one record per page out.

``batch`` (Page, extract_many: worker processes, timeouts, memory limits, the
``fastx extract`` input readers), ``warc`` (reading and writing WARC files),
``fetch`` (HTTP(S) pages for a batch), ``spark`` (a PySpark column UDF) and ``warm``
(imported by batch workers: the models and the language detector loaded before the first page).

May import: fastx.api, core/, output/, methods/ (the registry), fastx.errors,
fastx.config.  Nothing below pipeline/ imports it.
"""
