"""The camera observer's vision core (docs/camera.md, CAM-1…CAM-5): game-free.

``recording`` reads and writes the ``gametable-strike/1`` format, ``calibration`` turns the four
ArUco markers into the image→table homography, ``tracking`` follows coins through a strike's frames.
Nothing here knows a game's rules (a game reads the observations in its own package)
and nothing imports ``controller``: ``sensors`` sits below it. Needs the ``[camera]`` extra
(OpenCV, numpy); import these modules only where a camera is configured.
"""
