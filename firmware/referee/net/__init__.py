"""The board's network services (a board whose profile has a ``network`` section: the Pico W).

Each service is one module here with ``async def run(app, network)``: ``app`` the referee
(referee.app.Referee), ``network`` the board's network part (its ``state``: ``"off"``,
``"joining"``, ``"up"`` or ``"down"``; ``address()``: the board's IP address or None;
``root``: the prefix of the board's own files, ``""`` on the Pico, so a service's settings
file is ``network.root + "/<name>.json"``). A
service waits for ``state == "up"`` itself and never blocks the loop: every socket call is
non-blocking or awaited. ``SERVICES`` names them (profile ``network.services``), as
``rules.RULESETS`` names the rulesets: a board imports only the services its profile lists.
"""

# service name -> module under referee.net
SERVICES = (
    ("mqtt", "mqtt"),  # the tournament broker (docs/mqtt.md section 5)
    ("page", "page"),  # the spectator page (docs/board-page.md)
)
