// three.js's GLTFLoader (the web viewers' loader) on `aerie export` files, in node: meshes, triangles, bounds.
//   npm install three && node tests/viewers/three_load.mjs scene.glb ...
// Not run by the test suite; docs/interop.md gives what it printed.
import fs from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
globalThis.self = globalThis;
// node has no DOM image decoder: a texture's image is replaced by an empty stand-in (geometry and materials are what is checked)
class FakeBitmapLoader extends THREE.Loader { setOptions() { return this; } load(url, onLoad) { const img = {width: 1, height: 1}; setTimeout(() => onLoad(img)); return img; } }
globalThis.createImageBitmap = () => {};
for (const f of process.argv.slice(2)) {
  const buf = fs.readFileSync(f);
  const loader = new GLTFLoader();
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  await new Promise((res) => loader.parse(ab, '', (gltf) => {
    let tris = 0, meshes = 0; const mats = new Set();
    gltf.scene.updateMatrixWorld(true);
    const box = new THREE.Box3().setFromObject(gltf.scene);
    gltf.scene.traverse((o) => { if (o.isMesh) { meshes++; const g = o.geometry; tris += (g.index ? g.index.count : g.attributes.position.count) / 3; mats.add(o.material.name + (o.material.map ? '(textured)' : '')); } });
    console.log(f, 'three', THREE.REVISION, 'meshes', meshes, 'triangles', tris, 'bounds', box.min.toArray().map(v=>+v.toFixed(3)), box.max.toArray().map(v=>+v.toFixed(3)), 'materials', [...mats].sort().join(','));
    res();
  }, (e) => { console.log(f, 'three ERROR', e.message || e); res(); }));
}
