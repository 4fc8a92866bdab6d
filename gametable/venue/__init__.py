"""A venue of tables (docs: hardware_docs/multi_table.md, README "Run a venue").

Each table's own Mosquitto bridges its public topics into one venue broker (``setup``: both sides'
bridge, password and ACL files); the venue service subscribes there, keeps every finished game in
a database (``store``), rates the players (``ratings``) and serves the venue board (``board``).
The venue only reads public topics: no seat's private view and no ``cmd`` is ever bridged.
"""
