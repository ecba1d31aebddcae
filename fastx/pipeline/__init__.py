"""pipeline: many pages in, one record per page out.

``batch`` (Page, extract_many: worker processes, timeouts, memory limits, the
``fastx extract`` input readers), ``warc`` (reading and writing WARC files),
``fetch`` (HTTP(S) pages for a batch) and ``spark`` (a PySpark column UDF).

May import: fastx.api, core/, output/, methods/ (the registry), fastx.errors,
fastx.config.  Nothing below pipeline/ imports it.
"""
