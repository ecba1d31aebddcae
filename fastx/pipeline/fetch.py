"""Fetching pages over HTTP(S): ``fastx extract https://...`` and ``--urls-from FILE``.

>>> from fastx.fetch import fetch
>>> page = fetch("https://example.com/")         # -> fastx.Page, never raises for the page's fault
>>> page.error or fastx.extract(page.html, url=page.url, encoding=page.encoding).text

Needs urllib3 (``pip install 'fastx-extract[web]'``).  One request per URL,
with the limits a crawler needs so that no server can hang or flood the
caller:

- timeouts: ``timeout`` seconds for the whole exchange, checked after every
  piece of the body received (a slow-drip server is cut off), at most 10 of
  them to connect, and no single read waiting longer than ``timeout``;
- a size cap (``max_bytes`` of the *decoded* body, so a compressed bomb stops
  at the cap too; urllib3 >= 2.6 decompresses streamed bodies in bounded
  steps); a ``Content-Length`` over the cap is refused before the body is read;
- at most ``max_redirects`` redirects (http/https only), the final URL
  becoming the page's URL;
- the charset of the ``Content-Type`` header passed on as the page's encoding
  hint (``fastx.decode`` ranks it after a BOM and clear UTF-8 evidence, before
  ``<meta charset>``);
- only answers that can be HTML: a 2xx status and no ``Content-Type``, or a
  ``text/*``, ``application/xhtml+xml`` or ``application/xml`` one.

Any failure (DNS, refused connection, timeout, TLS, a 4xx/5xx status, too
many redirects, an oversized or non-HTML answer) gives a Page whose
``error`` reads ``"FetchError: ..."`` (:class:`fastx.errors.FetchError`), so
that a batch's record says what went wrong and the batch goes on.
"""
from __future__ import annotations

import time
from typing import Iterable, Iterator

from .batch import Page
from ..config import FETCH_MAX_BYTES, FETCH_MAX_REDIRECTS, FETCH_TIMEOUT
from ..errors import FetchError, InputError

__all__ = ["fetch", "fetch_many", "is_url", "charset_of", "DEFAULT_TIMEOUT", "MAX_BYTES", "MAX_REDIRECTS"]

DEFAULT_TIMEOUT = FETCH_TIMEOUT          # seconds for the whole exchange (connect: min(10, this))
MAX_BYTES = FETCH_MAX_BYTES              # decoded body size cap
MAX_REDIRECTS = FETCH_MAX_REDIRECTS
_CHUNK = 64 * 1024
_HTML_TYPES = ("text/", "application/xhtml+xml", "application/xml")


def is_url(s: str) -> bool:
    """True for an ``http://`` or ``https://`` URL (what ``fastx extract`` fetches instead of reading a file)."""
    return isinstance(s, str) and s[:8].lower().startswith(("http://", "https://"))


def charset_of(content_type: str | None) -> str | None:
    """The ``charset`` parameter of a ``Content-Type`` header value (unquoted, stripped), or None.

    >>> charset_of('text/html; charset="ISO-8859-1"')
    'ISO-8859-1'
    """
    if not content_type:
        return None
    for part in content_type.split(";")[1:]:
        key, sep, value = part.partition("=")
        if sep and key.strip().lower() == "charset":
            value = value.strip().strip("\"'").strip()
            return value or None
    return None


def _user_agent() -> str:
    from .. import __version__
    return f"fastx/{__version__} (+https://fastx-extract.github.io/fastx/)"


def _pool(pool=None):
    if pool is not None:
        return pool
    try:
        import urllib3
    except ImportError:
        raise InputError("fetching URLs needs urllib3: pip install 'fastx-extract[web]'") from None
    return urllib3.PoolManager(headers={"User-Agent": _user_agent(),
                                        "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
                                        "Accept-Encoding": "gzip, deflate"})


def fetch(url: str, *, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = MAX_BYTES,
          max_redirects: int = MAX_REDIRECTS, headers: dict | None = None, pool=None) -> Page:
    """Fetch one URL; a :class:`fastx.Page` with the body, the final URL and the charset hint.

    url: an ``http://`` or ``https://`` URL.
    timeout: seconds for the whole exchange; connecting may take at most
        ``min(10, timeout)`` of them and each read waits at most ``timeout``.
    max_bytes: the largest decoded body accepted.
    max_redirects: redirects followed before giving up.
    headers: extra request headers, added to fastx's (a User-Agent, Accept, Accept-Encoding);
        the same names replace them.
    pool: a ``urllib3.PoolManager`` to reuse connections across calls
        (:func:`fetch_many` shares one).

    Never raises for the server's or the network's fault: the Page's
    ``error`` is then ``"FetchError: ..."`` and ``html`` is None.  Raises
    :class:`fastx.InputError` for the caller's mistakes (not an http(s) URL,
    non-positive limits, urllib3 missing).
    """
    if not is_url(url):
        raise InputError(f"not an http(s) URL: {url!r}")
    if not timeout or timeout <= 0 or max_bytes <= 0 or max_redirects < 0:
        raise InputError("fetch: timeout and max_bytes must be positive, max_redirects >= 0")
    http = _pool(pool)
    try:
        body, final_url, ctype = _get(http, url, timeout, max_bytes, max_redirects, headers)
    except FetchError as exc:
        return Page(url=url, input=url, error=f"FetchError: {exc}")
    return Page(html=body, url=final_url, encoding=charset_of(ctype), input=url)


def _get(http, url, timeout, max_bytes, max_redirects, headers):
    """(body, final URL, Content-Type) or FetchError."""
    import urllib3
    from urllib3.exceptions import HTTPError, MaxRetryError
    retries = urllib3.Retry(total=None, connect=0, read=0, status=0, other=0, redirect=max_redirects,
                            raise_on_redirect=True, raise_on_status=False)
    if headers:       # added to the pool's own headers (urllib3 would use them instead)
        headers = {**getattr(http, "headers", {}), **headers}
    start = time.monotonic()
    deadline = start + timeout
    resp = None
    complete = False
    try:
        resp = http.request("GET", url, headers=headers or None, preload_content=False, retries=retries,
                            timeout=urllib3.Timeout(connect=min(10.0, timeout), read=timeout))
        if not 200 <= resp.status < 300:
            raise FetchError(f"HTTP {resp.status} {resp.reason or ''}".rstrip() + f" for {url}")
        ctype = resp.headers.get("Content-Type")
        mime = (ctype or "").split(";")[0].strip().lower()
        if mime and not mime.startswith(_HTML_TYPES):
            raise FetchError(f"not HTML: Content-Type {mime} at {url}")
        length = resp.headers.get("Content-Length", "")
        if length.isdigit() and int(length) > max_bytes and "Content-Encoding" not in resp.headers:
            raise FetchError(f"the page is {int(length):,} bytes, over the limit of {max_bytes:,} bytes")
        chunks, size = [], 0
        while True:
            chunk = resp.read1(_CHUNK, decode_content=True)   # what one receive brought, decoded
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:
                raise FetchError(f"the page is over the limit of {max_bytes:,} bytes")
            chunks.append(chunk)
            if time.monotonic() > deadline:
                raise FetchError(f"no complete answer within {timeout:g} s from {url}")
        final = _final_url(resp, url)
        complete = True
        return b"".join(chunks), final, ctype
    except FetchError:
        raise
    except MaxRetryError as exc:
        reason = exc.reason
        if reason is None or "redirect" in type(reason).__name__.lower() or "redirect" in str(reason).lower():
            raise FetchError(f"more than {max_redirects} redirects from {url}") from None
        raise FetchError(f"{_reason(reason)} ({url})") from None
    except (HTTPError, OSError, ValueError) as exc:   # timeouts, protocol errors, bad redirect targets
        raise FetchError(f"{_reason(exc)} ({url})") from None
    finally:
        if resp is not None:
            if not complete:        # a body left unread must not reach the next request on this connection
                resp.close()
            resp.release_conn()


def _final_url(resp, url: str) -> str:
    """The URL after redirects (urllib3's ``response.url``, else its retry history)."""
    final = getattr(resp, "url", None)
    if isinstance(final, str) and is_url(final):
        return final
    history = getattr(getattr(resp, "retries", None), "history", None) or ()
    for entry in reversed(history):
        if entry.redirect_location:
            from urllib.parse import urljoin
            return urljoin(entry.url or url, entry.redirect_location)
    return url


def _reason(exc) -> str:
    """A one-line reason of a urllib3/socket exception."""
    name = type(exc).__name__
    text = str(exc).split(": ", 1)[-1] if ": " in str(exc) else str(exc)
    return f"{name}: {text}" if text else name


def fetch_many(urls: Iterable[str], **kwargs) -> Iterator[Page]:
    """:func:`fetch` each URL in order over one connection pool; one Page per URL.

    A string that is not an http(s) URL yields a Page with an ``InputError``
    message instead of stopping the iteration."""
    http = _pool(kwargs.pop("pool", None))
    for url in urls:
        if not is_url(url):
            yield Page(url=None, input=url, error=f"InputError: not an http(s) URL: {url!r}")
            continue
        yield fetch(url, pool=http, **kwargs)
