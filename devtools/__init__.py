"""Tools for fleetref's developers, not shipped in the `fleetref` package: damage injected on
purpose into a journal (``faults``, ``faults_emu``, ``flashsim``), the pictures in docs/ taken
in headless Chromium or drawn by the report's code (``webshots``, ``dashshot``,
``reportpicture``), and the stock route's mip package (``mip_package``). Run them from the
checkout: ``.venv/bin/python -m devtools.webshots --out docs``."""
