"""What players and spectators see: the terminal views (simulator, mirror, replay), the web page and its feed (static/ holds the page's files)."""
