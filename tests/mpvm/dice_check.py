# Run inside real MicroPython (tests/emu/test_dice_mpvm.py): the committed dice of dice.py.
import json
from referee.dice import derive, commitment, Fair, Dice

spec = json.load(open("/data.json"))
secret = bytes(spec["secret"])
out = {"commit": commitment(secret), "rolls": []}
for seq, ent, faces, n in spec["cases"]:
    out["rolls"].append(derive(secret, seq, ent, faces, n))


class Stub:  # what Fair reads of the app: game.seq, gid, send
    gid = "g1"

    def __init__(self):
        self.lines = []

    def send(self, line):
        self.lines.append(line)


class G:
    seq = 0

    def winner(self):
        return None


app = Stub()
app.game = G()
app.dice = Dice(Fair(5))
f = app.dice.source
f.app = app
f.stir(12345)
d = [app.dice.d20(), app.dice.d20()]
app.game.seq = 1
f.on_event(app, 1)
f.reveal(app)
hello = {}
f.hello_fields(hello)  # the commitment and boot a reconnecting host learns
out["fair"] = {"dice": d, "lines": app.lines, "hello": hello}
print("RESULT " + json.dumps(out))
