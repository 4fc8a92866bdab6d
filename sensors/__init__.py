"""Real drivers: lgpio/gpiozero beams, the striker serial link, PWM seat LEDs, the hardware check."""
