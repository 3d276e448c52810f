"""Roster ability texts the rules do not read (docs/rosters.md): an ``abilities`` text that
names a rule one of the ruleset's stats enforces, on a ship without that stat, is only words
for the players. ``warnings`` lists them (``fleetref roster check``; the referee sends each as
an ``err`` line with ``src`` ``roster`` after the ``game`` line when such a game is loaded).
Each ruleset's table is its ``ABILITY_STATS``: (lower-case keyword, stat name) pairs."""


def warnings(rules, norm):
    """Lines (list of str), one per distinct ability text that names a stat its ship lacks,
    naming the first such ship and the stat it probably means."""
    table = rules.ABILITY_STATS
    out = []
    seen = []
    if not table:
        return out
    for side in norm["sides"]:
        for s in side["ships"]:
            st = s.get("stats") or {}
            for text in st.get("abilities") or ():
                low = text.lower()
                for kw, stat in table:
                    if kw in low and stat not in st and (text, stat) not in seen:
                        seen.append((text, stat))
                        out.append(
                            '%s: ability "%s" is text only and nothing enforces it: '
                            'give the stat "%s" (docs/rosters.md)' % (s["name"], text, stat)
                        )
                        break
    return out


def send(app, rules, norm):
    """Each warning as an ``err`` line (``src`` ``roster``) and on the error row, after the
    ``game`` line of a game just loaded; nothing for a ruleset without a table."""
    if rules.ABILITY_STATS:
        for w in warnings(rules, norm):
            app.error(w, "roster")
