"""A stand-in for ``parlour connect URL`` in the door's tests: it says what it was given
(its account, by asking the server with ``PARLOUR_TOKEN``; its terminal and size; its
environment's names) and answers ``size`` and ``quit`` typed on its terminal."""

from __future__ import annotations

import os
import signal
import sys

import httpx


def main(url: str) -> None:
    token = os.environ.get("PARLOUR_TOKEN", "")
    me = httpx.get(f"{url}/auth/me", headers={"Authorization": f"Bearer {token}"})
    name = me.json()["name"] if me.status_code == 200 else f"refused {me.status_code}"
    print(f"ACCOUNT={name}", flush=True)
    print(f"TOKEN={token}", flush=True)
    print(f"TERM={os.environ.get('TERM')} TTY={os.isatty(0)}", flush=True)
    print(f"ENV={','.join(sorted(os.environ))}", flush=True)
    print(f"HOME={os.environ.get('PARLOUR_HOME')}", flush=True)

    def size(*_: object) -> None:
        columns, rows = os.get_terminal_size(0)
        print(f"SIZE={columns}x{rows}", flush=True)

    signal.signal(signal.SIGWINCH, size)
    size()
    print("READY", flush=True)
    for line in sys.stdin:
        if line.strip() == "quit":
            print("BYE", flush=True)
            return
        if line.strip() == "size":
            size()


if __name__ == "__main__":
    main(sys.argv[1])
