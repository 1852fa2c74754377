#!/usr/bin/env python3
"""A loopback HTTP(S) server for cudawiz's fetch tests.

It listens on 127.0.0.1 only (and on ::1 when the machine has it), on
ports the kernel picks, writes them to --port-file once it listens, logs
every request to --log, and exits by itself after --lifetime seconds, so a
test that dies cannot leave it behind for long.

Paths (every answer closes the connection):
  /404                  404 Not Found
  /hang                 reads the request and never answers
  /big                  a 50 MB body with its Content-Length
  /big-stream           a 50 MB body without Content-Length
  /truncated/NAME       NAME from --dir, Content-Length 1000 bytes too large
  /chain/N/NAME         N redirects (302), then NAME as below
  /to?url=URL           a 302 redirect to URL
  /NAME                 NAME from --dir, with ETag and Last-Modified; 304
                        when If-None-Match or If-Modified-Since says the
                        client has it; a directory gives an HTML listing
                        like NVIDIA's redist index
  CONNECT host:port     403 (a proxy that says no), logged
"""
import argparse
import email.utils
import hashlib
import html
import http.server
import os
import socket
import ssl
import sys
import threading
import time
import urllib.parse

BIG = 50 * 1000 * 1000
CHUNK = 64 * 1024


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dir", required=True, help="files to serve")
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--cert", help="PEM certificate: also serve https")
    p.add_argument("--key", help="PEM key of --cert")
    p.add_argument("--lifetime", type=float, default=120.0)
    return p.parse_args()


ARGS = parse_args()
LOG_LOCK = threading.Lock()


def log(line):
    with LOG_LOCK:
        with open(ARGS.log, "a", encoding="utf-8") as f:
            f.write(line + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "cudawiz-test-httpd"
    sys_version = ""

    def log_message(self, fmt, *args):  # quiet: the log file is the record
        pass

    def record(self):
        log("%s %s %s inm=%s ims=%s" % (
            self.server.kind, self.command, self.path,
            self.headers.get("If-None-Match", "-"),
            self.headers.get("If-Modified-Since", "-")))

    def send_body(self, code, body, ctype="application/json", extra=None,
                  length=None):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length",
                         str(len(body) if length is None else length))
        self.send_header("Connection", "close")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def local_path(self, rel):
        rel = urllib.parse.unquote(rel).lstrip("/")
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        if any(p == ".." for p in parts):
            return None
        return os.path.join(ARGS.dir, *parts)

    def listing(self, path, urlpath):
        names = sorted(os.listdir(path))
        rows = "".join('<a href="%s">%s</a>  %s\n' % (
            html.escape(n), html.escape(n), "-") for n in names)
        body = ("<html><head><title>Index of %s</title></head><body>\n"
                "<h1>Index of %s</h1><pre>\n<a href=\"../\">../</a>\n%s"
                "</pre><hr></body></html>\n" % (
                    html.escape(urlpath), html.escape(urlpath), rows))
        self.send_body(200, body.encode(), "text/html")

    def serve_file(self, rel, truncate=False):
        path = self.local_path(rel)
        if path is None or not os.path.exists(path):
            self.send_body(404, b"not found\n", "text/plain")
            return
        if os.path.isdir(path):
            self.listing(path, "/" + rel.lstrip("/"))
            return
        with open(path, "rb") as f:
            body = f.read()
        mtime = int(os.stat(path).st_mtime)
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        lastmod = email.utils.formatdate(mtime, usegmt=True)
        validators = {"ETag": etag, "Last-Modified": lastmod}
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        fresh = False
        if inm is not None:
            fresh = etag in [t.strip() for t in inm.split(",")]
        elif ims is not None:
            try:
                fresh = email.utils.parsedate_to_datetime(ims).timestamp() >= mtime
            except (TypeError, ValueError):
                fresh = False
        if fresh and not truncate:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", lastmod)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            return
        self.send_body(200, body, extra=validators,
                       length=len(body) + 1000 if truncate else None)

    def stream_big(self, with_length):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if with_length:
            self.send_header("Content-Length", str(BIG))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        chunk = b" " * CHUNK
        sent = 0
        try:
            while sent < BIG:
                self.wfile.write(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            pass

    def do_GET(self):
        self.record()
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        if path == "/404":
            self.send_body(404, b"not found\n", "text/plain")
        elif path == "/hang":
            # Accepted and read, never answered: the client's own timeout
            # has to end it. The lifetime ends the server.
            time.sleep(ARGS.lifetime)
            self.close_connection = True
        elif path == "/big":
            self.stream_big(True)
        elif path == "/big-stream":
            self.stream_big(False)
        elif path.startswith("/truncated/"):
            self.serve_file(path[len("/truncated/"):], truncate=True)
        elif path.startswith("/chain/"):
            rest = path[len("/chain/"):]
            n, _, name = rest.partition("/")
            if not n.isdigit():
                self.send_body(404, b"bad chain\n", "text/plain")
            elif int(n) > 0:
                self.redirect("/chain/%d/%s" % (int(n) - 1, name))
            else:
                self.serve_file(name)
        elif path == "/to":
            target = urllib.parse.parse_qs(url.query).get("url", [""])[0]
            self.redirect(target)
        else:
            self.serve_file(path)

    def do_CONNECT(self):
        self.record()
        self.send_body(403, b"no tunnels here\n", "text/plain")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr, family, kind, context=None):
        self.address_family = family
        self.kind = kind
        self.context = context
        super().__init__(addr, Handler)

    def get_request(self):
        sock, addr = super().get_request()
        if self.context is not None:
            # The handshake happens in the handler's thread, so a client
            # that never finishes it cannot stall the others.
            sock = self.context.wrap_socket(sock, server_side=True,
                                            do_handshake_on_connect=False)
        return sock, addr

    def finish_request(self, request, client_address):
        if self.context is not None:
            try:
                request.settimeout(10)
                request.do_handshake()
                request.settimeout(None)
            except (ssl.SSLError, OSError):
                return  # the client refused our certificate, as tested
        super().finish_request(request, client_address)

    def handle_error(self, request, client_address):
        pass  # clients that give up are the point of several tests


def serve(server):
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()


def main():
    servers = {}
    servers["http"] = Server(("127.0.0.1", 0), socket.AF_INET, "http")
    try:
        servers["http6"] = Server(("::1", 0), socket.AF_INET6, "http6")
    except OSError:
        pass  # no IPv6 loopback here; the tests skip that case
    if ARGS.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(ARGS.cert, ARGS.key)
        servers["https"] = Server(("127.0.0.1", 0), socket.AF_INET, "https",
                                  ctx)
    for s in servers.values():
        serve(s)
    tmp = ARGS.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for kind, s in servers.items():
            f.write("%s %d\n" % (kind, s.server_address[1]))
    os.rename(tmp, ARGS.port_file)
    time.sleep(ARGS.lifetime)
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
