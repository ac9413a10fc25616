"""Scrapy peer of the crawl benchmark: CONCURRENT_REQUESTS 64, per domain 64, same-host links, no Markdown."""
import json
import resource
import sys
import time
from urllib.parse import urlparse

import scrapy
from scrapy.crawler import CrawlerProcess

PORT, HOSTS = int(sys.argv[1]), int(sys.argv[2])
pages = 0


class Site(scrapy.Spider):
    name = "site"
    def start_requests(self):
        # Filtered like every other request, so a root linked back to is not fetched twice.
        for i in range(1, HOSTS + 1):
            yield scrapy.Request(f"http://127.0.0.{i}:{PORT}/", callback=self.parse)

    def parse(self, response):
        global pages
        pages += 1
        host = urlparse(response.url).netloc
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if urlparse(url).netloc == host:
                yield scrapy.Request(url, callback=self.parse)


process = CrawlerProcess(settings={
    "CONCURRENT_REQUESTS": 64,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 64,
    "ROBOTSTXT_OBEY": False,
    "RETRY_ENABLED": False,
    "LOG_LEVEL": "ERROR",
    "TELNETCONSOLE_ENABLED": False,
    "COOKIES_ENABLED": False,
})
cpu0 = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
t0 = time.perf_counter()
process.crawl(Site)
process.start()
wall_ms = (time.perf_counter() - t0) * 1000
cpu_ms = (sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) - cpu0) * 1000
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"pages": pages, "wallMs": wall_ms, "cpuMs": cpu_ms, "peakRssMb": peak}))
