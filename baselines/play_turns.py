"""Times the turns of `ply play boxes` driven through a pipe: each move is written as soon as the
prompt `> ` shows (so ply ponders nothing: the worst case), and the turn is the time from the move
to the next prompt (the grade of the move, ply's reply and every further move of it). Moves are
tried in a fixed order over the board's edges; a move already drawn is refused at once and skipped.

    python3 baselines/play_turns.py target/release/ply 3s 8 4     # 8 turns of 4×4, --think 3s
    python3 baselines/play_turns.py target/release/ply 3s 5 5     # 5 turns of 5×5
"""
import subprocess, sys, time, statistics
bin_, think, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = sys.argv[4] if len(sys.argv) > 4 else "4"
cands = []
W = int(rows) + 1
for r in range(W):
    for c in range(W - 1):
        d = r * W + c + 1
        cands.append(f"{d}-{d+1}")
for r in range(W - 1):
    for c in range(W):
        d = r * W + c + 1
        cands.append(f"{d}-{d+W}")
# spread: interleave
order = cands[::3] + cands[1::3] + cands[2::3]
p = subprocess.Popen([bin_, "play", "boxes", "--rows", rows, "--cols", rows, "--think", think, "--seed", "1"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def until_prompt():
    buf = b""
    while not buf.endswith(b"> "):
        ch = p.stdout.read(1)
        if not ch:
            break
        buf += ch
    return buf.decode()
out = until_prompt()
times = []
for mv in order:
    if len(times) >= n:
        break
    t = time.monotonic()
    p.stdin.write((mv + "\n").encode()); p.stdin.flush()
    out = until_prompt()
    dt = time.monotonic() - t
    if "(you) plays" in out:
        lines = [l for l in out.splitlines() if "plays" in l]
        times.append(dt)
        print(f"{dt:6.2f} s  " + " | ".join(lines), flush=True)
    if "Game over" in out:
        break
p.stdin.write(b"quit\n"); p.stdin.flush(); p.wait()
print("turns", len(times), "median", round(statistics.median(times), 2), "max", round(max(times), 2))
