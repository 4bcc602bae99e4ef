#!/usr/bin/env python3
# Ctrl-C of "framewire run" with a recording UDP camera: sends SIGINT to the CLI JVM after N s
# (default 7), then prints the frames the run counted and each segment's frames and ffprobe errors.
# Needs ffmpeg and tools/target/framewire.jar (mvn -B -q -o -pl tools -am package -DskipTests).
#   python3 scripts/camera-sigint.py 8
import signal, subprocess, socket, time, sys, os, glob, re
s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); port=s.getsockname()[1]; s.close()
import tempfile; work=tempfile.mkdtemp(prefix="framewire-sigint-"); d=work+"/rec"
import shutil; shutil.rmtree(d, ignore_errors=True)
open(""+work+"/g.pbtxt","w").write(f'''
executor {{ name: "camera" num_threads: 1 idle_strategy: PARK }}
output_stream: "cam"
node {{
  name: "cam"
  calculator: "VideoSourceCalculator"
  executor: "camera"
  output_stream: "VIDEO:cam"
  option {{ name: "url" string_value: "udp://127.0.0.1:{port}" }}
  option {{ name: "pixel_format" string_value: "GRAY8" }}
  option {{ name: "record_dir" string_value: "{d}" }}
}}
''')
sender=subprocess.Popen(["ffmpeg","-hide_banner","-loglevel","error","-nostdin","-re","-f","lavfi","-i","testsrc2=size=320x240:rate=30","-c:v","libx264","-preset","ultrafast","-tune","zerolatency","-g","10","-pix_fmt","yuv420p","-f","mpegts",f"udp://127.0.0.1:{port}?pkt_size=1316"],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
signal.signal(signal.SIGINT, signal.SIG_DFL)
root=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
jvm=open(root+"/.mvn/jvm.config").read().split()
run=subprocess.Popen(["java",*jvm,"-jar",root+"/tools/target/framewire.jar","run",""+work+"/g.pbtxt","--no-journal"],stdout=subprocess.PIPE,stderr=subprocess.STDOUT,text=True)
time.sleep(float(sys.argv[1]) if len(sys.argv)>1 else 7)
os.kill(run.pid, signal.SIGINT)
out,_=run.communicate(timeout=60)
sender.kill()
print("exit", run.returncode); print(out[-1500:])
tot=0
for f in sorted(glob.glob(d+"/cam/*")):
    p=subprocess.run(["ffprobe","-v","error","-count_frames","-select_streams","v:0","-show_entries","stream=nb_read_frames","-of","csv=p=0",f],capture_output=True,text=True)
    print(f, os.path.getsize(f), "frames", p.stdout.strip(), "errors:", repr(p.stderr.strip()))
    tot+=int(p.stdout.strip() or 0)
print("recorded total", tot)
