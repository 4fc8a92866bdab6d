#!/bin/sh
# Create the Mosquitto password file for the game table's users (daemon, panel, viewer).
# Usage: sudo sh make-passwords.sh [/etc/mosquitto/gametable.passwd]
# Prints the random passwords once: put them in the table's config.toml
#   [mqtt]  username = "daemon"  password = "..."
#   [panel] mqtt_username = "panel"  mqtt_password = "..."
# and the viewer's into a scoreboard or TV screen (read-only public topics).
set -eu
FILE=${1:-/etc/mosquitto/gametable.passwd}
gen() { head -c 18 /dev/urandom | base64 | tr -d '/+=' ; }
DAEMON_PW=$(gen)
PANEL_PW=$(gen)
VIEWER_PW=$(gen)
umask 077
# plain "user:password" lines hashed in place (-U): the passwords never appear on a command line
printf 'daemon:%s\npanel:%s\nviewer:%s\n' "$DAEMON_PW" "$PANEL_PW" "$VIEWER_PW" > "$FILE"
mosquitto_passwd -U "$FILE"
if id mosquitto >/dev/null 2>&1; then chown mosquitto: "$FILE" 2>/dev/null || true; fi
echo "wrote $FILE"
echo "[mqtt]  username = \"daemon\"  password = \"$DAEMON_PW\""
echo "[panel] mqtt_username = \"panel\"  mqtt_password = \"$PANEL_PW\""
echo "viewer (screens, read-only): username \"viewer\"  password \"$VIEWER_PW\""
