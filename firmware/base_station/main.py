"""Base station entry point (copied to the board as main.py); everything is in base_app.py."""

import base_app

base_app.main()
