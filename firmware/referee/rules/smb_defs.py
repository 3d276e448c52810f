"""The smb ruleset's numbers (seed 004, ``004_e5d94d5ce87da14f.txt``): its event kinds, weapon
kinds, stat slots, ship kinds, per-ship flags and the ship and game byte slots. Shared by
rules/smb.py and the modules it loads on first use (smb_fire, smb_io, smb_moves,
smb_responses, smb_scenarios), none of which imports smb.py itself."""

from referee.rules.d20 import D20_STATS

EV_POWER = 6  # ship, 0, 0: a full-power move
# EV_MOVE (rules/base.py): ship, mode (1 standard, 2 full power, 3 fighter attack), 0
EV_RESPONSE = 12  # responder, kind (1 countermove, 2 rapid fire; +4 mover ended behind), mover
EV_EXIT = 16  # ship, 1 left by the far table edge / 2 hit the target port
EV_ION = 17  # target, d20 roll, facing: the planetary Ion Cannon

W_CAPITAL = 4
W_HEAVY = 5
W_RAPID = 6
WEAPON_KINDS = ("capital", "heavy", "rapid")

S_BONUS = len(D20_STATS)  # capital, heavy, rapid bonus (255 none)
S_SPEED = S_BONUS + 3
S_KIND = S_BONUS + 4
S_SNUB_DEF = S_BONUS + 5
K_CAPITAL = 1
K_FIGHTER = 2
K_CRUISER = 4
K_NO_SNUB = 8
K_ATTACK_MOVE = 16
K_NO_RAPID = 32
# roster stats that set a bit of a ship's kind byte (seed 004)
SHIP_FLAGS = (
    ("no_snub_damage", K_NO_SNUB),  # snub weapons cannot damage it
    ("fighter_attack_move", K_ATTACK_MOVE),  # it makes the fighter attack move
    ("immune_to_rapid", K_NO_RAPID),  # rapid fire does not affect it
)
TYPES = {"capital": K_CAPITAL, "fighter": K_FIGHTER, "cruiser": K_CRUISER, "ship": 0}

MOVED = 1
POWER = 2  # made a full-power move this round
ATTACK_MOVE = 4  # made the fighter attack move this round
RESPONDED = 8  # a response was taken to this ship's move
ION_NEXT = 16  # hit by the Ion Cannon: cannot move or fire next round
ION_NOW = 32  # ionized this round
EXITED = 64  # left by the far table edge (stays for the game)
CAP_FIRED = 128  # fired its capital weapons this round
ROUND = MOVED | POWER | ATTACK_MOVE | RESPONDED | ION_NOW | CAP_FIRED

B_RAPID_AT = 1  # ship byte: rapid-fire response taken at ship + 1
B_AM_FIRED = 2  # ship byte: attack-move weapons fired (1 heavy, 2 rapid)
B_AM_TARGET = 3  # ship byte: the attack move's target + 1

X_BURSTS = 3  # game byte: Ion Cannon bursts this round
X_LAST = 4  # game byte: the ship that moved last + 1
X_PORT = 5  # game byte: side that hit the target port + 1

MOVING = 1
CAPITAL_PHASE = 2
