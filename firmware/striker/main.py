"""Striker entry point (copied to the board as main.py); everything is in striker_app.py."""

import striker_app

striker_app.main()
