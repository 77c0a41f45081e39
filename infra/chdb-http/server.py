#!/usr/bin/env python3
"""TEST STAND-IN for a ClickHouse server: ClickHouse's HTTP interface over chDB (chdb-core on PyPI).

Why: our CI machines can install no ClickHouse server (no Docker; only package registries), so the
contract suite of the ClickHouse-server analytics adapter (libs/engines/clickhouse) would never run.
chdb-core is ClickHouse's own engine as a library; this file puts the part of ClickHouse's HTTP
interface that @clickhouse/client uses in front of it, so that suite runs in CI. It is not a server
to deploy: no authentication, no sessions, one request at a time, loopback only.

What it implements (everything else answers a ClickHouse-style error):
- GET /ping and GET / without a query: `Ok.\n`.
- GET or POST / with the statement in `query=` and/or the body. As in ClickHouse the SQL is the
  `query` parameter, a newline, then the body, so `INSERT ... FORMAT JSONEachRow` in the URL takes
  its rows from the body. GET runs with readonly=2, as in ClickHouse.
- URL parameters: `database` (the request's current database), `default_format` (output format
  when the SQL names none; default TabSeparated), `query_id` (echoed in X-ClickHouse-Query-Id),
  `param_<name>` (bound to `{name:Type}` by chDB itself, in the same escaped text form as on a
  server); any other parameter is a setting, applied with SET for this request only (an unknown one
  fails, as on a server). ClickHouse's other HTTP-only parameters (user, password, wait_end_of_query,
  buffer_size, ...) are accepted and ignored; `session_id` and `compress`/`decompress` are refused.
- Request bodies plain, chunked, or gzip/deflate (Content-Encoding); responses uncompressed (allowed
  even when a client asks for compression); any output format chDB has.
- Errors: chDB's `Code: N. DB::Exception: ... (NAME)` message plus ` (version ...)`, with the HTTP
  status ClickHouse gives that error (its exceptionCodeToHTTPStatus) and X-ClickHouse-Exception-Code.
- Basic auth and X-ClickHouse-User/Key headers: accepted, not checked.

How: one chDB engine on --data (a ClickHouse data directory, so databases and tables persist across
requests). Requests are serialized by one lock; each runs on a fresh chDB connection, which is chDB's
unit of session state, so the database and settings of one request never leak into the next (a
ClickHouse HTTP request without session_id is likewise stateless). A connection held open for the
server's lifetime keeps the engine up between requests.

    python server.py --port 18123 --data /path/to/dir      # listens on 127.0.0.1 only
"""
import argparse
import json
import re
import signal
import sys
import threading
import time
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

import chdb
from chdb import state

# URL parameters that are not settings (ClickHouse's HTTPHandler reserved_param_names).
IGNORED = {"user", "password", "quota_key", "stacktrace", "role", "buffer_size", "wait_end_of_query",
           "session_timeout", "session_check", "client_protocol_version", "close_session"}
HANDLED = {"query", "database", "default_format", "query_id"}
REFUSED = {"session_id", "compress", "decompress"}
NOT_SETTINGS = IGNORED | HANDLED | REFUSED

# ClickHouse's exceptionCodeToHTTPStatus, by error name (chDB's messages end with the name).
STATUS_BY_ERROR = {
    **dict.fromkeys(["REQUIRED_PASSWORD"], 401),
    **dict.fromkeys(["UNKNOWN_USER", "WRONG_PASSWORD", "AUTHENTICATION_FAILED", "SET_NON_GRANTED_ROLE",
                     "ACCESS_DENIED"], 403),
    **dict.fromkeys(["BAD_ARGUMENTS", "CANNOT_COMPILE_REGEXP", "CANNOT_PARSE_TEXT", "CANNOT_PARSE_ESCAPE_SEQUENCE",
                     "CANNOT_PARSE_QUOTED_STRING", "CANNOT_PARSE_DATE", "CANNOT_PARSE_DATETIME", "CANNOT_PARSE_NUMBER",
                     "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING", "CANNOT_PARSE_IPV4", "CANNOT_PARSE_IPV6",
                     "CANNOT_PARSE_INPUT_ASSERTION_FAILED", "CANNOT_PARSE_UUID", "DUPLICATE_COLUMN", "ILLEGAL_COLUMN",
                     "UNKNOWN_ELEMENT_IN_AST", "UNKNOWN_TYPE_OF_AST_NODE", "THERE_IS_NO_COLUMN", "TOO_DEEP_AST",
                     "TOO_BIG_AST", "UNEXPECTED_AST_STRUCTURE", "SYNTAX_ERROR", "INCORRECT_DATA", "TYPE_MISMATCH",
                     "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE"], 400),
    **dict.fromkeys(["UNKNOWN_TABLE", "UNKNOWN_FUNCTION", "UNKNOWN_IDENTIFIER", "UNKNOWN_TYPE", "UNKNOWN_STORAGE",
                     "UNKNOWN_DATABASE", "UNKNOWN_SETTING", "UNKNOWN_DIRECTION_OF_SORTING",
                     "UNKNOWN_AGGREGATE_FUNCTION", "UNKNOWN_FORMAT", "UNKNOWN_DATABASE_ENGINE",
                     "UNKNOWN_TYPE_OF_QUERY", "UNKNOWN_ROLE"], 404),
    "QUERY_IS_TOO_LARGE": 413,
    "NOT_IMPLEMENTED": 501,
    **dict.fromkeys(["SOCKET_TIMEOUT", "CANNOT_OPEN_FILE", "CANNOT_SCHEDULE_TASK"], 503),
    "HTTP_LENGTH_REQUIRED": 411,
    "TIMEOUT_EXCEEDED": 408,
    "UNSUPPORTED_MEDIA_TYPE": 415,
}
ERROR_RE = re.compile(r"^Code: (\d+)\..*\(([A-Z0-9_]+)\)\s*$", re.S)
SETTING_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ClickHouseError(Exception):
    def __init__(self, code, name, message):
        super().__init__(f"Code: {code}. DB::Exception: {message}. ({name})")


def escaped(value):
    """A value in ClickHouse's escaped text form, which chDB parses query parameter values from."""
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


class Engine:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.keeper = state.connect(path)  # holds the engine open (it stops with its last connection)

    def run(self, sql, database, settings, params, default_format, readonly):
        with self.lock:
            conn = state.connect(self.path)
            try:
                # ClickHouse's order: readonly for GET, the current database, then the URL's settings.
                if readonly:
                    conn.query("SET readonly = 2")
                if database:
                    conn.query("USE {db:Identifier}", params={"db": escaped(database)})
                for name, value in settings:
                    if not SETTING_NAME.match(name):
                        raise ClickHouseError(115, "UNKNOWN_SETTING", f"Unknown setting '{name}'")
                    conn.query(f"SET {name} = {{value:String}}", params={"value": escaped(value)})
                return conn.query(sql, default_format, params=params)
            finally:
                conn.close()

    def close(self):
        self.keeper.close()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as @clickhouse/client expects
    timeout = 30  # seconds an idle kept-alive connection may wait for its next request
    engine: Engine

    def do_GET(self):
        self.handle_request(readonly=True)

    def do_POST(self):
        self.handle_request(readonly=False)

    def handle_request(self, readonly):
        url = urlsplit(self.path)
        args = dict(parse_qsl(url.query, keep_blank_values=True))
        query_id = args.get("query_id") or str(uuid.uuid4())
        body = None
        try:
            body = self.read_body()
            if url.path == "/ping" or (url.path == "/" and readonly and "query" not in args):
                return self.reply(200, b"Ok.\n", {})
            if url.path != "/":
                raise ClickHouseError(48, "NOT_IMPLEMENTED", f"This stand-in has no handler for {url.path}")
            if (self.headers.get("Content-Type") or "").startswith("multipart/form-data"):
                raise ClickHouseError(48, "NOT_IMPLEMENTED", "multipart query parameters are not supported by this stand-in")
            refused = sorted(REFUSED & args.keys())
            if refused:
                raise ClickHouseError(48, "NOT_IMPLEMENTED", f"URL parameter '{refused[0]}' is not supported by this stand-in")
            sql = (args["query"].encode() + b"\n" + body) if "query" in args else body
            if not sql.strip():
                raise ClickHouseError(62, "SYNTAX_ERROR", "Empty query")
            params = {k[len("param_"):]: v for k, v in args.items() if k.startswith("param_")}
            settings = [(k, v) for k, v in args.items()
                        if k and not k.startswith("param_") and k not in NOT_SETTINGS]
            started = time.monotonic()
            result = self.engine.run(sql, args.get("database"), settings, params,
                                     args.get("default_format") or "TabSeparated", readonly)
            summary = {
                "read_rows": str(result.rows_read()), "read_bytes": str(result.bytes_read()),
                "written_rows": str(result.rows_written()), "written_bytes": str(result.bytes_written()),
                "elapsed_ns": str(int((time.monotonic() - started) * 1e9)),
            }
            self.reply(200, result.bytes(), {"X-ClickHouse-Query-Id": query_id,
                                             "X-ClickHouse-Summary": json.dumps(summary)})
        except Exception as error:  # every failure becomes a ClickHouse-style error
            # chDB raises with ClickHouse's own message: `Code: 60. DB::Exception: ... (UNKNOWN_TABLE)`.
            message = str(error).strip()
            match = ERROR_RE.match(message)
            code, name = (match.group(1), match.group(2)) if match else ("1001", "STD_EXCEPTION")
            if not match:
                message = f"Code: 1001. DB::Exception: {message}. (STD_EXCEPTION)"
            self.log_message("error: %s", message)
            if body is None:  # the request's body was not read to its end: the stream is out of step
                self.close_connection = True
            self.reply(STATUS_BY_ERROR.get(name, 500),
                       f"{message} (version {chdb.engine_version} (chdb-core stand-in))\n".encode(),
                       {"X-ClickHouse-Query-Id": query_id, "X-ClickHouse-Exception-Code": code})

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):  # trailers
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()  # CRLF after each chunk
            body = b"".join(chunks)
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        encoding = (self.headers.get("Content-Encoding") or "").lower()
        if encoding in ("gzip", "deflate"):
            body = zlib.decompress(body, 47)  # 32 + 15: gzip or zlib header, detected
        elif encoding not in ("", "identity"):
            raise ClickHouseError(48, "NOT_IMPLEMENTED", f"Content-Encoding {encoding} is not supported by this stand-in")
        return body

    def reply(self, status, body, headers):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        else:
            self.send_header("Keep-Alive", f"timeout={self.timeout}")
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=18123)
    parser.add_argument("--data", required=True, help="chDB data directory (created when missing)")
    options = parser.parse_args()

    # The engine opens before the port does: a server that answers is ready for queries.
    Handler.engine = Engine(options.data)
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop: close the engine cleanly
    print(f"chdb-http (chDB {chdb.__version__}, engine {chdb.engine_version}) on "
          f"http://127.0.0.1:{options.port}, data in {options.data}", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        Handler.engine.close()


if __name__ == "__main__":
    main()
