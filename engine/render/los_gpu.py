"""The line of sight on the GPU: ``shaders/los_trace.comp`` runs the same exact traversal as
``engine.world.los`` (a parity test holds them bit for bit). The distance field is uploaded as an R8UI 3D texture
in the grid's own layout (x fastest), which is why the world keeps that layout."""

from __future__ import annotations

import numpy as np

from engine.render.shaders import SHADER_DIR


def load_compute(ctx, name: str):
    return ctx.compute_shader((SHADER_DIR / f"{name}.comp").read_text())


class GpuTracer:
    GROUP = 64

    def __init__(self, ctx, dist_flat: np.ndarray, size):
        self.ctx = ctx
        self.size = tuple(size)
        X, Y, Z = self.size
        self.program = load_compute(ctx, "los_trace")
        self.texture = ctx.texture3d((X, Y, Z), 1, np.ascontiguousarray(dist_flat, dtype=np.uint8).tobytes(),
                                     dtype="u1")
        self.texture.filter = (0x2600, 0x2600)    # GL_NEAREST: integer texture

    @classmethod
    def for_world(cls, ctx, world):
        return cls(ctx, world.los_distance(), world.size)

    def world_changed(self, world, box) -> tuple:
        """The voxels of an inclusive box changed (something broke): upload only the part of the distance field
        that can have changed -- the box grown by the distance cap -- from the world's (patched) field. Returns
        the uploaded region (x0, y0, z0, w, h, d)."""
        from engine.world.los import DIST_CAP

        X, Y, Z = self.size
        (ax, ay, az), (bx, by, bz) = box
        x0, y0, z0 = max(0, ax - DIST_CAP), max(0, ay - DIST_CAP), max(0, az - DIST_CAP)
        x1, y1, z1 = min(X, bx + 1 + DIST_CAP), min(Y, by + 1 + DIST_CAP), min(Z, bz + 1 + DIST_CAP)
        field = world.los_distance().reshape(Z, Y, X)
        sub = np.ascontiguousarray(field[z0:z1, y0:y1, x0:x1], dtype=np.uint8)
        region = (x0, y0, z0, x1 - x0, y1 - y0, z1 - z0)
        self.texture.write(sub.tobytes(), viewport=region)
        return region

    def trace(self, p0: np.ndarray, p1: np.ndarray):
        """Fixed-point segments (int [N, 3], inside the map) -> (blocked bool [N], loop count int [N])."""
        p0 = np.asarray(p0, dtype=np.int64).reshape(-1, 3)
        p1 = np.asarray(p1, dtype=np.int64).reshape(-1, 3)
        n = len(p0)
        if n == 0:
            return np.zeros(0, dtype=bool), np.zeros(0, dtype=np.int32)
        seg = np.zeros((n, 2, 4), dtype=np.int32)
        seg[:, 0, :3] = p0
        seg[:, 1, :3] = p1
        rays = self.ctx.buffer(seg.tobytes())
        out = self.ctx.buffer(reserve=4 * n)
        try:
            rays.bind_to_storage_buffer(0)
            out.bind_to_storage_buffer(1)
            self.texture.use(0)
            self.program["dist"].value = 0
            self.program["n_rays"].value = n
            self.program.run((n + self.GROUP - 1) // self.GROUP)
            res = np.frombuffer(out.read(), dtype=np.uint32)
        finally:
            rays.release()
            out.release()
        return (res & 1).astype(bool), (res >> 1).astype(np.int32)

    def release(self):
        self.texture.release()
        self.program.release()


def bench_gpu(dist_flat, size, q0, q1, reference) -> str:
    """One line for `aerie bench los`: rays/s of the kernel on the given rays, and agreement with numpy."""
    import time

    import moderngl

    # moderngl's stub types each **settings value as a dict; the backend setting is a string
    ctx = moderngl.create_standalone_context(backend="egl", require=430)  # type: ignore[arg-type]
    try:
        gpu = GpuTracer(ctx, dist_flat, size)
        gpu.trace(q0[:1000], q1[:1000])                 # compile and warm up
        t0 = time.perf_counter()
        blocked, _ = gpu.trace(q0, q1)
        dt = time.perf_counter() - t0
        gpu.release()
        return (f"GLSL compute kernel ({ctx.info['GL_RENDERER']}): {len(q0) / dt:,.0f} rays/s; "
                f"identical to numpy on {np.mean(blocked == reference):.4%} of rays")
    finally:
        ctx.release()
