"""Per-striker settings: edit ID before flashing each striker (see hardware_docs/firmware.md)."""

ID = "s1"  # must match a key of the table config's [strikers] section, e.g. s1 = 1
BASE_MAC = b"\xff\xff\xff\xff\xff\xff"  # broadcast; put the base station's MAC here to pair
CHANNEL = 1  # Wi-Fi channel shared with the base station

I2C_SDA = 8  # ESP32-C3 SuperMini: MPU6050 SDA
I2C_SCL = 9  # MPU6050 SCL
MPU_INT = 3  # MPU6050 INT → deep-sleep wake (C3: only GPIO0-5 can wake from deep sleep)
BAT_ADC = 0  # battery via 100k/100k divider → GPIO0 (ADC1_CH0)
BAT_DIVIDER = 2.0

RATE_HZ = 1000
THRESHOLD_G = 2.5
REFRACTORY_MS = 120
PEAK_WINDOW_MS = 8
HB_INTERVAL_MS = 500
IDLE_SLEEP_MS = 300000  # 5 minutes without a hit → deep sleep until the striker moves
WAKE_MOTION_MG = 160  # MPU6050 motion threshold for wake-up (2 mg/LSB → register value 80)
WAKE_POLL_MS = 2000  # only if this MicroPython build has no GPIO deep-sleep wake: timed wake-ups
