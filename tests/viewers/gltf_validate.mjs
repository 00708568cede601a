// The Khronos glTF validator on `aerie export` files: errors, warnings, infos, hints, and its counts.
//   npm install gltf-validator && node tests/viewers/gltf_validate.mjs scene.glb ...
// Not run by the test suite; docs/interop.md gives what it printed.
import fs from 'node:fs';
import validator from 'gltf-validator';
for (const f of process.argv.slice(2)) {
  const data = new Uint8Array(fs.readFileSync(f));
  const r = await validator.validateBytes(data, {maxIssues: 50});
  const i = r.issues;
  console.log(f, 'validator', r.validatorVersion, 'errors', i.numErrors, 'warnings', i.numWarnings, 'infos', i.numInfos, 'hints', i.numHints);
  for (const m of i.messages.filter(m => m.severity <= 1).slice(0, 12)) console.log('  ', m.severity, m.code, m.message, m.pointer || '');
  console.log('   info:', JSON.stringify({triangles: r.info.totalTriangleCount, vertices: r.info.totalVertexCount, materials: r.info.materialCount, nodes: r.info.nodeCount, maxUVs: r.info.maxUVs, images: (r.info.resources||[]).filter(x=>x.storage!=='glb').length}));
}
