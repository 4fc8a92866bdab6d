"""The virtual camera (docs/camera.md, CAM-5): what a camera above the virtual table would see.

``rig.CameraRig`` is the mount and sensor; ``render.Renderer`` draws frames from coin positions;
``record.record_strike`` runs one flick of the pymunk physics and renders it as a
``gametable-strike/1`` recording with the physics' truth beside it.
"""
