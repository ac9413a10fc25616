"""trafilatura's extraction alone on the dev pages, the peer of bench/real-pages.bench.ts.

Run with /usr/bin/python3 and PYTHONPATH pointing at a bench-only copy of trafilatura (never a product dependency):

    peer-trafilatura.py QUALITY_DIR OUT_DIR FORMAT WARMUP_IDS

Extracts the warm-up pages (comma-separated ids of wcxb-dev-all, none of them in the 300) first, then every page of
wcxb-dev once, timing extract() alone in process CPU (time.process_time): decompressing and decoding the file happen
before the clock starts, so the figure is the extraction and nothing else. Writes OUT_DIR/<id>.md (markdown) or .txt
for the set's scorer and prints one JSON line: {"version", "format", "ms": {id: cpu ms}}.
"""

import gzip
import json
import os
import sys
import time

import trafilatura


def html_of(folder, page_id):
    with gzip.open(os.path.join(folder, "html", f"{page_id}.html.gz")) as f:
        # The set stores every page as UTF-8 (the bench's page server says so in its Content-Type too).
        return f.read().decode("utf-8", errors="replace")


def ids_of(folder):
    with open(os.path.join(folder, "MANIFEST.tsv"), encoding="utf-8") as f:
        return sorted(line.split("\t")[0] for line in f.read().strip().split("\n")[1:])


def extract(html, fmt):
    return trafilatura.extract(html, output_format=fmt) or ""


def main():
    quality, out_dir, fmt, warmup = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    for page_id in filter(None, warmup.split(",")):
        extract(html_of(os.path.join(quality, "wcxb-dev-all"), page_id), fmt)
    dev = os.path.join(quality, "wcxb-dev")
    ext = "md" if fmt == "markdown" else "txt"
    ms = {}
    for page_id in ids_of(dev):
        html = html_of(dev, page_id)
        start = time.process_time()
        try:
            out = extract(html, fmt)
        except Exception:  # a page trafilatura cannot handle scores as empty output, as ours would
            out = ""
        ms[page_id] = (time.process_time() - start) * 1000
        with open(os.path.join(out_dir, f"{page_id}.{ext}"), "w", encoding="utf-8") as f:
            f.write(out)
    print(json.dumps({"version": trafilatura.__version__, "format": fmt, "ms": ms}))


main()
