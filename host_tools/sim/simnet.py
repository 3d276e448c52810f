"""The simulated board's Wi-Fi: what a board profile with a ``network`` section runs in
``fleetref sim`` (the firmware's contract, referee/net; imported only for such a board)."""

from referee.net import Network, read_settings


class SimNetwork(Network):
    """The simulated board's network (a profile with a ``network`` section): off until it has
    credentials (``wifi-set``; kept in ``path``, the flash folder's wifi.json, when the
    simulator has one), then up at the laptop's own address, 127.0.0.1, so the services a
    profile names can run on the laptop."""

    def __init__(self, path=None):
        self.path = path
        self.creds = read_settings(path) if path else None
        if self.creds is not None:
            self.settings = {"ssid": self.creds[0]}

    def configure(self, ssid, password):
        self.creds = (ssid, password)
        self.settings = {"ssid": ssid}

    @property
    def state(self):  # pyright: ignore[reportIncompatibleVariableOverride]  (read-only here)
        return "up" if self.creds is not None else "off"

    def address(self):
        return "127.0.0.1" if self.creds is not None else None

    @property
    def octets(self):  # pyright: ignore[reportIncompatibleVariableOverride]  (read-only here)
        return bytes((127, 0, 0, 1)) if self.creds is not None else b""
