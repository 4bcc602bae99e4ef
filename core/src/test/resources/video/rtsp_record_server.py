#!/usr/bin/python3
"""A real RTSP server on 127.0.0.1 that takes a published stream (RTSP RECORD, as ffmpeg's
rtsp muxer sends it) at /rec, for the video sink's tests: GStreamer's RTSP server (Debian:
python3-gi, gir1.2-gst-rtsp-server-1.0, gstreamer1.0-plugins-{base,good}).

    rtsp_record_server.py PORT USER PASSWORD

Prints 'ready PORT' once it listens, then 'frames N' for the 1st, 10th, 20th... H.264 access
unit received. Clients must authenticate (basic). Ends on SIGTERM or when stdin closes."""
import sys, threading, os, signal
import gi
gi.require_version('Gst', '1.0')
gi.require_version('GstRtspServer', '1.0')
from gi.repository import Gst, GstRtspServer, GLib

Gst.init(None)
server = GstRtspServer.RTSPServer()
server.set_address('127.0.0.1')
server.set_service(sys.argv[1])
factory = GstRtspServer.RTSPMediaFactory()
factory.set_transport_mode(GstRtspServer.RTSPTransportMode.RECORD)
factory.set_launch('( rtph264depay name=depay0 ! h264parse ! video/x-h264,alignment=au '
                   '! fakesink name=sink signal-handoffs=true sync=false )')
count = [0]

def on_handoff(*args):
    count[0] += 1
    if count[0] == 1 or count[0] % 10 == 0:
        print('frames', count[0], flush=True)

def on_configure(factory, media):
    media.get_element().get_by_name('sink').connect('handoff', on_handoff)

factory.connect('media-configure', on_configure)
auth = GstRtspServer.RTSPAuth()
token = GstRtspServer.RTSPToken()
token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, 'user')
auth.add_basic(GstRtspServer.RTSPAuth.make_basic(sys.argv[2], sys.argv[3]), token)
server.set_auth(auth)
permissions = GstRtspServer.RTSPPermissions()
permissions.add_permission_for_role('user', 'media.factory.access', True)
permissions.add_permission_for_role('user', 'media.factory.construct', True)
factory.set_permissions(permissions)
server.get_mount_points().add_factory('/rec', factory)
if server.attach(None) == 0:
    print('bind failed', flush=True)
    sys.exit(2)
print('ready', server.get_bound_port(), flush=True)

def watch_stdin():
    try:
        while sys.stdin.buffer.read(1):
            pass
    finally:
        os.kill(os.getpid(), signal.SIGTERM)

threading.Thread(target=watch_stdin, daemon=True).start()
signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
GLib.MainLoop().run()
