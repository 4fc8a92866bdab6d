"""Minimal MPU-6050 access for the striker: ±16 g at 1 kHz, and the motion interrupt for deep sleep.

Constructing the object touches nothing: after a deep-sleep wake the striker must read the
motion latch *before* writing any register, because leaving cycle mode or rewriting
ACCEL_CONFIG restarts the motion detector's high-pass filter and the evidence is gone.
"""

import struct
import time

ADDR = 0x68
PWR_MGMT_1 = 0x6B
PWR_MGMT_2 = 0x6C
SMPLRT_DIV = 0x19
CONFIG = 0x1A
ACCEL_CONFIG = 0x1C
MOT_THR = 0x1F
MOT_DUR = 0x20
INT_PIN_CFG = 0x37
INT_ENABLE = 0x38
INT_STATUS = 0x3A
ACCEL_XOUT_H = 0x3B
WHO_AM_I = 0x75
LSB_PER_G = 2048.0  # at ±16 g
MOT_INT = 0x40  # INT_ENABLE / INT_STATUS bit of the motion interrupt

# the register values of "armed for wake-up"; is_armed() compares against exactly these
AWAKE_ACCEL_CONFIG = 0x18  # ±16 g, high-pass filter off: the data registers stay raw
ARMED_ACCEL_CONFIG = 0x18 | 0x01  # ±16 g, DHPF 5 Hz for the motion detector
ARMED_INT_PIN_CFG = 0x20  # active high, push-pull, latched until INT_STATUS is read
ARMED_PWR_MGMT_2 = 0x47  # LP_WAKE_CTRL = 5 Hz, gyros in standby
ARMED_PWR_MGMT_1 = 0x28  # CYCLE = 1, TEMP_DIS = 1, internal oscillator
SETTLE_MS = 100  # let the 5 Hz high-pass settle (3 time constants) before cycle mode


def motion_threshold(threshold_mg):
    """MOT_THR register value: 2 mg per LSB (an 80 is 160 mg)."""
    return max(1, min(255, threshold_mg // 2))


class MPU6050:
    def __init__(self, i2c, addr=ADDR):
        self.i2c = i2c
        self.addr = addr
        self._buf = bytearray(6)

    def _w(self, reg, value):
        self.i2c.writeto_mem(self.addr, reg, bytes([value]))

    def _r(self, reg):
        return self.i2c.readfrom_mem(self.addr, reg, 1)[0]

    def start(self):
        """Full power, ±16 g at 1 kHz, no interrupt while awake (a latched INT would wake us at once)."""
        who = self._r(WHO_AM_I)
        if who not in (0x68, 0x72, 0x98):  # MPU-6050, clones that answer 0x72/0x98
            raise OSError(f"MPU-6050 not found (WHO_AM_I 0x{who:02x})")
        self._w(PWR_MGMT_1, 0x01)  # wake, leave cycle mode, PLL with X gyro as clock
        self._w(PWR_MGMT_2, 0x00)  # all axes on
        self._w(INT_ENABLE, 0x00)
        self._w(CONFIG, 0x00)  # DLPF off: accel bandwidth 260 Hz, output rate 1 kHz
        self._w(SMPLRT_DIV, 0x00)  # 1 kHz / (1 + 0)
        self._w(ACCEL_CONFIG, AWAKE_ACCEL_CONFIG)  # ±16 g: a flick saturates ±8 g
        self._r(INT_STATUS)  # clear a latch left from the sleep

    def accel_g(self):
        """(x, y, z) in g."""
        self.i2c.readfrom_mem_into(self.addr, ACCEL_XOUT_H, self._buf)
        x, y, z = struct.unpack(">hhh", self._buf)
        return x / LSB_PER_G, y / LSB_PER_G, z / LSB_PER_G

    def motion_latched(self):
        """True if the motion interrupt fired since the last read (a read only; it clears the latch)."""
        return bool(self._r(INT_STATUS) & MOT_INT)

    def is_armed(self, threshold_mg):
        """True if every register of the wake-up setup still holds (reads only: the filter keeps running)."""
        want = ((PWR_MGMT_1, ARMED_PWR_MGMT_1), (PWR_MGMT_2, ARMED_PWR_MGMT_2), (INT_ENABLE, MOT_INT),
                (INT_PIN_CFG, ARMED_INT_PIN_CFG), (ACCEL_CONFIG, ARMED_ACCEL_CONFIG),
                (MOT_THR, motion_threshold(threshold_mg)))
        for reg, value in want:
            if self._r(reg) != value:
                return False
        return True

    def arm_motion_wake(self, threshold_mg):
        """Raise INT (active high, latched) on motion, then drop to the accelerometer's cycle mode.

        Motion detection works on the MPU's internal high-passed data (DHPF 5 Hz), so gravity and a
        resting tilt do not count. The filter settles at full rate first, and the latch is cleared
        last, so the transient of switching it on cannot wake the striker straight away.
        """
        self._w(ACCEL_CONFIG, ARMED_ACCEL_CONFIG)
        self._w(MOT_THR, motion_threshold(threshold_mg))
        self._w(MOT_DUR, 1)
        self._w(INT_PIN_CFG, ARMED_INT_PIN_CFG)
        self._w(INT_ENABLE, MOT_INT)
        time.sleep_ms(SETTLE_MS)
        # accelerometer-only low-power cycle mode while the ESP32 sleeps: wakes 5 times a second
        # to look for motion (about 20 µA instead of 3.9 mA)
        self._w(PWR_MGMT_2, ARMED_PWR_MGMT_2)
        self._w(PWR_MGMT_1, ARMED_PWR_MGMT_1)
        self._r(INT_STATUS)
