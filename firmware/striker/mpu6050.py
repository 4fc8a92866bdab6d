"""Minimal MPU6050 access for the striker: ±16 g at 1 kHz, and motion wake-up before deep sleep."""

import struct

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
LSB_PER_G = 2048.0  # at ±16 g


class MPU6050:
    def __init__(self, i2c, addr=ADDR):
        self.i2c = i2c
        self.addr = addr
        self._buf = bytearray(6)
        self._w(PWR_MGMT_1, 0x01)  # wake (also leaves cycle mode after a deep sleep), PLL clock
        self._w(PWR_MGMT_2, 0x00)  # all axes on
        self._w(CONFIG, 0x00)  # DLPF off: accel bandwidth 260 Hz, output rate 1 kHz
        self._w(SMPLRT_DIV, 0x00)  # 1 kHz / (1 + 0)
        self._w(ACCEL_CONFIG, 0x18)  # ±16 g: a flick saturates ±8 g

    def _w(self, reg, value):
        self.i2c.writeto_mem(self.addr, reg, bytes([value]))

    def accel_g(self):
        """(x, y, z) in g."""
        self.i2c.readfrom_mem_into(self.addr, ACCEL_XOUT_H, self._buf)
        x, y, z = struct.unpack(">hhh", self._buf)
        return x / LSB_PER_G, y / LSB_PER_G, z / LSB_PER_G

    def arm_motion_wake(self, threshold_mg):
        """Raise INT (active high, latched) on motion so deep sleep ends when the striker is picked up.

        Motion detection works on the MPU's internal high-passed data (DHPF 5 Hz), so gravity and a
        resting tilt do not count; the data registers stay unfiltered.
        """
        self._w(ACCEL_CONFIG, 0x18 | 0x01)  # ±16 g, DHPF 5 Hz for the motion detector
        self._w(MOT_THR, max(1, min(255, threshold_mg // 2)))
        self._w(MOT_DUR, 1)
        self._w(INT_PIN_CFG, 0x20)  # latch until read
        self._w(INT_ENABLE, 0x40)  # motion interrupt only
        # accelerometer-only low-power cycle mode while the ESP32 sleeps: wake 5 times a second
        # to check for motion (tens of µA instead of ~4 mA), gyros in standby
        self._w(PWR_MGMT_2, 0x47)  # LP_WAKE_CTRL=5 Hz, STBY_XG|YG|ZG
        self._w(PWR_MGMT_1, 0x28)  # CYCLE=1, TEMP_DIS=1, internal oscillator

    def motion_latched(self):
        """True if the motion interrupt fired since the last read (reading clears the latch)."""
        status = self.i2c.readfrom_mem(self.addr, INT_STATUS, 1)[0]
        return bool(status & 0x40)
