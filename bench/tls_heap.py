"""What a TLS link to the broker would cost a Pico W's heap, measured on MicroPython's unix
port: the same MicroPython v1.28.0 and the same mbedTLS configuration as the rp2 port
(extmod/mbedtls/mbedtls_config_common.h: 16 KB in, 4 KB out), built so that mbedTLS takes
its buffers from the MicroPython heap as it does on the rp2 port (the unix port's own build
uses the C library's calloc: host_tools/board/unix_build.py's "tls-heap" build). The board's publisher speaks plain MQTT
(docs/mqtt.md section 5); these rows say what adding TLS would take.

    .venv/bin/python bench/tls_heap.py [--out docs/performance.md]

A TLS server on 127.0.0.1 (Python's ssl, a throw-away self-signed P-256 certificate made by
the openssl command) answers one connection; inside MicroPython the heap in use after a
collection is taken before the socket, after the handshake with the certificate checked
against that certificate (cadata), and after the link is closed. Rewrites only its own rows
of the page (those starting "Pico W TLS")."""

import os
import socket
import ssl
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import pagerows  # noqa: E402

ROW = "Pico W TLS"

CLIENT = """
import gc, socket, ssl, sys
port = int(sys.argv[1])
with open(sys.argv[2], "rb") as f:
    ca = f.read()
gc.collect()
base = gc.mem_alloc()
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
ctx.verify_mode = ssl.CERT_REQUIRED
ctx.load_verify_locations(cadata=ca)
s = socket.socket()
s.connect(socket.getaddrinfo("127.0.0.1", port)[0][-1])
tls = ctx.wrap_socket(s, server_hostname="localhost")
tls.write(b"ping")
got = tls.read(4)
gc.collect()
linked = gc.mem_alloc()
tls.close()
ctx = None
gc.collect()
print("TLS", got == b"pong", linked - base, gc.mem_alloc() - base)
"""


def certificate(folder):
    """A self-signed P-256 certificate and key for localhost: (cert path, key path)."""
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
        + ["-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost"]
        + ["-addext", "subjectAltName=DNS:localhost"],
        check=True,
        capture_output=True,
    )
    with open(cert) as f:
        pem = f.read()
    der = os.path.join(folder, "cert.der")
    with open(der, "wb") as f:
        f.write(ssl.PEM_cert_to_DER_cert(pem))
    return cert, key, der


def serve_once(cert, key):
    """A TLS server on a free 127.0.0.1 port answering one client's 4 bytes with b"pong";
    returns (port, thread)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def run():
        with listener:
            conn, _ = listener.accept()
            with ctx.wrap_socket(conn, server_side=True) as tls:
                tls.recv(4)
                tls.sendall(b"pong")
                tls.recv(1)  # until the client closes

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return port, thread


def measure():
    """(heap with the link up, heap left after it closed) in bytes, on the unix port."""
    from host_tools.board import unix_build

    why = unix_build.missing()
    if why:
        raise SystemExit("bench/tls_heap.py: " + why)
    exe = unix_build.build(flavour="tls-heap")
    with tempfile.TemporaryDirectory() as folder:
        cert, key, der = certificate(folder)
        port, thread = serve_once(cert, key)
        out = subprocess.run(
            [exe, "-c", CLIENT, str(port), der],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        thread.join(10)
    words = out.stdout.split()
    if out.returncode or len(words) < 4 or words[-4] != "TLS" or words[-3] != "True":
        raise SystemExit("bench/tls_heap.py: the TLS client failed: " + out.stderr[-1000:])
    return int(words[-2]), int(words[-1])


def rows(linked, left):
    how = (
        "bench/tls_heap.py: gc.mem_alloc() after gc.collect() around one TLS 1.2/1.3 link "
        "to a local server, its P-256 certificate checked; MicroPython 1.28.0 unix port built "
        "with the rp2 port's mbedTLS settings (16 KB in, 4 KB out, from the MicroPython heap)"
    )
    return [
        (
            ROW + " (unix port figures): heap one TLS link to the broker takes while up; "
            "left after it closed",
            "%.1f KB; %.1f KB" % (linked / 1024, left / 1024),
            "",
            how,
            "",
            "",
        )
    ]


def kept(path):
    """This bench's rows as on the page at ``path`` (bench/run.py when it is not run)."""
    return pagerows.kept(path, ROW)[0]


def rewrite(path, new_rows):
    """Replace this bench's rows on the page at ``path`` (bench/pagerows.py)."""
    pagerows.rewrite(path, ROW, new_rows)


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    args = ap.parse_args()
    new = rows(*measure())
    rewrite(args.out, new)
    for r in new:
        print(" | ".join(str(x) for x in r))


if __name__ == "__main__":
    main()
