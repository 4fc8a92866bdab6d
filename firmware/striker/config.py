"""Striker settings. The same file fits every striker: pairing happens from the host's panel.

See hardware_docs/firmware.md ("Pairing", "Which pin may carry INT") before changing pins.
"""

ID = None  # None: "st-" + the last 6 hex digits of the board's MAC (e.g. "st-1a2b3c"); or e.g. "s1"
CHANNEL = 1  # Wi-Fi channel shared with the base station

I2C_SDA = 8  # ESP32-C3 SuperMini: MPU-6050 SDA
I2C_SCL = 9  # MPU-6050 SCL
# MPU-6050 INT → deep-sleep wake. ESP32-C3: only GPIO0-5 can wake from deep sleep; GPIO0 is the
# battery ADC here and GPIO2 is a strapping pin, so use 3 (default), 1, 4 or 5.
MPU_INT = 3
BAT_ADC = 0  # battery via 100k/100k divider → GPIO0 (ADC1_CH0)
BAT_DIVIDER = 2.0

RATE_HZ = 1000
THRESHOLD_G = 2.5  # the default; the host tunes it from the bring-up page (stored in settings.json)
REFRACTORY_MS = 120
PEAK_WINDOW_MS = 8
HB_INTERVAL_MS = 500
# Sleep between turns (hardware_docs/firmware.md "Power": >= 8 h of play on a 250 mAh cell): deep sleep
# IDLE_SLEEP_MS after the last hit or hand motion, but never sooner than AWAKE_MIN_MS after a wake
IDLE_SLEEP_MS = 3000
AWAKE_MIN_MS = 6000  # a pick-up wakes it: this long to aim, even holding it perfectly still
MOTION_G = 0.05  # high-passed |a| that means "in a hand" (a striker on the table reads ~0.01 g)
LOW_BATTERY_V = 3.8  # below this its sleep frames say why="low_battery" (the Pi's [striker] low_battery_v)
WAKE_MOTION_MG = 160  # MPU-6050 motion threshold for wake-up (2 mg/LSB → register value 80)
WAKE_POLL_MS = 2000  # only if this MicroPython has no GPIO deep-sleep wake (< 1.27 on the C3): timed polls
WDT_MS = 5000  # hardware watchdog: fed only while samples arrive; a hung or broken loop resets the board
VERTICAL_MAX = 0.8  # a spike pointing within 37° of gravity is setting the striker down, not a strike
