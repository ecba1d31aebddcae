"""fastx.fetch and `fastx extract URL` against a real HTTP server on 127.0.0.1 (http.server in a thread)."""
import gzip
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("urllib3")

import fastx  # noqa: E402
from fastx import cli  # noqa: E402
from fastx.errors import FetchError, InputError  # noqa: E402
from fastx.fetch import charset_of, fetch, fetch_many, is_url  # noqa: E402

ARTICLE = ("<html><head><title>Caf\u00e9 news</title></head><body><nav><a href='/'>Home</a> <a href='/x'>More</a></nav>"
           "<article><h1>Caf\u00e9 opens</h1>"
           + "".join(f"<p>The caf\u00e9 on the corner opened its doors on day {i}, and the whole street came to "
                     f"taste the coffee, the cakes and the bread baked before dawn.</p>" for i in range(8))
           + "</article><footer>Copyright 2024</footer></body></html>")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _send(self, status, body=b"", ctype="text/html; charset=utf-8", headers=()):
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # noqa: C901 - one route per case
        path = self.path
        if path == "/echo":                  # the request headers, as JSON
            self._send(200, json.dumps(dict(self.headers)).encode(), "text/html")
        elif path == "/latin1":
            self._send(200, ARTICLE.encode("latin-1"), "text/html; charset=ISO-8859-1")
        elif path == "/utf8":
            self._send(200, ARTICLE.encode("utf-8"), "text/html")
        elif path.startswith("/redirect/"):
            n = int(path.rsplit("/", 1)[1])
            self._send(302, b"", None, [("Location", f"/redirect/{n - 1}" if n > 1 else "/utf8")])
        elif path == "/missing":
            self._send(404, b"<h1>Not found</h1>")
        elif path == "/image":
            self._send(200, b"\x89PNG\r\n\x1a\n" + b"\0" * 100, "image/png")
        elif path == "/big":
            self._send(200, b"<p>" + b"x" * 300_000 + b"</p>")
        elif path == "/big-unsized":         # no Content-Length: the body ends when the connection closes
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Connection", "close")
            self.end_headers()
            for _ in range(40):
                self.wfile.write(b"<p>" + b"y" * 10_000 + b"</p>")
            self.close_connection = True
        elif path == "/bomb":                # 50 MB of zeros in ~50 KB of gzip
            self._send(200, gzip.compress(b"\0" * 50_000_000, 9), "text/html",
                       [("Content-Encoding", "gzip")])
        elif path == "/gzip":
            self._send(200, gzip.compress(ARTICLE.encode("utf-8")), "text/html; charset=utf-8",
                       [("Content-Encoding", "gzip")])
        elif path == "/slow":                # a slow drip: each piece in time, the whole far too late
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                pass
        else:
            self._send(404, b"")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass        # a client that hung up on purpose (size cap, timeout) is not a server error


@pytest.fixture(scope="module")
def server():
    httpd = Server(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_is_url_and_charset():
    assert is_url("https://example.com/") and is_url("HTTP://x") and not is_url("page.html")
    assert not is_url("file:///etc/passwd") and not is_url(None)
    assert charset_of('text/html; charset="ISO-8859-1"') == "ISO-8859-1"
    assert charset_of("text/html;Charset=utf-8 ") == "utf-8"
    assert charset_of("text/html") is None and charset_of(None) is None and charset_of("text/html; charset=") is None


def test_charset_from_the_header_reaches_the_decoder(server):
    page = fetch(server + "/latin1")
    assert page.error is None and page.encoding == "ISO-8859-1" and page.url == server + "/latin1"
    r = fastx.extract(page.html, url=page.url, encoding=page.encoding, method="cetd")
    assert "caf\u00e9 on the corner" in r.text         # Latin-1 bytes decoded as the header says
    # the same bytes without the hint: the decoder has to guess; with it there is no guessing
    assert page.html == ARTICLE.encode("latin-1")


def test_redirects_followed_and_bounded(server):
    page = fetch(server + "/redirect/3")
    assert page.error is None and page.url == server + "/utf8" and page.input == server + "/redirect/3"
    assert "caf\u00e9 on the corner" in fastx.extract(page.html, url=page.url, method="cetd").text
    page = fetch(server + "/redirect/3", max_redirects=2)
    assert page.html is None and page.error.startswith("FetchError: ") and "redirects" in page.error


@pytest.mark.parametrize("path, words", [("/missing", "HTTP 404"), ("/image", "not HTML"),
                                         ("/big", "over the limit"), ("/big-unsized", "over the limit"),
                                         ("/bomb", "over the limit")])
def test_failures_are_error_records(server, path, words):
    page = fetch(server + path, max_bytes=200_000)
    assert page.html is None and page.error.startswith("FetchError: ") and words in page.error, page.error


def test_request_headers(server):
    sent = json.loads(fetch(server + "/echo").html)
    assert sent["User-Agent"].startswith("fastx/") and "gzip" in sent["Accept-Encoding"]
    sent = json.loads(fetch(server + "/echo", headers={"User-Agent": "me", "X-Extra": "1"}).html)
    assert sent["User-Agent"] == "me" and sent["X-Extra"] == "1" and "text/html" in sent["Accept"]


def test_gzip_body_is_decoded(server):
    page = fetch(server + "/gzip")
    assert page.error is None and page.html == ARTICLE.encode("utf-8")


def test_total_timeout_cuts_a_slow_drip(server):
    t0 = time.monotonic()
    page = fetch(server + "/slow", timeout=1.0)
    assert time.monotonic() - t0 < 5.0
    assert page.html is None and "FetchError" in page.error


def test_connection_refused_is_an_error_record():
    page = fetch(f"http://127.0.0.1:{free_port()}/", timeout=3)
    assert page.html is None and page.error.startswith("FetchError: ")


def test_callers_mistakes_raise():
    with pytest.raises(InputError):
        fetch("ftp://example.com/")
    with pytest.raises(InputError):
        fetch("http://127.0.0.1/", timeout=0)
    assert issubclass(FetchError, fastx.FastxError)


def test_fetch_many_keeps_order_and_reports_non_urls(server):
    pages = list(fetch_many([server + "/utf8", "not a url", server + "/missing"]))
    assert [p.input for p in pages] == [server + "/utf8", "not a url", server + "/missing"]
    assert pages[0].error is None and pages[1].error.startswith("InputError") and "404" in pages[2].error


def test_cli_extract_url(server, capsys):
    assert cli.main(["extract", server + "/latin1", "--method", "cetd"]) == 0
    out = capsys.readouterr().out
    assert "caf\u00e9 on the corner opened its doors on day 7" in out     # Latin-1 decoded by the header


def test_cli_urls_from_json_and_output_dir(server, tmp_path, capsys):
    listing = tmp_path / "urls.txt"
    listing.write_text(f"# news\n{server}/utf8\n\n{server}/missing\n{server}/redirect/1\n")
    assert cli.main(["extract", "--urls-from", str(listing), "-q", "--format", "json", "--method", "cetd"]) == 1   # one failed
    recs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["input"] for r in recs] == [f"{server}/utf8", f"{server}/missing", f"{server}/redirect/1"]
    assert recs[0]["error"] is None and "caf\u00e9" in recs[0]["text"]
    assert recs[1]["error"].startswith("FetchError: HTTP 404") and recs[1]["text"] is None
    assert recs[2]["url"] == f"{server}/utf8" and recs[2]["error"] is None

    out = tmp_path / "out"
    assert cli.main(["extract", "--urls-from", str(listing), "-q", "-o", str(out) + "/", "--method", "cetd"]) == 1
    files = sorted(p.name for p in out.iterdir())
    assert files == ["127.0.0.1_%d_redirect_1.txt" % int(server.rsplit(":", 1)[1]),
                     "127.0.0.1_%d_utf8.txt" % int(server.rsplit(":", 1)[1])]      # the 404 wrote nothing
    assert "caf\u00e9 on the corner" in (out / files[1]).read_text(encoding="utf-8")
