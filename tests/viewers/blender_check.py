"""Open an `aerie export` .glb in Blender headless: objects, triangles, bounds, materials, images, and a still.

    blender -b --python tests/viewers/blender_check.py -- scene.glb still.png   (Debian: apt-get install blender)

Not run by the test suite (CI has no Blender); docs/interop.md gives what it printed."""
import sys

import bpy
import mathutils
import numpy

if not hasattr(numpy, "bool"):
    setattr(numpy, "bool", bool)    # Blender 3.4's glTF importer uses numpy.bool, gone since numpy 1.24

argv = sys.argv[sys.argv.index("--") + 1:]
glb, png = argv[0], argv[1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=glb)
tris = meshes = 0
lo = mathutils.Vector((1e9,) * 3)
hi = -lo
for ob in bpy.context.scene.objects:
    if ob.type != "MESH":
        continue
    meshes += 1
    ob.data.calc_loop_triangles()
    tris += len(ob.data.loop_triangles)
    for v in ob.bound_box:
        w = ob.matrix_world @ mathutils.Vector(v)
        lo = mathutils.Vector(map(min, lo, w))
        hi = mathutils.Vector(map(max, hi, w))
print("BLENDER objects", len(bpy.context.scene.objects), "meshes", meshes, "triangles", tris)
print("BLENDER bounds (Blender Z up)", tuple(round(c, 3) for c in lo), tuple(round(c, 3) for c in hi))
print("BLENDER materials", sorted(m.name for m in bpy.data.materials))
print("BLENDER images", [(i.name, tuple(i.size)) for i in bpy.data.images])

# a still (EEVEE): a camera south of the map looking north and down, a sun
scene = bpy.context.scene
c = (lo + hi) / 2
size = max(hi.x - lo.x, hi.y - lo.y)
cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
scene.collection.objects.link(cam)
cam.location = (c.x, lo.y - 0.6 * size, c.z + 0.9 * size)
cam.rotation_euler = (c - cam.location).to_track_quat("-Z", "Y").to_euler()
scene.camera = cam
sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
sun.data.energy = 4
sun.rotation_euler = (0.6, 0.2, 0.4)
scene.collection.objects.link(sun)
scene.world = bpy.data.worlds.new("w")
scene.world.color = (0.6, 0.7, 0.8)
scene.render.engine = "BLENDER_EEVEE"
scene.render.resolution_x, scene.render.resolution_y = 960, 720
scene.render.filepath = png
bpy.ops.render.render(write_still=True)
print("BLENDER wrote", png)
