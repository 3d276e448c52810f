"""Run on MicroPython's unix port (tests/mqtt/test_mqtt_board.py): the MQTT publisher's loop
(referee.net.mqtt.Publisher.follow) while the game has no news for the broker, with the heap
counted before and after a second of it, the collector off. Prints one JSON line:
``{"ticks": N, "allocated": bytes}``; a ``busy`` argument gives the game news, so the
count must grow (the measure can fail)."""

import gc
import json
import sys

import asyncio

from referee.net import mqtt
from referee.ticks import ticks_add, ticks_ms


class Network:
    state = "up"


class Game:
    seq = 3
    base_seq = 0


class App:
    gid = "0000abcd"
    game = Game()


class Counting(mqtt.Publisher):
    def news(self, now):
        self.ticks += 1
        return mqtt.Publisher.news(self, now)

    async def catch_up(self, now):
        self.caught += 1


BUSY = len(sys.argv) > 1 and sys.argv[1] == "busy"


async def main():
    cfg = {"host": "127.0.0.1", "port": 1, "event": "e", "table": "t"}
    pub = Counting(App(), cfg)
    pub.ticks = pub.caught = 0
    pub.acked = pub.sent = 3
    pub.state_seq = -1 if BUSY else 3  # busy: a state to send, every tick
    pub.sessions = 1
    pub.sent_at = ticks_add(ticks_ms(), 60000)  # no keep-alive ping in this second
    task = asyncio.create_task(pub.follow(Network()))
    await asyncio.sleep_ms(400)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    start = pub.ticks
    await asyncio.sleep_ms(1000)
    allocated = gc.mem_alloc() - before
    ticks = pub.ticks - start
    gc.enable()
    task.cancel()
    print(json.dumps({"ticks": ticks, "allocated": allocated, "caught": pub.caught}))


asyncio.run(main())
