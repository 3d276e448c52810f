"""The spectator page idle on MicroPython's unix port: prints the bytes allocated over 2 s of
the asyncio loop with garbage collection off, without the page and then with it serving on
PORT (PAGE_DIR/page.json says so) and no client connected; then the status a request to it
gets.

    micropython page_idle.py PAGE_DIR PORT
"""

import gc
import sys

import asyncio

from referee.net import page


class App:
    board = {}
    game = None
    gid = ""


class Network:
    state = "up"

    def __init__(self, root):
        self.root = root


async def idle_bytes():
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    await asyncio.sleep_ms(2000)
    after = gc.mem_alloc()
    gc.enable()
    return after - before


async def main():
    alone = await idle_bytes()
    task = asyncio.create_task(page.run(App(), Network(sys.argv[1])))
    await asyncio.sleep_ms(300)  # the server open
    served = await idle_bytes()
    reader, writer = await asyncio.open_connection("127.0.0.1", int(sys.argv[2]))
    writer.write(b"GET /api/state HTTP/1.0\r\n\r\n")
    await writer.drain()
    answer = await reader.read(64)
    print("IDLE", alone, served, answer.split()[1].decode())
    task.cancel()


asyncio.run(main())
