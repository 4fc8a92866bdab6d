"""The one gpiozero pin factory of the process, chosen by ``[gpio] pin_factory`` in the config.

Beams and LEDs must share it: on ``mock`` the virtual table drives the very pins the
:class:`~sensors.beams.BeamBank` reads. The mock factory uses PWM-capable pins so ``PWMLED`` and
``RGBLED`` work on it as well as inputs.
"""

from __future__ import annotations

from typing import Any

FACTORIES = {
    "mock": ("gpiozero.pins.mock", "MockFactory"),
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}


class PinFactoryError(RuntimeError):
    """The configured pin factory cannot be used here; one line saying why."""


def make_pin_factory(name: str) -> Any:
    """Create the factory named in the config (``"mock"`` off a Pi, ``"lgpio"`` on one)."""
    if name not in FACTORIES:
        raise PinFactoryError(f"gpio.pin_factory: unknown factory {name!r} (expected one of: {', '.join(FACTORIES)})")
    module_name, class_name = FACTORIES[name]
    try:
        module = __import__(module_name, fromlist=[class_name])
    except ImportError as exc:
        raise PinFactoryError(
            f"gpio.pin_factory = {name!r} needs the {exc.name or name} package (on a Pi: pip install 'gametable[pi]')"
        ) from None
    if name == "mock":
        from gpiozero.pins.mock import MockPWMPin

        return module.MockFactory(pin_class=MockPWMPin)
    try:
        return getattr(module, class_name)()
    except Exception as exc:  # gpiozero raises assorted errors off a Pi
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PinFactoryError(f"gpio.pin_factory = {name!r} cannot start on this machine: {first}") from None
