"""The serial commands of the board's Wi-Fi credentials (docs/protocol.md): ``wifi-set``
stores the SSID and password in the network's own file on the flash (/wifi.json, never the
game journal) and ``wifi`` says the link's state. Neither answer, nor any refusal, carries
the password. Run by link.SerialLink (the handler of ``roster-put``, ``wifi-set``, ``wifi``)."""


def command(ref, c, msg):
    """``c`` (``"wifi-set"`` or ``"wifi"``) from host message ``msg`` for ``ref``
    (app.Referee): answers one ``wifi`` line ``{"t": "wifi", "state", "ssid", "address"}``.
    ValueError (one line, nothing changed) for a board without a network or bad
    credentials (net.check_credentials); OSError from the flash."""
    net = ref.network  # (link.py asks only on a board with one)
    if c == "wifi-set":
        from referee.net import check_credentials, write_settings

        ssid = msg.get("ssid")
        password = msg.get("password", "")
        check_credentials(ssid, password)
        if net.path is not None:
            write_settings(net.path, ssid, password)
        net.configure(ssid, password)
    settings = net.settings
    ref._out(
        {
            "t": "wifi",
            "state": net.state,
            "ssid": settings.get("ssid") if settings else None,
            "address": net.address(),
        }
    )
