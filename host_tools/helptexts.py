"""What ``fleetref COMMAND --help`` says: each command's own description, and the help of the
arguments a command declares without one. Written for players and organisers: what a command
does and what it needs, never how the code is built (host_tools/cli.py puts them in)."""

DESCRIPTIONS = {
    "sim": """Run the referee's firmware on this computer with a virtual board. The LED grid is
drawn in the terminal and the keyboard is the button pad (keys 1234, qwer, asdf, zxcv; with
Shift a key is held). The board's serial end is a pseudo-terminal whose path is the first
line printed (serial: <path>), so fleetref mirror, web and save follow the simulator as they
follow a Pico. With --flash a folder stands for the board's flash: the game in play is kept
there and restored at the next start, as after a power cut.""",
    "mirror": """Follow a board's game live over USB serial (or a simulator's pseudo-terminal):
every event is applied again on this computer with the same rules, and its state hash is
compared with the board's. The view shows the board's grid, the round, the ships, the newest
events and refusals, the link and the hash check, and fits the terminal down to 80x24 (long
lists shrink to "... N more" lines). A lost link is retried; when the board comes back after
a restart, the view says that it restored the game in play. Exit status 3 when this
computer's rules and the board's disagree even after replaying the game from its start.""",
    "demo": """Escape from Hoth (seed 004, Scenario 1) played on a simulated board for three
rounds and explained as it goes: each move of the script is told (what is tried and which
rule of the seed applies), then what the board did or why it refused. It ends with three
commands to try next. With a Pico plugged in, it follows that board instead.""",
    "flash": """Put fleetref on a Pico: by default as fleetref's own MicroPython image (one UF2
file, built by make firmware, with the firmware kept in flash), or on stock MicroPython
(--micropython with --uf2, or a board found running it). --uf2 and
--out write the files without a board; --dry-run shows the plan. docs/build.md tells the
steps.""",
    "save": """Save the game on a board (or simulator) to a file: its whole event log, its
dice record and a snapshot. fleetref load, report, replay, verify and dicestats read that
file.""",
    "load": """Put a saved game (a file of fleetref save or fleetref mirror --log) back onto a
board or simulator; the file is checked event by event first. A board that holds another or
a newer game keeps it, unless --force is given.""",
    "roster": """Custom fleets. roster check FILE validates a roster (JSON or TOML) exactly as
the board will and prints the fleets as the referee sees them; roster push FILE stores it on
a board or simulator, so that it appears in the pad's scenario menu. The format is in
docs/rosters.md.""",
    "wifi": """A Pico W board's Wi-Fi. wifi set --ssid NAME --port PORT stores the network's
name and password on the board, apart from the game (the password is asked without showing
it, or read from stdin, and never printed); wifi status --port PORT says whether the board is
on its network and its address. docs/build.md tells the set-up.""",
    "legend": """A printable legend for a roster, to lay beside the LED panel: one line per
grid row at the panel's LED pitch (1:1 when printed at 100 %), on two strips to cut apart,
so that each ship's name and hit points sit level with its row; the rows of the round, the
phase, refusals, the chart and the dice are named. Below them: the key map, the status LED's
colours and the refusal colour codes. A4, Letter or A3; SVG, or PDF.""",
    "pictures": """Draw the pictures of the documentation from the board's real drawing code:
the screen layout and the key map (PNG), and the build guide with its wiring diagram and key
maps.""",
    "web": """A spectator page and a stream overlay that follow a board or simulator live, over
HTTP (on this computer only, unless --http names another address). The page catches up after
its own connection or the board's link drops. The overlay has a transparent background and
is sized by the query parameters w and h (pixels) and scale. Addresses: / (the page),
/overlay, /api/state, /api/events?since=N and /api/stream.""",
    "verify": """Check every board roll of a saved game (a file of fleetref save or fleetref
mirror --log): each roll is computed again from the secret the board revealed and must match,
and each secret must match the commitment the board published before those rolls. Every roll
that does not match, is not revealed yet or cannot be checked is named. Exit status 0 when
every roll that can be checked matched, 1 when one did not, 2 when the file cannot be read.
docs/dice.md explains how it works.""",
    "dicestats": """Each player's dice in a saved game against a fair die (Pearson's chi-square
test), apart for board dice, physical dice and rolls that cannot be checked. A board roll
taken back by an undo counts (the dice are judged, not the game); a physical entry
corrected by an undo does not. With fewer than 5 expected rolls per face the result is
marked unreliable.""",
    "report": """A battle report of a saved game as one self-contained HTML page: the sides and
fleets, the winner, a plot of each side's hit points per round, the initiative history, a
round-by-round account in sentences, every roll and each player's dice statistics. --csv
writes the events as a table, --png the plot alone. The file is checked first: a bad file is
one line and exit status 2.""",
    "replay": """Play a saved game again, event by event, in the terminal (and on the web page
with --web), checking each event's place in the hash chain, that the rules accept it and the
state hash after it; it stops at the first event that fails and says where. --check plays it
to the end without a terminal and prints a summary (exit status 0: every hash matched, 1: the
file breaks, 2: it cannot be read).""",
    "publish": """Follow a board as fleetref mirror does and publish its game to an MQTT broker
for an organiser's dashboard: every event, and the game's state kept by the broker. A
restarted publisher sends only what the broker lacks. When the broker does not let these
credentials write this table's messages, it says so in one line and stops. Topics and
guarantees: docs/mqtt.md.""",
    "dashboard": """An organiser's live page of every table of an event, fed through an MQTT
broker by each table's fleetref publish: one card per table (round, phase, initiative, each
side's remaining strength, time banks, winner, last activity, warnings) and the results
table, also as /results.csv. After a restart it rebuilds every card from what the broker
kept. docs/mqtt.md.""",
    "tournament": """Set up an MQTT broker for an event of N tables (tournament init): a
Mosquitto password file, an access list (each table may write only its own messages, the
dashboard may only read), a configuration that listens on this computer and one password
file per user for fleetref publish and fleetref dashboard. Passwords are random; the files
the broker reads are readable by its user only. tournament board puts a table's broker
address and credentials on a Pico W, which then publishes its game itself.""",
}

# (command, argument) -> help, for the arguments a command declares without one
ARG_HELP = {
    ("mirror", "baud"): "serial speed in baud (default 115200; USB serial ignores it)",
    ("web", "baud"): "serial speed in baud (default 115200; USB serial ignores it)",
    ("publish", "baud"): "serial speed in baud (default 115200; USB serial ignores it)",
    ("demo", "seed"): "seed of the simulated board's test dice (default 1): the same seed "
    "plays the same game",
    ("save", "file"): "the file to write (JSON)",
    ("load", "file"): "a saved game: a file of fleetref save or fleetref mirror --log",
    ("roster", "roster_cmd"): "check a roster file, or push it onto a board",
    ("wifi", "wifi_cmd"): "set: store the network's name and password; status: ask its state",
    ("tournament", "action"): "what to do (init: write the broker's files; "
    "board: a Pico W's broker settings)",
}
