"""Streaming video output: frames go to ffmpeg one at a time (never a list of frames), with a progress bar."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from engine import console
from engine.errors import AerieError
from engine.extras import require

VIDEO_EXTS = (".mp4", ".gif")


def check_output(path: str, exts, inputs=(), what: str = "-o") -> Path:
    """The output path, checked before any work (engine.outputs: extension, folder, not an input)."""
    from engine.outputs import check_output_path

    return check_output_path(path, exts, inputs, what=what)


class VideoWriter:
    """``with VideoWriter(path, size, fps) as w: w.write(frame)`` -- mp4 (H.264, yuv420p) or gif (a palette per
    frame), encoded by the ffmpeg that imageio-ffmpeg ships, fed frame by frame through a pipe."""

    def __init__(self, path, size, fps: int):
        require("imageio_ffmpeg", what="video output")
        import imageio_ffmpeg

        self.path = Path(path)
        self.size = tuple(size)
        w, h = self.size
        if self.path.suffix.lower() == ".gif":
            kw = dict(codec="gif", pix_fmt_out="pal8", macro_block_size=1,
                      output_params=["-filter_complex", "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1"])
        else:
            if w % 2 or h % 2:
                raise AerieError(f"an mp4 needs an even width and height, got {w}x{h}")
            kw = dict(codec="libx264", pix_fmt_out="yuv420p", quality=None, macro_block_size=2,
                      output_params=["-crf", "20", "-preset", "veryfast", "-movflags", "+faststart"])
        try:
            self._gen = imageio_ffmpeg.write_frames(str(self.path), self.size, fps=fps, ffmpeg_log_level="error", **kw)
            self._gen.send(None)
        except Exception as e:  # noqa: BLE001
            raise AerieError(f"{path}: cannot start the video encoder: {e}") from None
        self.frames = 0

    def write(self, frame: np.ndarray):
        self._gen.send(np.ascontiguousarray(frame, dtype=np.uint8))
        self.frames += 1

    def close(self):
        if self._gen is not None:
            self._gen.close()
            self._gen = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Progress:
    """Progress on stderr: an animated one-line bar on a terminal; elsewhere (a log file, a pipe) one line per
    milestone (every quarter); nothing with ``aerie --quiet``."""

    MILESTONES = (0.25, 0.5, 0.75, 1.0)

    def __init__(self, total: int, label: str = "", stream=None):
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self._last = -1.0
        self.silent = console.quiet()
        self.animate = not self.silent and console.is_terminal(self.stream)
        self._next = 0           # the next milestone to report (non-terminal output)
        self._open = False       # a bar line is on screen without its newline

    def update(self, done: int):
        if self.silent:
            return
        now = time.perf_counter()
        frac = min(done / self.total, 1.0)
        el = now - self.t0
        if not self.animate:
            if self._next < len(self.MILESTONES) and frac >= self.MILESTONES[self._next]:
                while self._next < len(self.MILESTONES) and frac >= self.MILESTONES[self._next]:
                    self._next += 1
                self.stream.write(f"{self.label}: {frac:4.0%} ({done}/{self.total} frames, {el:.1f} s)\n")
                self.stream.flush()
            return
        if done < self.total and now - self._last < 0.2:
            return
        self._last = now
        bar = "#" * int(frac * 30)
        eta = el / frac - el if frac > 0 else 0.0
        self.stream.write(f"\r{self.label} [{bar:<30}] {done}/{self.total} frames, {el:5.1f} s, eta {eta:5.1f} s ")
        self.stream.flush()
        self._open = True

    def done(self):
        self.update(self.total)
        self._end_line()

    def _end_line(self):
        if self._open:
            self.stream.write("\n")
            self.stream.flush()
            self._open = False

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is not None:      # end the bar's line so the error reads on its own line
            self._end_line()
