#!/usr/bin/python3
"""A real RTSP server on 127.0.0.1 for the video tests: GStreamer's RTSP server (Debian:
python3-gi, gir1.2-gst-rtsp-server-1.0, gstreamer1.0-plugins-{base,good,ugly}) serving a test
pattern encoded as H.264 at /cam, over TCP and UDP transport.

    rtsp_server.py PORT [USER PASSWORD]

Prints 'ready PORT' on stdout once it listens. With USER and PASSWORD, clients must give them
(basic auth). Ends on SIGTERM or when stdin closes (so it dies with the test JVM)."""
import sys, threading, os, signal
import gi
gi.require_version('Gst', '1.0')
gi.require_version('GstRtspServer', '1.0')
from gi.repository import Gst, GstRtspServer, GLib

Gst.init(None)
port = sys.argv[1]
server = GstRtspServer.RTSPServer()
server.set_address('127.0.0.1')
server.set_service(port)
factory = GstRtspServer.RTSPMediaFactory()
factory.set_launch('( videotestsrc is-live=true pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1 '
                   '! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=10 ! rtph264pay name=pay0 pt=96 )')
factory.set_shared(True)
if len(sys.argv) > 3:
    auth = GstRtspServer.RTSPAuth()
    token = GstRtspServer.RTSPToken()
    token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, 'user')
    auth.add_basic(GstRtspServer.RTSPAuth.make_basic(sys.argv[2], sys.argv[3]), token)
    server.set_auth(auth)
    permissions = GstRtspServer.RTSPPermissions()
    permissions.add_permission_for_role('user', 'media.factory.access', True)
    permissions.add_permission_for_role('user', 'media.factory.construct', True)
    factory.set_permissions(permissions)
server.get_mount_points().add_factory('/cam', factory)
if server.attach(None) == 0:
    print('bind failed', flush=True)
    sys.exit(2)
loop = GLib.MainLoop()
print('ready', server.get_bound_port(), flush=True)

def watch_stdin():
    try:
        while sys.stdin.buffer.read(1):
            pass
    finally:
        os.kill(os.getpid(), signal.SIGTERM)

threading.Thread(target=watch_stdin, daemon=True).start()
signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
loop.run()
