#!/usr/bin/env python3
"""First frame of a live UDP MPEG-TS source, ffmpeg alone, per set of input options (issue 37).

Usage: scripts/first-frame-options.py PORT ROUNDS VARIANTS [URL], e.g. 45001 10 base,thr1,flush,fps0,p16,p8,recbase,recp8

With URL (e.g. an RTSP server's rtsp://127.0.0.1:PORT/cam), that is the input and no sender is
started; variant tcp adds -rtsp_transport tcp, udp -rtsp_transport udp.

Starts the camera tests' sender (testsrc2 320x240 30 fps, libx264 ultrafast zerolatency, GOP 10, -re,
MPEG-TS to udp://127.0.0.1:PORT), then per round and variant (interleaved) runs the source's ffmpeg
command (VideoSourceCalculator's, GRAY8, NUT to a pipe) and prints, per run, the ms from spawn to the
first byte on the pipe (NUT header), the ms to a whole 320x240 gray frame, and the first read's size.
Variants (combinable in a name): thr1 -threads 1 (decoder), flush -flush_packets 1, fps0 -fpsprobesize 0,
p16 / p8 -probesize 16384 / 8192 (instead of 32768), rec a stream-copied fragmented MP4 beside it
(as a recording). A run with no frame within 6 s prints MISS and ffmpeg's last words.
"""
import subprocess, time, os, sys, select, tempfile
port = int(sys.argv[1]); rounds = int(sys.argv[2]); names = sys.argv[3].split(',')
URL = sys.argv[4] if len(sys.argv) > 4 else "udp://127.0.0.1:%d" % port
REC = os.path.join(tempfile.mkdtemp(prefix="first-frame-"), "rec.mp4")
FRAME = 320*240
def cmd(v):
    inp = ["-fflags","nobuffer","-flags","low_delay","-probesize","32768","-analyzeduration","200000"]
    out = []
    if 'thr1' in v: inp = ["-threads","1"] + inp
    if 'tcp' in v: inp += ["-rtsp_transport","tcp"]
    if 'udp' in v: inp += ["-rtsp_transport","udp"]
    if 'fps0' in v: inp += ["-fpsprobesize","0"]
    if 'p16' in v: inp[inp.index("-probesize")+1] = "16384"
    if 'p8' in v: inp[inp.index("-probesize")+1] = "8192"
    if 'flush' in v: out += ["-flush_packets","1"]
    rec = []
    if 'rec' in v: rec = ["-map","0:v:0","-c","copy","-f","mp4","-movflags","frag_keyframe+empty_moov+default_base_moof","-y",REC]
    return (["ffmpeg","-hide_banner","-nostdin","-nostats","-loglevel","warning"] + inp +
        ["-copyts","-i",URL] + rec + ["-map","0:v:0","-an","-sn","-dn","-autoscale","0",
         "-enc_time_base:v","-1","-fps_mode","passthrough","-c:v","rawvideo","-pix_fmt","gray"] + out + ["-f","nut","pipe:1"])
sender = None if len(sys.argv) > 4 else subprocess.Popen(["ffmpeg","-hide_banner","-loglevel","error","-nostdin","-re","-f","lavfi","-i","testsrc2=size=320x240:rate=30",
  "-c:v","libx264","-preset","ultrafast","-tune","zerolatency","-g","10","-pix_fmt","yuv420p","-f","mpegts","udp://127.0.0.1:%d?pkt_size=1316"%port])
time.sleep(1.5)
res = {n: [] for n in names}
for r in range(rounds):
    for n in names:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd(n), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        fd = p.stdout.fileno(); cum = 0; tf = None; tfr = None; first = 0
        while time.monotonic() - t0 < 6:
            rr,_,_ = select.select([fd],[],[],0.05)
            if not rr: continue
            b = os.read(fd, 1<<20)
            if not b: break
            now = time.monotonic()
            if tf is None: tf = now; first = len(b)
            cum += len(b)
            if cum >= FRAME + 64 and tfr is None: tfr = now; break
        p.kill(); err = p.stderr.read().decode()[-200:]; p.wait()
        res[n].append((round((tf-t0)*1000) if tf else None, round((tfr-t0)*1000) if tfr else None, first))
        if 'matches no' in err or tfr is None: print(n, "MISS", err.strip())
        time.sleep(0.3)
if sender: sender.kill()
for n in names: print(n, res[n])
