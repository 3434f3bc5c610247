// The `app` of cdk.json, in plain JavaScript: the `cdk` CLI starts it with whatever `node` is on
// PATH, which may not strip types, so it reruns infra/app.ts with the project's own Node.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = join(root, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
if (!existsSync(node)) {
  console.error(`Easel: ${node} is missing: run \`npm ci\` in ${root} (without --ignore-scripts) before cdk.`);
  process.exit(1);
}
const result = spawnSync(node, [join(root, 'infra', 'app.ts'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
if (result.error) {
  console.error(`Easel: could not run ${node}: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
