"""A loopback nginx with a WebDAV location, the Bazel HTTP remote cache offbench's cache mode links
against (the Python twin of lto-wrapper's test fixture NginxWebDav.java).

nginx runs as a child process (an argv list, never a shell) with everything in one directory: the
config, pid, logs, temp paths and the served root. It listens on a free port of 127.0.0.1 and is
stopped with SIGTERM (nginx's fast shutdown). The access log has one line per request:
`<method> <uri> <status>`."""
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

SBIN = "/usr/sbin:/usr/local/sbin:/sbin"


def locate():
    """An nginx built with the DAV module (on PATH or in the sbin directories), or None."""
    path = os.environ.get("PATH", "") + ":" + SBIN
    nginx = shutil.which("nginx", path=path)
    if not nginx:
        return None
    out = subprocess.run([nginx, "-V"], capture_output=True, text=True)
    return nginx if "--with-http_dav_module" in out.stdout + out.stderr else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config(d, port):
    # As root the workers must stay root: nginx's default "nobody" cannot write a root-owned dir.
    user = "user root;\n" if os.geteuid() == 0 else ""
    temps = "".join(f"  {k}_temp_path {d}/temp/{k};\n"
                    for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"{user}daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\n"
            f"error_log {d}/logs/error.log info;\nevents {{ worker_connections 64; }}\nhttp {{\n"
            f"  log_format cache '$request_method $uri $status';\n"
            f"  access_log {d}/logs/access.log cache;\n{temps}"
            f"  server {{\n    listen 127.0.0.1:{port};\n    root {d}/www;\n"
            f"    location /cache/ {{ dav_methods PUT; create_full_put_path on; "
            f"client_max_body_size 0; }}\n  }}\n}}\n")


class WebDav:
    """`with WebDav(nginx, dir) as dav:` serves dav.url (GET and PUT) until the block ends."""

    def __init__(self, nginx, directory):
        self.nginx, self.dir = nginx, Path(directory)
        self.proc = None
        self.port = 0

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/cache"

    def __enter__(self):
        for sub in ("www/cache", "temp", "logs"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        conf = self.dir / "nginx.conf"
        conf.write_text(config(self.dir, self.port))
        with open(self.dir / "logs" / "console.log", "wb") as console:
            self.proc = subprocess.Popen(
                [self.nginx, "-p", f"{self.dir}/", "-e", str(self.dir / "logs" / "error.log"),
                 "-c", str(conf)], stdout=console, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
        try:
            self._await_port()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: nginx's fast shutdown
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def access_log(self):
        log = self.dir / "logs" / "access.log"
        return log.read_text().splitlines() if log.exists() else []

    def _await_port(self):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"offbench: nginx exited with {self.proc.returncode}: "
                                 + self._log("console.log") + self._log("error.log"))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"offbench: nginx did not listen on port {self.port} within 15 s: "
                         + self._log("error.log"))

    def _log(self, name):
        p = self.dir / "logs" / name
        return p.read_text(errors="replace")[-2000:] if p.exists() else ""
